"""The SPEC §6 checker: valid proofs pass; malformed, tampered and unsound ones fail.

The ground truth for soundness is the exact enumeration (``deduce(obs,
"enumerate")``): a proof the checker accepts must never prove a cell that the
enumeration does not force to that value.
"""

from __future__ import annotations

import copy
import json

import numpy as np
import oracle
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sweeplab
from sweeplab import Observation
from sweeplab.positions import COVERED, FLAG, MINE, NOCLUE, neighbour_counts
from sweeplab.proof_check import _MAX_DEPTH, check_proof, explain_failure
from sweeplab.prover import _Rows, proofs_for, prove

OBS = Observation.from_text("???\n121")
STEP_121 = {"rows": [[[1, 0], 1], [[1, 1], -1], [[1, 2], 1]], "modulus": None, "fixes": [[[0, 1], 0]]}
PROOF_121 = {"cell": [0, 1], "value": 0, "method": "rref", "steps": [STEP_121]}


def proof(cell, value, steps, method="test"):
    return {"cell": list(cell), "value": value, "method": method, "steps": steps}


def combine(rows, fixes=(), modulus=None):
    return {"rows": [[list(s) if s != "total" else s, m] for s, m in rows], "modulus": modulus,
            "fixes": [[list(c), v] for c, v in fixes]}


def truth(obs):
    """``{cell: value}`` of every forced cell (exact enumeration, with the total when known)."""
    d = sweeplab.deduce(obs, "enumerate")
    return {c: 0 for c in d.safe} | {c: 1 for c in d.mines}


# --------------------------------------------------------------------------------------------
# valid proofs


def test_valid_single_steps():
    assert check_proof(OBS, PROOF_121)
    # every cell the rule fixes may be listed, or only some
    full = combine([((1, 0), 1), ((1, 1), -1), ((1, 2), 1)], [((0, 1), 0)])
    assert check_proof(OBS, proof((0, 1), 0, [full]))
    mines = combine([((1, 1), 1), ((1, 0), -1)], [((0, 2), 1)])
    assert check_proof(OBS, proof((0, 2), 1, [mines]))
    # a chain: substitute (0,2), then clue (1,2) alone fixes (0,1)
    chain = [mines, combine([((1, 2), 1)], [((0, 1), 0)])]
    assert check_proof(OBS, proof((0, 1), 0, chain))
    # multipliers scale freely
    assert check_proof(OBS, proof((0, 2), 1, [combine([((1, 1), 3), ((1, 0), -3)], [((0, 2), 1)])]))


def test_valid_total_and_tuples():
    obs = Observation.from_text("?1--\n11--\n---?\n---?", mines=1)
    step = combine([("total", 1), ((0, 1), -1)], [((2, 3), 0), ((3, 3), 0)])
    assert check_proof(obs, proof((3, 3), 0, [step]))
    assert not check_proof(obs.with_mines(None), proof((3, 3), 0, [step]))  # no total known
    as_tuples = {"cell": (3, 3), "value": 0, "method": "m",
                 "steps": ({"rows": (("total", 1), ((0, 1), -1)), "modulus": None, "fixes": (((3, 3), 0),)},)}
    assert check_proof(obs, as_tuples)


def test_where_the_spec_leaves_a_choice():
    # the readings check_proof's Notes state: a step with no rows is rejected, fixes may be a subset
    assert not check_proof(OBS, proof((0, 1), 0, [combine([]), STEP_121]))
    # a 3 over three cells fixes all three: a step may list one of them, or two
    three = Observation.from_text("???\n-3-")
    for fixes in [((0, 0), 1)], [((0, 2), 1), ((0, 0), 1)]:
        assert check_proof(three, proof((0, 0), 1, [combine([((1, 1), 1)], fixes)]))
    assert not check_proof(three, proof((0, 0), 1, [combine([((1, 1), 1)], [((0, 2), 1)])]))


