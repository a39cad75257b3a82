"""Bounded work at any size (issue 14 items 6 and 8, Deliver 6).

Every method either answers or raises :class:`~sweeplab.MethodRefused` naming
its budget (``time_limit`` seconds, ``max_bytes`` for dense blocks and
enumeration tables), never a ``MemoryError`` or a hang; the clue system's views
stay sparse and the methods densify one independent block at a time.  No
timings are asserted: budgets are made tiny where a refusal is wanted.
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import oracle
import pytest

import sweeplab
from sweeplab import METHODS, MethodRefused, Observation, clue_system, deduce
from sweeplab.errors import ComponentTooLargeError
from sweeplab.methods import _common, _relaxation
from sweeplab.methods import enumerate as en
from sweeplab.testing import half_revealed

#: Methods that take a ``time_limit`` (``trivial`` is one linear compiled pass).
TIMED = sorted(set(METHODS) & {"subset", "rref", "lstsq", "lstsq-certified", "gf2", "gfp", "bounded", "lp",
                               "milp", "enumerate", "brute"})
ALGEBRAIC = ("rref", "bounded", "lstsq", "lstsq-certified", "gf2", "gfp")


@pytest.fixture(scope="module")
def big() -> Observation:
    # 300 x 300: about 26,000 frontier cells, one block of about 11,000 (dense: ~1 GB per block)
    return half_revealed(300, seed=0)


def test_the_big_position_is_big(big):
    system = clue_system(big)
    blocks = system.merged().blocks()
    largest = max(cols.size for _, cols in blocks)
    assert system.n_frontier > 20_000 and largest > 5_000
    # dense [A | b] of the whole frontier would be several GB; of the largest block, far over the budget
    assert system.n_equations * system.n_frontier > 4 * 10**8
    assert largest * largest * 8 > _common.MAX_BLOCK_BYTES


def test_views_stay_sparse(big):
    system = clue_system(big)
    assert system.A_sparse.nnz  # the rows themselves, built before the views are measured
    tracemalloc.start()
    try:
        merged = system.merged()
        bounds = system.cell_bounds()
        blocks = merged.blocks()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 100 << 20
    assert merged.A_sparse.nnz < 10 * merged.n_rows and bounds.A_sparse.nnz < 10 * bounds.lo.size
    assert sum(rows.size for rows, _ in blocks) == merged.n_rows - merged.has_total


@pytest.mark.parametrize("method", sorted(set(ALGEBRAIC) - {"bounded"}))
def test_algebraic_methods_refuse_a_block_over_max_bytes_before_building_it(big, method):
    tracemalloc.start()
    try:
        with pytest.raises(MethodRefused, match="max_bytes") as info:
            METHODS[method].function(big, use_total=True)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert "raise the option max_bytes" in str(info.value) and method in str(info.value)
    assert peak < 200 << 20  # the sparse system, never a dense frontier-sized or block-sized matrix


def test_bounded_answers_when_propagation_shrinks_the_blocks():
    # bounds propagation on the original rows first: the blocks the RREF then sees are small
    obs = half_revealed(120, seed=1)
    safe, mines = METHODS["bounded"].function(obs, use_total=True)
    want_safe, want_mines = en.forced_cells(obs, time_limit=None)
    assert safe <= want_safe and mines <= want_mines and safe and mines


@pytest.mark.parametrize("method", sorted(METHODS))
def test_every_method_answers_or_refuses_on_the_big_position(big, method):
    options = {"time_limit": 1.0} if method in TIMED else {}
    try:
        d = deduce(big, method, check_consistency=False, **options)
    except MethodRefused as exc:
        assert any(word in str(exc) for word in ("time_limit", "max_bytes", "max_variables", "max_nodes"))
    else:
        assert isinstance(d.safe, frozenset)


@pytest.mark.parametrize("method", TIMED)
def test_time_limit_refuses_with_the_budget_named(method):
    obs = next(oracle.play_positions("expert", seed=3, n=1))
    if method == "brute":
        obs = Observation.from_text("????\n1221\n----", mines=3)
    with pytest.raises(MethodRefused, match="time_limit") as info:
        deduce(obs, method, time_limit=1e-9)
    assert "raise the option time_limit" in str(info.value)


@pytest.mark.parametrize("bad", [0, -1, float("nan"), "10", True])
@pytest.mark.parametrize("option", ["time_limit", "max_bytes"])
def test_bad_budgets_are_value_errors_naming_the_option(option, bad):
    if option == "max_bytes" and bad == "10":
        bad = 10.5
    with pytest.raises(ValueError, match=f"option {option} of method 'rref'") as info:
        deduce("?1\n11", "rref", **{option: bad})
    assert not isinstance(info.value, MethodRefused)


def test_a_time_limit_past_floats_is_no_limit():
    """An adversarial review: time_limit=10**400 raised a bare OverflowError."""
    assert deduce("?1\n11", "rref", time_limit=10**400).mines == {(0, 0)}
    assert sweeplab.probabilities("?1\n11", time_limit=10**400)[0, 0] == 1.0


def test_no_limit_is_none():
    obs = next(oracle.play_positions("intermediate", seed=2, n=1))
    for method in TIMED:
        if method == "brute":
            continue
        sized = method in ALGEBRAIC or method == "enumerate"
        deduce(obs, method, time_limit=None, **({"max_bytes": None} if sized else {}))
    sweeplab.probabilities(obs, time_limit=None, max_bytes=None)


def test_probabilities_refuse_past_their_budget():
    assert issubclass(ComponentTooLargeError, MethodRefused)
    obs = half_revealed(36, seed=0, density=0.4)  # dense: the dynamic programme's tables grow fast
    with pytest.raises(MethodRefused, match="max_bytes"):
        sweeplab.probabilities(obs, max_nodes=1_000, max_bytes=4 << 20)
    with pytest.raises(MethodRefused, match="time_limit"):
        sweeplab.probabilities(obs, time_limit=1e-9)
    p = sweeplab.probabilities(Observation.from_text("1?\n??", mines=1), max_bytes=1 << 20, time_limit=5)
    assert p[0, 1] == pytest.approx(1 / 3)


def test_enumerate_falls_back_to_milp_with_the_time_left():
    obs = half_revealed(36, seed=0, density=0.4)
    want = en.forced_cells(obs, time_limit=None)
    assert en.forced_cells(obs, max_nodes=1_000, max_bytes=4 << 20) == want  # milp takes over
    with pytest.raises(ComponentTooLargeError, match="max_bytes"):
        en.forced_cells(obs, max_nodes=1_000, max_bytes=4 << 20, fallback=None)


def test_time_running_out_at_a_hand_over_is_a_refusal_or_an_answer(monkeypatch):
    # The deadline can pass between enumerate's last check and its call of milp, and lp's check of
    # consistency gets a tenth of a limit that can underflow to 0: neither may reach the callee as a
    # limit it rejects (a ValueError naming the other method's option).
    obs = Observation.from_text("1??\n???\n??1", mines=3)
    want = deduce(obs, "milp")
    monkeypatch.setattr(_common.Budget, "check", lambda self, doing: None)  # the check passed just in time
    got = en.forced_cells(obs, max_bytes=1, time_limit=1e-9)  # too large for enumerate: milp takes over
    assert got == (set(want.safe), set(want.mines))
    monkeypatch.undo()
    for tiny in (5e-324, 1e-323):  # a tenth of it is 0.0
        with pytest.raises(MethodRefused, match="time_limit"):
            deduce(obs, "lp", time_limit=tiny)


@pytest.mark.parametrize("use_total", [True, False])
def test_lp_and_milp_block_by_block_equal_the_whole_board(use_total):
    # the per-block programs are exact when the total row leaves room; the whole-board ones always are
    seen = 0
    for level, seed in (("expert", 5), ("intermediate", 6)):
        for obs in oracle.play_positions(level, seed=seed, n=12, flag_rate=0.3):
            s = clue_system(obs, use_total=use_total).cell_bounds()
            budget = _common.Budget("lp", time_limit=None)
            relaxation = _relaxation.Relaxation(s, budget)
            by_block = relaxation.by_block()
            if by_block is None:
                continue
            seen += 1
            whole = relaxation.whole()
            assert by_block == {j: v for j, v in whole.items() if j < s.cells.size}, obs
            want = oracle.forced(obs, use_total=use_total)
            assert METHODS["milp"].function(obs, use_total=use_total) == want
    assert seen >= 5


def test_solve_time_limit_reaches_the_methods(tmp_path, capsys):
    """``sweeplab solve --time-limit``: methods that take a time budget refuse past it (issue 14 item 6)."""
    from sweeplab.cli import main

    pos = tmp_path / "p.txt"
    pos.write_text("??????\n?1122?\n")
    assert main(["solve", str(pos), "--all", "--mines", "3", "--time-limit", "30"]) == 0
    assert "milp" in capsys.readouterr().out
    assert main(["solve", str(pos), "--time-limit", "-1"]) == 2
    assert "--time-limit" in capsys.readouterr().err


def test_the_proof_search_stops_within_its_program(monkeypatch):
    """One linear program of the proof search on a 150x150 board took 1 s, past a budget checked only
    between programs: HiGHS gets the time left, and running out there is over budget, not "no proof"."""
    from sweeplab import _highs, prover

    obs = Observation.from_text("*3??\n?5?4\nF?F?", mines=7)  # a position whose proofs solve programs
    given = []

    def out_of_time(*args, time_limit=None, **kwargs):
        given.append(time_limit)
        return _highs.Solution("time limit", None, "Time limit reached")

    monkeypatch.setattr(prover, "solve_program", out_of_time)
    claims = {(2, 1)}, {(0, 3), (1, 0), (2, 3)}  # rref's
    proofs, over = prover.prove_all(obs, *claims, style="linear", time_limit=7.0)
    assert given and all(0 < t <= 7.0 for t in given)
    assert set(proofs) | over == {(2, 1), (0, 3), (1, 0), (2, 3)}  # none taken for wrong
    assert all(sweeplab.check_proof(obs, proof) for proof in proofs.values())
    search = prover._Prover(obs, True, budget=prover.DEFAULT_BUDGET, max_depth=2, max_lps=10, time_limit=7.0)
    with pytest.raises(prover._OverBudget):  # no answer in time is not "infeasible" (``None``)
        search.run_program()
    monkeypatch.undo()
    proofs, over = prover.prove_all(obs, *claims, style="linear", time_limit=7.0)
    assert len(proofs) == 4 and not over


def test_deduce_bounds_the_proof_search_of_any_method(monkeypatch, tmp_path, capsys):
    """``trivial`` takes no time_limit, so its proofs had only the prover's 20 s (108 s on 300x300, where
    programs overran it) and ``solve --explain --time-limit`` did not reach them."""
    from sweeplab import prover
    from sweeplab.cli import main

    seen = []
    search = prover.prove_all

    def recorded(*args, **kwargs):
        seen.append(kwargs.get("time_limit", prover.TIME_LIMIT))
        return search(*args, **kwargs)

    monkeypatch.setattr(prover, "prove_all", recorded)
    obs = Observation.from_text("?1\n11")  # (0,0) a mine: one clue with one covered cell
    assert set(deduce(obs, "trivial", proofs=True, proof_time_limit=3).proofs) == {(0, 0)}
    assert set(deduce(obs, "trivial", proofs=True).proofs) == {(0, 0)}
    assert seen == [3.0, prover.TIME_LIMIT]
    for bad in (0, -1, "2", True, float("nan")):
        with pytest.raises(ValueError, match=r"proof_time_limit must be a positive number of seconds"):
            deduce(obs, "trivial", proofs=True, proof_time_limit=bad)
    pos = tmp_path / "p.txt"
    pos.write_text("?1\n11\n")
    seen.clear()
    assert main(["solve", str(pos), "--method", "trivial", "--explain", "--time-limit", "2.5"]) == 0
    assert seen == [2.5] and "(0,0) is a mine." in capsys.readouterr().out


def test_time_numba_spends_compiling_is_not_a_methods_work():
    """An independent review: on a fresh install the first lp call compiled its kernels for 20-29 s inside
    its 20 s budget and refused a three-cell position ("ran past its time budget")."""
    import time

    import numba.core.event

    from sweeplab.methods._common import Budget

    budget = Budget("lp", time_limit=0.2)
    with numba.core.event.trigger_event("numba:compile", data={"dispatcher": None, "args": None,
                                                               "return_type": None}):
        time.sleep(0.3)  # as if a kernel compiled
    budget.check("after compiling")  # the 0.3 s did not count
    assert 0 < budget.left() <= 0.2
    time.sleep(0.25)
    with pytest.raises(MethodRefused, match="ran past its time budget time_limit=0.2 s"):
        budget.check("working")


def test_another_threads_compiling_does_not_stretch_a_budget():
    """A review: the compile clock was the process's, so a 0.5 s budget ran 4.6 s while another thread
    compiled."""
    import threading
    import time

    import numba.core.event

    from sweeplab.methods._common import Budget

    budget = Budget("lp", time_limit=0.2)

    def compile_elsewhere():
        with numba.core.event.trigger_event("numba:compile", data={"dispatcher": None, "args": None,
                                                                   "return_type": None}):
            time.sleep(0.3)

    other = threading.Thread(target=compile_elsewhere)
    other.start()
    other.join()
    with pytest.raises(MethodRefused, match="ran past its time budget"):
        budget.check("working while another thread compiled")


def test_the_count_arrays_and_the_dynamic_programme_share_one_budget():
    """An adversarial review: the programme's tables were held to ``max_bytes`` on their own, beside the
    count arrays already held, so a refusal came at 1.4-1.8 times the budget."""
    game = sweeplab.Game((50, 50), 450, first_click="zero", mode="score", seed=3)
    game.reveal(25, 25)
    safe = np.argwhere(~game.layout)
    for r, c in safe[np.random.default_rng(3).choice(len(safe), len(safe) * 3 // 10, replace=False)]:
        game.reveal(int(r), int(c))
    obs = game.observation  # a block of 971 cells: the count arrays take 7 MiB, the programme runs
    budget = 16 << 20
    tracemalloc.start()
    try:
        with pytest.raises(ComponentTooLargeError, match="and the count arrays need more than max_bytes"):
            sweeplab.probabilities(obs, max_nodes=1_000, max_bytes=budget, time_limit=None)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1.1 * budget