def test_valid_modulus():
    obs = Observation.from_text("??????\n?1122?")
    # clue (1,2) - clue (1,3): x(0,1) - x(0,4) = -1; modulo 7 the same, and -1 is the low end
    step = combine([((1, 2), 1), ((1, 3), -1)], [((0, 1), 0), ((0, 4), 1)], modulus=7)
    assert check_proof(obs, proof((0, 4), 1, [step]))
    # 8 * clue (1,2) - clue (1,3) is the same row modulo 7 (but not over the integers)
    step8 = combine([((1, 2), 8), ((1, 3), -1)], [((0, 4), 1)], modulus=7)
    assert check_proof(obs, proof((0, 4), 1, [step8]))
    assert not check_proof(obs, proof((0, 4), 1, [dict(step8, modulus=None)]))
    assert not check_proof(obs, proof((0, 4), 1, [dict(step8, modulus=4)]))  # not a prime
    assert not check_proof(obs, proof((0, 4), 1, [dict(step8, modulus=True)]))
    # modulo 2 every coefficient becomes 1: x(0,1) + x(0,4) = 1 (mod 2) fixes nothing
    assert not check_proof(obs, proof((0, 4), 1, [dict(step, modulus=2)]))
    assert check_proof(obs, proof((0, 4), 1, [dict(step, modulus=2**61 - 1)]))


def test_a_residue_admitting_two_totals_fixes_nothing():
    # clue (1,1) = 2 over three cells; (0,0) and (0,2) are mines, (0,1) safe (the 1s beside it).
    # Modulo 2 the row reads x(0,0) + x(0,1) + x(0,2) = 0 (mod 2): totals 0 and 2 both fit, so
    # the lowest total is not the only one and no cell is fixed; at p = 3 only 2 fits, at the top
    obs = Observation.from_text("???\n121")
    assert truth(obs) == {(0, 0): 1, (0, 1): 0, (0, 2): 1}
    for cell, v in ((0, 0), 0), ((0, 1), 0), ((0, 2), 0):
        assert not check_proof(obs, proof(cell, v, [combine([((1, 1), 1)], [(cell, v)], modulus=2)]))
    fixes = [((0, 0), 1), ((0, 1), 1), ((0, 2), 1)]  # 2 = hi - 1 is no end: no cell is fixed
    assert not check_proof(obs, proof((0, 0), 1, [combine([((1, 1), 1)], fixes[:1], modulus=3)]))
    # three cells of coefficient 1 with x = 3 (mod 5): only 3 in [0, 3], the top: every cell a mine
    three = Observation.from_text("???\n-3-", noise="lost")
    assert check_proof(three, proof((0, 0), 1, [combine([((1, 1), 1)], fixes[:1], modulus=5)]))
    assert not check_proof(three, proof((0, 0), 1, [combine([((1, 1), 1)], fixes[:1], modulus=2)]))


def test_an_assumption_or_split_on_a_fixed_cell_is_refused():
    contra = combine([((1, 0), 1), ((1, 1), -1), ((1, 2), 1)])  # with (0,1) = 1: 1 = 0
    fix = combine([((1, 0), 1), ((1, 1), -1), ((1, 2), 1)], [((0, 1), 0)])
    assert check_proof(OBS, proof((0, 1), 0, [{"assume": [[0, 1], 1], "steps": [contra]}]))
    again = {"assume": [[0, 1], 1], "steps": [contra]}
    assert not check_proof(OBS, proof((0, 1), 0, [fix, again]))
    assert "already fixed" in explain_failure(OBS, proof((0, 1), 0, [fix, again]))
    split = {"split": [0, 1], "if_0": [contra], "if_1": [contra]}
    assert "already fixed" in explain_failure(OBS, proof((0, 1), 0, [fix, split]))


def test_valid_assume_and_split():
    obs = Observation.from_text("?1?\n2?1\n???")
    contra = combine([((0, 1), -1), ((1, 0), 1), ((1, 2), -1)])
    p = proof((0, 2), 0, [{"assume": [[0, 2], 1], "steps": [contra]}])
    assert check_proof(obs, p)
    # a split whose branches both close, inside the assume
    split = {"split": [1, 1], "if_0": [contra], "if_1": [contra]}
    assert check_proof(obs, proof((0, 2), 0, [{"assume": [[0, 2], 1], "steps": [split]}]))
    # the same contradiction without the assumption closes nothing
    assert not check_proof(obs, proof((0, 2), 0, [{"assume": [[0, 2], 0], "steps": [contra]}]))
    assert not check_proof(obs, proof((0, 2), 1, [{"assume": [[0, 2], 1], "steps": [contra]}]))


# --------------------------------------------------------------------------------------------
# malformed and invalid proofs


def tweak(d, path, value):
    out = copy.deepcopy(d)
    target = out
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return out


@pytest.mark.parametrize("bad", [
    None, 3, "proof", [], {},
    tweak(PROOF_121, ["method"], KeyError),
    tweak(PROOF_121, ["extra"], 1),
    tweak(PROOF_121, ["cell"], [1, 1]),  # a clue, not covered
    tweak(PROOF_121, ["cell"], [5, 0]),  # off the board
    tweak(PROOF_121, ["cell"], [0]),
    tweak(PROOF_121, ["cell"], "01"),
    tweak(PROOF_121, ["cell"], [0, True]),
    tweak(PROOF_121, ["value"], 1),
    tweak(PROOF_121, ["value"], 2),
    tweak(PROOF_121, ["value"], False),
    tweak(PROOF_121, ["method"], 7),
    tweak(PROOF_121, ["steps"], []),
    tweak(PROOF_121, ["steps"], "steps"),
    tweak(PROOF_121, ["steps", 0, "rows"], []),
    tweak(PROOF_121, ["steps", 0, "rows", 0, 0], "clue"),  # unknown source
    tweak(PROOF_121, ["steps", 0, "rows", 0, 0], [0, 0]),  # a covered cell
    tweak(PROOF_121, ["steps", 0, "rows", 0, 0], [9, 9]),
    tweak(PROOF_121, ["steps", 0, "rows", 0, 0], "total"),  # no total known
    tweak(PROOF_121, ["steps", 0, "rows", 0, 1], 0),
    tweak(PROOF_121, ["steps", 0, "rows", 0, 1], 1.0),
    tweak(PROOF_121, ["steps", 0, "rows", 0, 1], True),
    tweak(PROOF_121, ["steps", 0, "rows", 0, 1], "1"),
    tweak(PROOF_121, ["steps", 0, "rows", 0, 1], 2),  # changed multiplier
    tweak(PROOF_121, ["steps", 0, "rows", 1, 1], -2),
    tweak(PROOF_121, ["steps", 0, "rows", 2], [[1, 2]]),
    tweak(PROOF_121, ["steps", 0, "modulus"], 1),
    tweak(PROOF_121, ["steps", 0, "fixes"], KeyError),
    tweak(PROOF_121, ["steps", 0, "modulus"], KeyError),  # SPEC §6: null or a prime, never left out
    tweak(PROOF_121, ["steps", 0, "fixes"], [[[0, 1], 1]]),  # wrong value
    tweak(PROOF_121, ["steps", 0, "fixes"], [[[0, 1], 0], [[0, 0], 1]]),  # not fixed by this step
    tweak(PROOF_121, ["steps", 0, "fixes"], [[[0, 1], 0], [[0, 1], 1]]),
    tweak(PROOF_121, ["steps", 0, "fixes"], [[0, 1], 0]),
    tweak(PROOF_121, ["steps", 0, "fixes"], []),  # the cell ends unfixed
    tweak(PROOF_121, ["steps", 0, "rows"], [[[1, 0], 1], [[1, 1], -1]]),  # dropped row
    tweak(PROOF_121, ["steps", 0, "kind"], "combine"),
])
def test_malformed_or_invalid(bad):
    assert check_proof(OBS, bad) is False


def test_numpy_integers_read_as_integers_and_numpy_bools_do_not():
    # the checker and Proof.from_dict read the same numbers: any integer type, never a bool
    for path, plain in ((["cell", 1], 1), (["steps", 0, "rows", 0, 1], 1), (["steps", 0, "fixes", 0, 1], 0)):
        as_numpy = tweak(PROOF_121, path, np.int64(plain))
        assert check_proof(OBS, as_numpy) is True
        assert check_proof(OBS, sweeplab.Proof.from_dict(as_numpy)) is True
        assert check_proof(OBS, tweak(PROOF_121, path, np.bool_(plain))) is False
    # cells as numpy arrays, as a grid's indices give them: a source too (it was compared with "total")
    for path, cell in ((["cell"], [0, 1]), (["steps", 0, "rows", 0, 0], [1, 0]),
                       (["steps", 0, "fixes", 0, 0], [0, 1])):
        assert check_proof(OBS, tweak(PROOF_121, path, np.array(cell))) is True, path


def test_rows_from_the_grid():
    # a revealed 0 touching no covered cell, a NOCLUE cell, a flag and a revealed mine are no sources
    obs = Observation.from_text("?1.\n-F*\n...")
    for source in ([0, 2], [1, 0], [1, 1], [1, 2], [2, 2]):
        bad = proof((0, 0), 1, [combine([(source, 1)], [((0, 0), 1)])])
        assert not check_proof(obs, bad), source
    # clue (0,1) = 1 with a flag and a revealed mine around: x(0,0) = 1 - 2, a contradiction
    assert "contradiction" in explain_failure(obs, proof((0, 0), 1, [combine([((0, 1), 1)], [((0, 0), 1)])]))
    # the flag counts as a known mine, not a variable
    obs2 = Observation.from_text("?F\n2-")
    assert check_proof(obs2, proof((0, 0), 1, [combine([((1, 0), 1)], [((0, 0), 1)])]))
    assert not check_proof(obs2, proof((0, 1), 1, [combine([((1, 0), 1)], [((0, 1), 1)])]))


def test_contradictions_must_close_an_assumption():
    obs = Observation.from_text("?1?\n2?1\n???")
    contra = combine([((0, 1), -1), ((1, 0), 1), ((1, 2), -1)])
    fix = combine([((0, 1), 1)])  # fixes nothing here
    assume = {"assume": [[0, 2], 1], "steps": [contra]}
    assert check_proof(obs, proof((0, 2), 0, [assume]))
    # at the top level (an inconsistent position: clue 2 over one covered cell)
    bad = Observation.from_text("?2\n--")
    assert not check_proof(bad, proof((0, 0), 1, [combine([((0, 1), 1)])]))
    assert not check_proof(bad, proof((0, 0), 1, [combine([((0, 1), 1)]), combine([((0, 1), 1)])]))
    assert check_proof(bad, proof((0, 0), 1, [{"assume": [[0, 0], 0], "steps": [combine([((0, 1), 1)])]}]))
    # not the last step of its branch
    assert not check_proof(obs, proof((0, 2), 0, [{"assume": [[0, 2], 1], "steps": [contra, fix]}]))
    # an assume with no contradiction
    assert not check_proof(obs, proof((0, 2), 0, [{"assume": [[0, 2], 1], "steps": [fix]}]))
    assert not check_proof(obs, proof((0, 2), 0, [{"assume": [[0, 2], 1], "steps": []}]))
    # a split branch that does not close
    no_contra = combine([((1, 0), 1)])  # with (1,1) a mine: x(0,0) + x(2,0) + x(2,1) = 1, no contradiction
    split = {"split": [1, 1], "if_0": [contra], "if_1": [no_contra]}
    assert not check_proof(obs, proof((0, 2), 0, [{"assume": [[0, 2], 1], "steps": [split]}]))
    split = {"split": [1, 1], "if_0": [contra]}
    assert not check_proof(obs, proof((0, 2), 0, [{"assume": [[0, 2], 1], "steps": [split]}]))
    # a contradiction listing fixes
    bad = dict(contra, fixes=[[[0, 0], 0]])
    assert not check_proof(obs, proof((0, 2), 0, [{"assume": [[0, 2], 1], "steps": [bad]}]))
    # assuming or splitting on a fixed or revealed cell
    assert not check_proof(obs, proof((0, 2), 0, [{"assume": [[0, 1], 1], "steps": [contra]}]))
    twice = {"assume": [[0, 2], 1], "steps": [{"assume": [[0, 2], 0], "steps": [contra]}]}
    assert not check_proof(obs, proof((0, 2), 0, [twice]))
    assert not check_proof(obs, proof((0, 2), 0, [{"assume": [[0, 2], 1], "steps": [
        {"split": [0, 2], "if_0": [contra], "if_1": [contra]}]}]))
    assert not check_proof(obs, proof((0, 2), 0, [{"assume": [[0, 2], 2], "steps": [contra]}]))
    assert not check_proof(obs, proof((0, 2), 0, [{"assume": [[0, 2], 1], "steps": [contra], "x": 1}]))


def test_deep_nesting_is_rejected_not_raised():
    obs = Observation.from_text("?1?\n2?1\n???")
    contra = combine([((0, 1), -1), ((1, 0), 1), ((1, 2), -1)])
    steps = [contra]
    for _ in range(_MAX_DEPTH + 5):
        steps = [{"split": [2, 2], "if_0": steps, "if_1": steps}]
    assert check_proof(obs, proof((0, 2), 0, [{"assume": [[0, 2], 1], "steps": steps}])) is False


def test_shared_branches_cannot_make_the_check_run_for_ever(monkeypatch):
    """A Python proof object whose split branches share one list: valid, but 2**depth steps to run.
    Under the step cap it is checked; past it, rejected at once rather than after 2**40 steps."""
    import sweeplab.proof_check

    monkeypatch.setattr(sweeplab.proof_check, "_MAX_STEPS", 5_000)  # the real cap, 200,000, takes seconds
    obs = Observation.from_text("?" * 45, mines=0)  # no mine: assuming one contradicts the total
    leaf = [{"rows": [["total", 1]], "modulus": None, "fixes": []}]

    def nested(depth):
        steps = leaf
        for k in range(depth, 0, -1):
            steps = [{"split": [0, k], "if_0": steps, "if_1": steps}]
        return proof((0, 0), 0, [{"assume": [[0, 0], 1], "steps": steps}])

    assert check_proof(obs, nested(8))  # 2**10 - 1 steps run
    assert not check_proof(obs, nested(12))  # 2**14 - 1
    assert explain_failure(obs, nested(40)) == "the proof runs more than 5,000 steps (each branch's counted)"


def test_noise_and_bad_positions():
    for noise in ("under", "over"):
        assert not check_proof(Observation.from_text("???\n121", noise=noise), PROOF_121)
    assert check_proof(Observation.from_text("???\n121", noise="lost"), PROOF_121)
    with pytest.raises(ValueError):
        check_proof(None, PROOF_121)
    # text (read by the checker itself, SPEC §1) and rows of codes, with no total
    assert check_proof("???\n121", PROOF_121)
    assert check_proof(Observation.from_text("???\n121").grid.tolist(), PROOF_121)
    assert not check_proof(np.zeros((2, 3), dtype=int), PROOF_121)
    for bad in ("???\n12x", np.zeros((2, 2, 2), dtype=int), 3, "", " \n\n", [], [[]], [[-1, 9]], [[-5, 1]]):
        with pytest.raises(ValueError):
            check_proof(bad, PROOF_121)
    # a home-made position with fractional codes: 1.7 is no clue (it was read as 1)
    from types import SimpleNamespace

    fraction = SimpleNamespace(grid=np.array([[-1.0, 1.7]]), mines=None)
    mine = proof((0, 0), 1, [combine([((0, 1), 1)], [((0, 0), 1)])])
    with pytest.raises(ValueError, match="integer grid"):
        check_proof(fraction, mine)
    assert check_proof(SimpleNamespace(grid=np.array([[-1.0, 1.0]]), mines=None), mine)


def test_explain_failure_gives_a_reason_for_anything_malformed():
    """``check_proof`` said False; ``explain_failure`` raised on a set for a cell or an array source."""
    obs = Observation.from_text("???\n121")
    forged = {"cell": {0, 1}, "value": 0, "method": "x", "steps": []}
    assert not check_proof(obs, forged)
    assert explain_failure(obs, forged).startswith("the proof is malformed")
    # an array source is a cell (as Proof reads it): this proof is refused for what it fails to fix
    forged = {**PROOF_121, "steps": [{"rows": [[np.array([1, 0]), 1]], "modulus": None, "fixes": []}]}
    assert not check_proof(obs, forged)
    assert explain_failure(obs, forged) == "the steps do not fix (0, 1) to 0"


def test_no_code_shared_with_the_methods():
    import ast
    import inspect

    import sweeplab.proof_check as module

    imported = set()
    for node in ast.walk(ast.parse(inspect.getsource(module))):
        if isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
        elif isinstance(node, ast.Import):
            imported.update(a.name for a in node.names)
    assert imported <= {"__future__", "collections.abc", "itertools", "numbers", "typing"}


# --------------------------------------------------------------------------------------------
# tampered proofs from the prover


def prover_corpus():
    """``(obs, proof)`` pairs: every claim of a few methods on positions from seeded play, and splits."""
    out = []
    cases = list(oracle.play_positions("beginner", seed=31, n=25))
    cases += list(oracle.play_positions("intermediate", seed=32, n=6))
    for k, obs in enumerate(cases):
        method = ("trivial", "subset", "bounded", "gfp", "enumerate")[k % 5]
        d = sweeplab.deduce(obs, method)
        proofs, _ = proofs_for(obs, method, d.safe, d.mines)
        out += [(obs, p) for p in list(proofs.values())[:12]]
    split = Observation.from_text("????\n*?3?\n2?2?\n???2\n122?")
    out.append((split, prove(split, (1, 3), 1)))
    assume = Observation.from_text("?1?\n2?1\n???")
    out.append((assume, prove(assume, (0, 2), 0)))
    return out


CORPUS = prover_corpus()


def combining_steps(steps, path=()):
    """Paths (into the JSON) of every combining step."""
    for k, s in enumerate(steps):
        if "rows" in s:
            yield path + (k,)
        elif "assume" in s:
            yield from combining_steps(s["steps"], path + (k, "steps"))
        else:
            yield from combining_steps(s["if_0"], path + (k, "if_0"))
            yield from combining_steps(s["if_1"], path + (k, "if_1"))


def at(d, path):
    for key in path:
        d = d[key]
    return d


def test_corpus_checks():
    assert len(CORPUS) > 200
    assert all(check_proof(obs, p) for obs, p in CORPUS)


def test_tampered_proofs_are_rejected():
    rng = np.random.default_rng(5)
    rejected = total = 0
    for obs, p in CORPUS:
        d = p.to_dict()
        forced = truth(obs)
        # the wrong value: always rejected
        assert not check_proof(obs, dict(d, value=1 - d["value"]))
        # the last top-level step dropped: the cell is no longer fixed
        assert not check_proof(obs, dict(d, steps=d["steps"][:-1]))
        paths = list(combining_steps(d["steps"]))
        for path in paths:
            step = at(d["steps"], path)
            tampered = []
            # a changed multiplier, a dropped row, a wrong fix, a fix of a cell outside the step
            k = int(rng.integers(len(step["rows"])))
            t = copy.deepcopy(d)
            at(t["steps"], path)["rows"][k][1] += int(rng.choice([-1, 1]))
            tampered.append(t)
            if len(step["rows"]) > 1:
                t = copy.deepcopy(d)
                del at(t["steps"], path)["rows"][k]
                tampered.append(t)
            if step["fixes"]:
                t = copy.deepcopy(d)
                fix = at(t["steps"], path)["fixes"][0]
                fix[1] = 1 - fix[1]
                tampered.append(t)
                assert not check_proof(obs, t)
            outside = [tuple(c) for c in np.argwhere(obs.grid == COVERED)]
            support = set()
            for source, _ in step["rows"]:
                if source == "total":
                    support |= set(outside)
                else:
                    r, c = source
                    support |= {(r + i, c + j) for i in (-1, 0, 1) for j in (-1, 0, 1)}
            far = [c for c in outside if c not in support]
            if far:
                t = copy.deepcopy(d)
                at(t["steps"], path)["fixes"].append([[int(x) for x in far[0]], 0])
                assert not check_proof(obs, t)
            for t in tampered:
                total += 1
                if check_proof(obs, t):
                    # still a valid proof (a multiplier that does not matter): then it must be sound
                    assert forced.get(tuple(t["cell"])) == t["value"]
                else:
                    rejected += 1
    assert rejected >= 0.8 * total


def test_branches_that_do_not_close_are_rejected():
    cases = [(obs, p) for obs, p in CORPUS if p.case_analysis]
    assert cases
    for obs, p in cases:
        d = p.to_dict()
        for k, s in enumerate(d["steps"]):
            if "assume" in s:
                t = copy.deepcopy(d)
                t["steps"][k]["steps"] = s["steps"][:-1]  # the closing step dropped
                assert not check_proof(obs, t)
                t = copy.deepcopy(d)
                t["steps"][k]["assume"][1] = 1 - s["assume"][1]  # the other assumption
                assert not check_proof(obs, t)
                for j, inner in enumerate(s["steps"]):
                    if "split" in inner:
                        for branch in ("if_0", "if_1"):
                            t = copy.deepcopy(d)
                            t["steps"][k]["steps"][j][branch] = inner[branch][:-1]
                            assert not check_proof(obs, t)


# --------------------------------------------------------------------------------------------
# property: an accepted proof is sound


def small_position(seed: int) -> Observation:
    """A consistent small position cut from a random layout (flags, revealed mines, NOCLUE, totals)."""
    rng = np.random.default_rng(seed)
    h, w = (int(v) for v in rng.integers(1, 6, 2))
    lay = rng.random((h, w)) < rng.uniform(0.1, 0.45)
    grid = np.where(lay, COVERED, neighbour_counts(lay)).astype(np.int64)
    grid[~lay & (rng.random((h, w)) < rng.uniform(0.2, 0.7))] = COVERED
    grid[lay & (rng.random((h, w)) < 0.15)] = FLAG
    grid[lay & (rng.random((h, w)) < 0.05)] = MINE
    grid[(grid >= 0) & (rng.random((h, w)) < 0.1)] = NOCLUE
    mines = None if rng.random() < 0.3 else int(lay.sum())
    return Observation(grid, mines=mines)


def random_steps(draw, rows: _Rows, fixed: dict, covered: list, depth: int, close: bool):
    """Random steps in the context ``fixed``, fixes taken mostly from the bound rule, some flipped,
    some of any cell."""
    steps = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["combine"] * 4 + (["assume"] if depth < 2 else [])))
        free = [c for c in covered if c not in fixed]
        if kind == "assume" and free:
            cell = draw(st.sampled_from(free))
            v = draw(st.integers(0, 1))
            inner = dict(fixed, **{})
            inner[cell] = v
            sub = random_steps(draw, rows, inner, covered, depth + 1, close=True)
            steps.append({"assume": [list(cell), v], "steps": sub})
            fixed[cell] = 1 - v
            continue
        # a few random combinations; prefer a contradiction when closing, else one that fixes cells
        best = None
        for _ in range(6):
            k = draw(st.integers(1, min(3, len(rows))))
            idx = draw(st.lists(st.integers(0, len(rows) - 1), min_size=k, max_size=k, unique=True))
            mult = draw(st.lists(st.sampled_from([-3, -2, -1, 1, 2, 3]), min_size=k, max_size=k))
            modulus = draw(st.sampled_from([None, None, None, 2, 3, 7]))
            contra, rule, _ = rows.evaluate(list(zip(idx, mult, strict=True)), fixed, modulus)
            candidate = (idx, mult, modulus, contra, rule)
            if (close and contra) or (not close and rule):
                best = candidate
                break
            best = best or candidate
        idx, mult, modulus, contra, rule = best
        fixes = sorted(rule.items())
        mood = draw(st.integers(0, 9))
        if fixes and mood < 2:  # a wrong fix now and then
            c, v = fixes[0]
            fixes[0] = (c, 1 - v)
        elif mood == 2:  # any cell, any value: fixes the rule need not justify (several totals
            # admissible modulo p, a cell of coefficient 0, a cell outside the rows)
            fixes = [(draw(st.sampled_from(covered)), draw(st.integers(0, 1)))]
        elif fixes:
            fixes = draw(st.lists(st.sampled_from(fixes), unique=True, max_size=len(fixes)))
        src = [rows.sources[i] for i in idx]
        steps.append({"rows": [[s if s == "total" else list(s), m] for s, m in zip(src, mult, strict=True)],
                      "modulus": modulus, "fixes": [[list(c), v] for c, v in fixes]})
        fixed.update(dict(fixes))
        if contra:
            break
    return steps


@settings(deadline=None)
@given(st.integers(0, 2**32 - 1), st.data())
def test_accepted_proofs_are_sound(seed, data):
    obs = small_position(seed)
    covered = [(int(r), int(c)) for r, c in np.argwhere(obs.grid == COVERED)]
    if not covered:
        return
    forced = truth(obs)
    rows = _Rows(obs, use_total=True)
    # the prover's proofs for a random cell, both values
    cell = data.draw(st.sampled_from(covered))
    for v in (0, 1):
        p = prove(obs, cell, v)
        if p is not None:
            assert check_proof(obs, p) and forced.get(cell) == v
        elif forced.get(cell) == v:
            pytest.fail(f"no proof of a forced cell {cell} = {v} on\n{obs.to_text()}")
    # random attempts
    if not len(rows):
        return
    fixed: dict = {}
    steps = random_steps(data.draw, rows, fixed, covered, 0, close=False)
    target = data.draw(st.sampled_from(sorted(fixed) or covered))
    value = fixed.get(target, data.draw(st.integers(0, 1)))
    candidate = {"cell": list(target), "value": value, "method": "random", "steps": steps}
    if check_proof(obs, candidate):
        assert forced.get(target) == value, json.dumps(candidate)
        # every cell fixed at the top level of an accepted proof is forced that way
        for step in steps:
            top = [(step["assume"][0], 1 - step["assume"][1])] if "assume" in step else step["fixes"]
            assert all(forced.get(tuple(c)) == v for c, v in top), json.dumps(candidate)


def test_a_home_made_position_is_read_fail_closed():
    """Audit: a total of inf or a list raised OverflowError/TypeError; a total outside
    [known mines, cells] or an unknown noise kind (a game's ``("under", p)``) was read as exact clues."""
    from types import SimpleNamespace

    mine = proof((0, 0), 1, [combine([((0, 1), 1)], [((0, 0), 1)])])
    for total in (float("inf"), float("-inf"), float("nan"), [1], 1j, -1, 3, "1"):
        with pytest.raises(ValueError):
            check_proof(SimpleNamespace(grid=[[-1, 1]], mines=total), mine)
    with pytest.raises(ValueError):
        check_proof(SimpleNamespace(grid=[[-2, -1, 1]], mines=0), mine)  # below the flag
    # both values of (0, 0) followed from mines=-5 (the total row asks -5 mines): ex falso
    safe = proof((0, 0), 0, [{"assume": [[0, 0], 1], "steps": [combine([("total", 1)])]}])
    with pytest.raises(ValueError):
        check_proof(SimpleNamespace(grid=[[-1, 1]], mines=-5), safe)
    assert check_proof(SimpleNamespace(grid=[[-1, 1]], mines=1, noise="lost"), mine)
    for noise in (("under", 0.5), ("lost", 0.1), "UNDER", "bounds", 0):
        obs = SimpleNamespace(grid=[[-1, 1]], mines=1, noise=noise)
        assert not check_proof(obs, mine)
        assert "exact clues" in explain_failure(obs, mine)


def test_a_huge_modulus_is_refused_before_its_primality_test():
    """Audit: Miller-Rabin on a 1281-digit modulus took 8 s (cubic: minutes at JSON's 4300 digits)."""
    obs = Observation.from_text("?1")
    for p in (2**4253 - 1, 2**256 + 297, 2**256):
        step = {"rows": [[[0, 1], 1]], "modulus": p, "fixes": [[[0, 0], 1]]}
        assert not check_proof(obs, proof((0, 0), 1, [step]))
        assert "not below 2**256" in explain_failure(obs, proof((0, 0), 1, [step]))
    step = {"rows": [[[0, 1], 1]], "modulus": 2**256 - 189, "fixes": [[[0, 0], 1]]}  # the largest prime below
    assert check_proof(obs, proof((0, 0), 1, [step]))


def test_the_checker_reads_a_text_position_as_observation_does():
    """A reviewer: with a form feed inside a row, from_text read 2x4 and the checker 4x2, so check_proof of
    the text rejected every valid proof."""
    text = "??\x0c??\n11\x0c11"
    obs = sweeplab.Observation.from_text(text)
    proofs = sweeplab.deduce(obs, "rref", proofs=True).proofs
    assert obs.shape == (2, 4) and proofs and all(check_proof(text, p) for p in proofs.values())


def test_a_dataframe_of_codes_is_read_by_its_rows_and_a_bad_grid_is_named():
    """An adversarial review: a DataFrame, which deduce accepts, was iterated by its column labels."""
    import pandas as pd

    obs = Observation.from_text("???\n121")
    step = {"rows": [[[1, 0], 1], [[1, 1], -1], [[1, 2], 1]], "modulus": None, "fixes": [[[0, 1], 0]]}
    proof = {"cell": [0, 1], "value": 0, "method": "rref", "steps": [step]}
    assert check_proof(pd.DataFrame(obs.grid), proof) and check_proof(obs.grid, proof)
    assert not check_proof(pd.DataFrame(obs.grid), {**proof, "value": 1})
    with pytest.raises(ValueError, match=r"integer grid of cell codes, got list \"\[\[1, 'a'\]\]\""):
        check_proof([[1, "a"]], proof)
