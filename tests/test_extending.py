"""Building on the lab: one's own methods and agents, and the mistakes the framework catches (SPEC §4, §5)."""

from __future__ import annotations

import dataclasses
import json
import sys
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import sweeplab
from sweeplab import METHODS, MethodRefused, Observation, deduce
from sweeplab.agents import AGENTS, Agent, Move, make_agent
from sweeplab.agents.base import random_covered
from sweeplab.cli import main
from sweeplab.dominance import dominance
from sweeplab.errors import AgentBugError, MethodBugError
from sweeplab.methods import PLUGINS_ENV
from sweeplab.positions import COVERED
from sweeplab.reach import cascade_games, cascade_shares
from sweeplab.stats import format_summary, summarize
from sweeplab.testing import check_sound, random_positions


def nothing(obs, *, use_total=True):
    return set(), set()


def first_covered_safe(obs, *, use_total=True):
    """Wrong whenever the first covered cell may hold a mine: claims it safe."""
    covered = np.argwhere(obs.grid == COVERED)
    return ({tuple(int(v) for v in covered[0])} if covered.size else set()), set()


def both_ways(obs, *, use_total=True):
    covered = [tuple(int(v) for v in c) for c in np.argwhere(obs.grid == COVERED)[:1]]
    return covered, covered


def exact_single_clue(obs, *, use_total=True):
    """The single-clue rule on equalities: sound on exact clues, wrong when a lower bound is read as exact."""
    system = sweeplab.clue_system(obs, use_total=use_total)
    mines = set()
    for i in range(system.n_equations):
        cols = np.flatnonzero(system.A[i])
        if system.b[i] == cols.size and cols.size:
            mines.update(system.cells[j] for j in cols)
    return set(), mines


# ----------------------------------------------------------------------------- names
@pytest.mark.parametrize("name", ["guess", "first"])
def test_the_names_of_agents_other_moves_are_refused(clean_registry, name):
    with pytest.raises(ValueError, match="reserved"):
        sweeplab.register_method(name, nothing, sound=True, complete=False)


def test_a_name_sharing_a_methods_result_column_is_refused(clean_registry):
    with pytest.raises(ValueError, match="'lstsq_certified' differs from the method 'lstsq-certified'"):
        sweeplab.register_method("lstsq_certified", nothing, sound=True, complete=False)
    sweeplab.register_method("my-rule", nothing, sound=True, complete=False)
    with pytest.raises(ValueError, match="'my-rule'"):
        sweeplab.register_method("my_rule", nothing, sound=True, complete=False)


@pytest.mark.parametrize("name", ["my method", "a=b", "x,y", "-x", "", "a>b", 3])
def test_names_the_command_line_cannot_read_are_refused(clean_registry, name):
    with pytest.raises(ValueError, match="letters, digits"):
        sweeplab.register_method(name, nothing, sound=True, complete=False)
    with pytest.raises(ValueError, match="letters, digits"):
        sweeplab.register_agent(name, _EdgeFirst)


def test_a_registered_methods_moves_are_counted_under_its_own_column(clean_registry):
    """(A method once named "guess" had its proved moves counted as guesses: such names are refused.)"""
    sweeplab.register_method("trivial-again", _trivial_again, sound=True, complete=False)
    df = sweeplab.play("chain", methods=["trivial-again"], level="beginner", games=10, seed=3)
    ref = sweeplab.play("chain", methods=["trivial"], level="beginner", games=10, seed=3)
    assert df["certain_trivial_again"].sum() == ref["certain"].sum() > 0
    assert (df["guesses"] == ref["guesses"]).all()


def _trivial_again(obs, *, use_total=True):
    d = deduce(obs, "trivial", use_total=use_total)
    return d.safe, d.mines


# ----------------------------------------------------------------------------- clue noise
def test_a_method_that_does_not_read_bounds_is_refused_noisy_bounds(clean_registry):
    """Reading a lower bound as the clue claims wrong cells: the registry refuses the position for it."""
    obs = Observation.from_text("???\n?2?", noise="under")  # the true clue is at least 2
    assert exact_single_clue(obs) == (set(), set())  # reads nothing here ...
    obs = Observation.from_text("??\n1?", noise="under")  # ... but here it reads "exactly 1 of 3"
    sweeplab.register_method("eq-only", exact_single_clue, sound=True, complete=False)
    for noise in ("under", "over"):
        with pytest.raises(MethodRefused, match="'eq-only' needs exact clues"):
            deduce(Observation.from_text("??\n1?", noise=noise), "eq-only")
    sweeplab.register_method("eq-bounds", exact_single_clue, sound=True, complete=False, reads_bounds=True)
    assert METHODS["eq-bounds"].reads_bounds and not METHODS["eq-only"].reads_bounds
    for noise in ("under", "over"):
        deduce(Observation.from_text("??\n1?", noise=noise), "eq-bounds")  # the author's word: it runs
    assert deduce(Observation.from_text("??\n3?"), "eq-only").mines == {(0, 0), (0, 1), (1, 1)}


def test_agents_keep_methods_that_read_bounds_and_replace_the_others(clean_registry):
    sweeplab.register_method("bounds-ok", nothing, sound=True, complete=False, reads_bounds=True)
    sweeplab.register_method("bounds-no", nothing, sound=True, complete=False)
    agent = make_agent("chain", methods=("bounds-ok", "bounds-no", "rref", "trivial"))
    noisy = Observation.from_text("??\n1?", noise="over")
    assert agent.chain(noisy) == ("bounds-ok", "enumerate", "trivial")
    assert agent.chain(Observation.from_text("??\n1?")) == ("bounds-ok", "bounds-no", "rref", "trivial")
    assert [m for m in METHODS if METHODS[m].reads_bounds and METHODS[m].builtin] == [
        "trivial", "lp", "milp", "enumerate", "brute"]


# ----------------------------------------------------------------------------- wrong claims and bugs
def test_a_wrong_claim_of_a_method_registered_sound_is_named_in_its_proofs(clean_registry):
    sweeplab.register_method("liar", first_covered_safe, sound=True, complete=False)
    obs = Observation.from_text("??\n?1", mines=1)
    d = deduce(obs, "liar", proofs=True)
    assert d.safe == {(0, 0)} and d.unproved == {(0, 0)}
    reason = d.unproved_reason((0, 0), obs)
    assert "wrong" in reason and "'liar' is registered sound" in reason


def test_a_function_given_directly_is_not_blamed_on_the_method_it_is_named_like():
    """``deduce`` names a function given directly by its ``__name__``; its wrong claim is not a bug of the
    registered sound method of that name."""
    def trivial(obs, *, use_total=True):
        return first_covered_safe(obs, use_total=use_total)

    obs = Observation.from_text("??\n?1", mines=1)
    d = deduce(obs, trivial, proofs=True)
    assert d.method == "trivial" and d.unproved == {(0, 0)} and not d.registered
    assert d.unproved_reason((0, 0), obs) == "the claim is wrong: a layout fits with the other value"
    assert deduce(obs, "trivial", proofs=True).registered


def test_a_registered_methods_option_p_is_not_read_as_a_proofs_modulus(clean_registry):
    """Only gfp's p is a modulus: a method of one's own whose option p is a threshold or a label still
    gets its proofs."""
    def via_rref(obs, *, use_total=True, p="exact"):
        d = deduce(obs, "rref", use_total=use_total)
        return d.safe, d.mines

    sweeplab.register_method("via-rref", via_rref, sound=True, complete=False)
    obs = Observation.from_text("??????\n?1122?")
    for p in ("exact", 0.5):
        d = deduce(obs, "via-rref", proofs=True, p=p)
        assert d.cells == {(0, 1), (0, 4)} and not d.unproved
        assert all(sweeplab.check_proof(obs, proof) for proof in d.proofs.values())


def test_a_function_given_directly_is_proved_by_cases_whatever_its_name():
    """deduce takes a function without registering it: one named like a built-in (here "gfp") is not
    that built-in, so its option p is not read as a modulus, and its proofs still check."""
    def gfp(obs, *, use_total=True, p="x"):
        d = deduce(obs, "rref", use_total=use_total)
        return d.safe, d.mines

    obs = Observation.from_text("??????\n?1122?")
    d = deduce(obs, gfp, proofs=True, p="x")
    assert d.method == "gfp" and d.cells == {(0, 1), (0, 4)} and not d.unproved
    assert all(sweeplab.check_proof(obs, proof) for proof in d.proofs.values())
    assert all(step["modulus"] is None for proof in d.proofs.values() for step in proof.to_dict()["steps"])
    assert deduce(obs, "gfp", proofs=True).proofs[(0, 1)].to_dict()["steps"][0]["modulus"] == 7


def test_a_methods_own_option_budget_is_not_read_as_the_proofs_size_budget(clean_registry):
    """A registered method with an option budget of its own (0: no cap, say) had every claim called over
    the proofs' size budget: the prover read the option as its budget, not the documented one."""
    def capped(obs, *, use_total=True, budget=None, max_depth=None, max_lps=None):
        d = deduce(obs, "trivial", use_total=use_total)
        return d.safe, d.mines

    sweeplab.register_method("capped", capped, sound=True, complete=False)
    obs = Observation.from_text("??1\n111", mines=1)
    for method in ("capped", capped):
        d = deduce(obs, method, proofs=True, budget=0, max_depth=0, max_lps=0)
        assert d.cells == {(0, 0), (0, 1)} and len(d.proofs) == 2 and not d.over_budget and not d.unproved


def test_dominance_refuses_a_sound_method_that_claims_what_no_layout_forces(clean_registry):
    sweeplab.register_method("liar", first_covered_safe, sound=True, complete=False)
    positions = [Observation.from_text("??\n?1", mines=1)]
    with pytest.raises(ValueError, match="'liar' is registered sound but claimed \\[\\(0, 0\\)\\]"):
        dominance(positions, methods=("liar", "enumerate"))
    assert dominance(positions, methods=("trivial", "enumerate")).positions == 1  # the honest ones pass
    with pytest.raises(ValueError, match=r"'lstsq' is not sound; dominance compares sound methods: \[.*'liar'"
                       ):  # the choices name registered ones too (a review)
        dominance(positions, methods=("lstsq", "enumerate"))


def test_dominance_catches_a_cell_claimed_with_the_wrong_value(clean_registry):
    """(0, 0) is forced, as a mine: claiming it safe is wrong though the cell is forced."""
    sweeplab.register_method("liar", first_covered_safe, sound=True, complete=False)
    with pytest.raises(ValueError, match="'liar'"):
        dominance([Observation.from_text("?1\n11")], methods=("enumerate", "liar"))


def test_check_sound_reports_a_cell_claimed_both_ways_instead_of_crashing(clean_registry):
    sweeplab.register_method("both-ways", both_ways, sound=True, complete=False)
    report = check_sound("both-ways", positions=random_positions(40, seed=2))
    assert not report and report.wrong_claims > 0
    first = report.counterexamples[0]
    assert "both safe and a mine" in str(first) and first.wrong_safe | first.wrong_mines


def test_any_error_a_method_raises_but_a_refusal_names_the_method_and_position(clean_registry):
    def broken(obs, *, use_total=True):
        return int("abc"), set()

    sweeplab.register_method("broken", broken, sound=True, complete=False)
    with pytest.raises(ValueError, match="invalid literal") as info:
        deduce("?1\n11", "broken")
    assert any("raised by method 'broken'" in note for note in info.value.__notes__)
    with pytest.raises(MethodRefused) as refused:  # a refusal stays as it is
        deduce(Observation.from_text("??\n1?", noise="under"), "rref")
    assert not getattr(refused.value, "__notes__", None)


def test_a_value_error_from_a_plugin_method_is_its_bug_not_bad_input(clean_registry, capsys):
    """A new user's review: a plugin method raising ValueError read as bad input on the command line
    (`play`, `compare`, `sweep`, `generate`: one line without the method's name, exit 2)."""
    def strict(obs, *, use_total=True):
        raise ValueError("inner value error")

    sweeplab.register_method("strict", strict, sound=True, complete=False)
    with pytest.raises(MethodBugError, match="method 'strict' raised ValueError: inner value") as bug:
        deduce("?1\n11", "strict")
    assert isinstance(bug.value.__cause__, ValueError) and "SPEC §4" in str(bug.value)
    assert any("raised by method 'strict' on this position" in note for note in bug.value.__notes__)
    argv = ["play", "--agent", "chain", "--option", 'methods=["strict"]', "--level", "beginner",
            "--games", "2"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "method 'strict' raised ValueError: inner value error (a bug in the method" in err
    with pytest.raises(ValueError, match="method 'gfp'.*p") as bad:  # a built-in's option check: bad input
        deduce("?1\n11", "gfp", p=4)
    assert not isinstance(bad.value, MethodBugError)


def test_a_function_that_can_never_be_called_as_a_method_is_refused_and_a_missing_option_named(
        clean_registry):
    """A parameter only a position can fill is refused at registration; one without a default is an
    option that deduce names when it is missing (it was a bare TypeError at the first use)."""
    def positional(obs, system, /, *, use_total=True):
        return set(), set()

    def with_system(obs, system, *, use_total=True):
        return set(), set()

    with pytest.raises(ValueError, match=r"function\(obs, system, /, \*, use_total=True\) cannot be "
                                         r"called as function\(obs, \*, use_total=True, \*\*options\)"):
        sweeplab.register_method("positional", positional, sound=True, complete=False)
    assert "positional" not in METHODS
    sweeplab.register_method("with-system", with_system, sound=True, complete=False)
    with pytest.raises(ValueError, match=r"method 'with-system' needs the option 'system' \(it has no "
                                         r"default\): deduce\(obs, 'with-system', system=\.\.\.\)"):
        deduce("?1\n11", "with-system")
    assert deduce("?1\n11", "with-system", system=None).cells == frozenset()


def test_a_methods_summary_defaults_to_its_docstrings_first_line(clean_registry, capsys):
    def documented(obs, *, use_total=True):
        """Nothing, documented.

        More words.
        """
        return set(), set()

    assert sweeplab.register_method("documented", documented, sound=True, complete=False,
                                    reference="my paper").summary == "Nothing, documented."
    assert main(["methods", "documented"]) == 0
    head = capsys.readouterr().out.splitlines()[:2]
    assert head == ["documented: Nothing, documented.", "  sound, not complete; reference: my paper"]
    given = sweeplab.register_method("plain", nothing, sound=True, complete=False, summary="it")
    assert given.summary == "it"

    def options_only(obs, *, use_total=True, k=1):
        """Parameters
        ----------
        k : int
            The k.
        """
        return set(), set()

    assert sweeplab.register_method("options-only", options_only, sound=True, complete=False).summary == ""


def test_check_sound_calls_a_method_as_agents_do_with_no_time_limit(clean_registry):
    """A time_limit option that cannot take None passed check_sound and crashed every agent."""
    def timed(obs, *, use_total=True, time_limit=1.0):
        _ = time_limit + 0.0  # as a deadline "now + time_limit" reads it: a TypeError on None
        return set(), set()

    sweeplab.register_method("timed", timed, sound=True, complete=False)
    with pytest.raises(TypeError, match="NoneType"):
        check_sound("timed", positions=random_positions(3))
    with pytest.raises(TypeError, match="NoneType"):
        sweeplab.play("chain", methods=["timed"], level="beginner", games=1, seed=0)
    seen = []

    def untimed_ok(obs, *, use_total=True, time_limit=1.0):
        seen.append(time_limit)
        return set(), set()

    three = {"positions": random_positions(3), "use_total": (True,)}
    assert check_sound(untimed_ok, **three)
    assert check_sound(untimed_ok, **{**three, "positions": random_positions(3)}, options={"time_limit": 2})
    assert seen == [None] * 3 + [2] * 3


def no_layout(obs, *, use_total=True):
    """Wrong on every position a layout fits: says none does."""
    raise sweeplab.InconsistentPositionError("no layout fits (so this method says)")


def test_play_counts_a_false_no_layout_fits_as_a_wrong_claim(clean_registry):
    """A chain agent meets the claim, finds no move and guesses: every such turn is one wrong claim."""
    sweeplab.register_method("no-layout", no_layout, sound=True, complete=False)
    df = sweeplab.play("chain", methods=["no-layout"], level="beginner", games=6, seed=4)
    assert (df["wrong_claims"] == df["guesses"]).all() and df["guesses"].min() > 0
    honest = sweeplab.play("chain", methods=["enumerate"], level="beginner", games=6, seed=4)
    assert (honest["wrong_claims"] == 0).all()


def test_play_does_not_count_a_true_no_layout_fits(clean_registry):
    """Misread noisy clues: enumeration's "no layout fits" is right on what it was given (the true
    numbers differ from those it read), so only wrong cells count, as without the check."""
    df = sweeplab.play("chain", methods=["enumerate"], level="beginner", games=30, seed=2,
                       noise=("under", 0.5), noise_aware=False)
    from sweeplab.methods import no_layout_claims

    with no_layout_claims() as claims:
        again = sweeplab.play("chain", methods=["enumerate"], level="beginner", games=30, seed=2,
                              noise=("under", 0.5), noise_aware=False)
    assert claims, "no inconsistent position met: the test tests nothing"
    pd.testing.assert_series_equal(df["wrong_claims"], again["wrong_claims"])
    sweeplab.register_method("enumerate-again", _enumerate_again, sound=True, complete=True)
    same = sweeplab.play("chain", methods=["enumerate-again"], level="beginner", games=30, seed=2,
                         noise=("under", 0.5), noise_aware=False)
    assert (same["wrong_claims"] == df["wrong_claims"]).all() and (same["won"] == df["won"]).all()


def _enumerate_again(obs, *, use_total=True):
    d = deduce(obs, "enumerate", use_total=use_total)
    return d.safe, d.mines


@pytest.mark.parametrize("convention", ["all", "reveal"])
def test_reach_refuses_a_sound_method_that_says_no_layout_fits_a_real_game(clean_registry, convention):
    from sweeplab.noguess import solve_layout

    layout = np.zeros((6, 6), dtype=bool)
    layout[[0, 1, 3, 5, 5], [5, 3, 2, 0, 3]] = True  # (0, 0) opens a few cells, not the board
    sweeplab.register_method("no-layout", no_layout, sound=True, complete=False)
    with pytest.raises(ValueError, match="'no-layout', registered sound, said no layout fits this position"):
        solve_layout(layout, (0, 0), "no-layout", convention=convention)
    sweeplab.register_method("no-layout", no_layout, sound=False, complete=False, replace=True)
    assert solve_layout(layout, (0, 0), "no-layout", convention=convention).status == "playing"


# ----------------------------------------------------------------------------- cascades of one's own
def test_cascade_shares_list_the_chain_played_in_its_order(clean_registry):
    sweeplab.register_method("silent", nothing, sound=True, complete=False)
    rows = cascade_games(level="beginner", games=3, seed=0, methods=("trivial", "silent", "enumerate"))
    assert set(rows["chain"]) == {"trivial>silent>enumerate"}
    shares = cascade_shares(rows)
    table = shares[shares["group"] == "all"]
    assert table["source"].tolist() == ["first", "trivial", "silent", "enumerate", "guess"]
    assert int(table.set_index("source").loc["silent", "decisions"]) == 0
    assert abs(table["share"].sum() - 1) < 1e-9


# ----------------------------------------------------------------------------- agents of one's own
@dataclasses.dataclass(frozen=True)
class _EdgeFirst(Agent):
    methods: tuple[str, ...] = ("trivial", "enumerate")
    first_move: str | tuple[int, int] = "corner"
    use_total: bool = True
    interior_after: int = 0

    def guess(self, obs, rng):
        border = np.zeros(obs.shape, dtype=bool)
        border[[0, -1], :] = border[:, [0, -1]] = True
        return random_covered(obs.grid, rng, border) or random_covered(obs.grid, rng)


def test_a_registered_agent_plays_by_name_with_options_on_any_worker_count(clean_registry):
    info = sweeplab.register_agent("edge-first", _EdgeFirst, summary="border guesses")
    assert AGENTS["edge-first"] is info and not info.builtin and AGENTS["best"].builtin
    one = sweeplab.play("edge-first", level="beginner", games=24, seed=5, workers=1)
    two = sweeplab.play("edge-first", level="beginner", games=24, seed=5, workers=2)
    timing = [c for c in one.columns if c.startswith("seconds")]
    assert one.drop(columns=timing).equals(two.drop(columns=timing))
    assert set(one["agent"]) == {"edge-first"} and one["won"].any()
    assert make_agent("edge-first", interior_after=3).interior_after == 3
    # the README's agent takes every first move the base class does (a narrower annotation refused a cell)
    assert sweeplab.play("edge-first", first_move=(3, 3), level="beginner", games=2, seed=5)["won"].size == 2
    with pytest.raises(ValueError, match="no option 'bias'"):
        make_agent("edge-first", bias=1)


def test_an_agent_guessing_a_cell_already_open_is_an_error_not_a_stuck_game(clean_registry, capsys):
    """Such a guess changed nothing, and play recorded a lost 'stuck' game without a word."""
    @dataclasses.dataclass(frozen=True)
    class OpenGuess(Agent):
        methods: tuple[str, ...] = ("trivial",)

        def guess(self, obs, rng):
            return tuple(int(v) for v in np.argwhere(obs.grid >= 0)[0])

    @dataclasses.dataclass(frozen=True)
    class NoGuess(Agent):
        methods: tuple[str, ...] = ("trivial",)

        def guess(self, obs, rng):
            return None

    sweeplab.register_agent("open-guess", OpenGuess)
    with pytest.raises(ValueError, match=r"agent 'open-guess' returned only moves that change nothing "
                                         r"\(reveal \(\d+, \d+\) \[guess\]\)"):
        sweeplab.play("open-guess", level="beginner", games=1, seed=1)
    games = sweeplab.play(NoGuess(), level="beginner", games=2, seed=1)  # no move at all: stuck (documented)
    assert set(games["status"]) <= {"stuck", "won"} and "stuck" in set(games["status"])
    # a new user's review: the summary said nothing of them (a guess without `return` reads as a win rate)
    summary = summarize(games)
    assert summary["stuck"].tolist() == [int((games["status"] == "stuck").sum())]
    assert " stuck " in format_summary(summary).splitlines()[0]
    assert "stuck" not in format_summary(summarize(sweeplab.play("trivial", level="beginner", games=2)))
    sweeplab.register_agent("no-guess", NoGuess)  # and compare's lines (a review)
    assert main(["compare", "no-guess", "trivial", "--level", "beginner", "--games", "4", "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    stuck = int((sweeplab.play(NoGuess(), level="beginner", games=4, seed=1)["status"] == "stuck").sum())
    assert stuck and f"; {stuck} game{'s' * (stuck != 1)} stuck (the agent gave no move)" in lines[1]
    assert lines[2].startswith("B ") and "stuck" not in lines[2]


def test_moves_that_are_not_moves_name_the_agent(clean_registry):
    """A new user's review: next_moves returning plain (row, col) tuples failed with AttributeError:
    'tuple' object has no attribute 'claimed'."""
    @dataclasses.dataclass(frozen=True)
    class Tuples(Agent):
        def next_moves(self, obs, rng):
            return [(0, 0)]

    sweeplab.register_agent("tuples", Tuples)
    with pytest.raises(AgentBugError, match=r"agent 'tuples' returned \(0, 0\) among its moves; next_moves "
                                            r"returns a list of sweeplab.agents.Move"):
        sweeplab.play("tuples", level="beginner", games=1)
    # a bug in the agent, not bad input: exit 1 as for a method's bug (a review)
    assert main(["play", "--agent", "tuples", "--level", "beginner", "--games", "1"]) == 1


def test_an_agents_value_error_and_unknown_move_source_are_its_bugs_named_with_the_position(clean_registry,
                                                                                            capsys):
    """A researcher's review: an agent raising ValueError read as bad input (exit 2, "error: agent bug", no
    agent or position named), and a move whose source was neither 'first', 'guess' nor a method's name
    counted the agent's guesses as certain moves and its lost games as wrong claims."""
    @dataclasses.dataclass(frozen=True)
    class Raises(Agent):
        error: str = "value"

        def guess(self, obs, rng):
            exc = (ValueError if self.error == "value" else KeyError)("agent bug")
            exc.add_note("hint: the agent's own")
            raise exc

    @dataclasses.dataclass(frozen=True)
    class OwnSource(Agent):
        def next_moves(self, obs, rng):
            r, c = np.argwhere(obs.grid == COVERED)[0]
            return [Move("reveal", int(r), int(c), "my-heuristic")]

    @dataclasses.dataclass(frozen=True)
    class Refuses(Agent):
        def guess(self, obs, rng):
            raise MethodRefused("my own refusal: too many layouts")

    sweeplab.register_agent("raises", Raises)
    sweeplab.register_agent("own-source", OwnSource)
    sweeplab.register_agent("refuses", Refuses)
    with pytest.raises(AgentBugError, match="agent 'refuses' raised MethodRefused: my own") as refused:
        sweeplab.play("refuses", level="beginner", games=1, first_move=(4, 4))  # exit 2 (bad input) before
    assert "raised by agent 'refuses' on this position" in refused.value.__notes__[-1]
    expected = r"raised ValueError: agent bug \(a bug in the agent, or an option value it cannot use"
    with pytest.raises(AgentBugError, match=expected) as bug:
        sweeplab.play("raises", level="beginner", games=1, first_move=(4, 4))
    assert bug.value.__notes__[0] == "hint: the agent's own"  # kept, before where it was raised
    assert bug.value.__notes__[1].startswith("raised by agent 'raises' on this position (mines=10")
    with pytest.raises(KeyError) as other:  # any other error keeps its kind, named all the same
        sweeplab.play("raises", level="beginner", games=1, first_move=(4, 4), error="key")
    assert any("raised by agent 'raises' on this position" in note for note in other.value.__notes__)
    with pytest.raises(AgentBugError, match=r"agent 'own-source' returned the move reveal at \(0, 0\) with "
                                            r"source 'my-heuristic'; a move's source is 'first', 'guess'"):
        sweeplab.play("own-source", level="beginner", games=1)
    argv = ["play", "--agent", "raises", "--level", "beginner", "--games", "1", "--first-move", "4,4"]
    assert main(argv) == 1  # not bad input (2)
    err = capsys.readouterr().err
    assert "agent 'raises' raised ValueError: agent bug" in err and "on this position" in err
    for name in ("trivial", "best"):  # the built-in agents' moves carry sources the referee accepts
        assert sweeplab.play(name, level="beginner", games=3, seed=2)["status"].isin(["won", "lost"]).all()


def test_an_agent_moving_at_a_cell_that_is_not_two_integers_is_named(clean_registry):
    """A guess at (2.0, 3.0) failed without naming the agent, and a flag there was skipped without a word."""
    @dataclasses.dataclass(frozen=True)
    class FloatMoves(Agent):
        methods: tuple[str, ...] = ("trivial",)

        def next_moves(self, obs, rng):
            r, c = (float(v) for v in np.argwhere(obs.grid == COVERED)[0])
            return [Move("flag", r, c, "guess"), *super().next_moves(obs, rng)]

    sweeplab.register_agent("float-moves", FloatMoves)
    with pytest.raises(ValueError, match=r"agent 'float-moves' returned the move flag at \(0\.0, 0\.0\): "
                                         r"row and column must be integers"):
        sweeplab.play("float-moves", level="beginner", games=1, seed=1)


def test_registering_an_agent_refuses_what_cannot_work(clean_registry):
    with pytest.raises(ValueError, match="built-in agent"):
        sweeplab.register_agent("best", _EdgeFirst)
    with pytest.raises(ValueError, match="dataclass subclassing"):
        sweeplab.register_agent("not-an-agent", dict)
    sweeplab.register_agent("edge-first", _EdgeFirst)
    with pytest.raises(ValueError, match="replace=True"):
        sweeplab.register_agent("edge-first", _EdgeFirst, summary="another line")
    with pytest.raises(ValueError, match="built in"):
        sweeplab.unregister_agent("csp")


    # an agent may be registered before the method its chain names (a plugin's order); it is checked when made
    @dataclasses.dataclass(frozen=True)
    class Later(_EdgeFirst):
        methods: tuple[str, ...] = ("trivial", "test-later-rule")

    sweeplab.register_agent("later", Later)
    with pytest.raises(ValueError, match="unknown method 'test-later-rule'"):
        make_agent("later")
    sweeplab.register_method("test-later-rule", nothing, sound=True, complete=False)
    assert make_agent("later").methods == ("trivial", "test-later-rule")


AGENT_CELL = """
import dataclasses
from sweeplab.agents import Agent
from sweeplab.agents.base import random_covered

@dataclasses.dataclass(frozen=True)
class Cell(Agent):
    methods: tuple[str, ...] = ("trivial",)
    margin: int = 1

    def guess(self, obs, rng):
        return random_covered(obs.grid, rng)
"""


def run_agent_cell(source=AGENT_CELL):
    """``Cell`` as a notebook cell defines it: a fresh class each run."""
    namespace = {"__name__": "__main__"}  # where a notebook's cells run
    exec(compile(source, "<cell>", "exec"), namespace)
    return namespace["Cell"]


@pytest.mark.parametrize("change, registers", [
    ({}, True),  # the cell run again
    ({"cls": "same"}, True),  # the same class object again
    ({"summary": "another line"}, False),
    ({"sound": False}, False),
    ({"cls": run_agent_cell(AGENT_CELL.replace("margin: int = 1", "margin: int = 2"))}, False),
    ({"cls": run_agent_cell(AGENT_CELL.replace("random_covered(obs.grid, rng)", "(0, 0)"))}, False),
    ({"cls": run_agent_cell(AGENT_CELL + "\n    def extra(self):\n        return 1\n")}, False),
])
def test_the_same_agent_definition_registers_again_without_replace(clean_registry, change, registers):
    """As a method's: a notebook cell that defines an agent class and registers it can run twice."""
    first = {"cls": run_agent_cell(), "summary": "one line", "sound": True}
    sweeplab.register_agent("test-cell-agent", **first)
    again = {**first, "cls": run_agent_cell(), **change}
    if again["cls"] == "same":
        again["cls"] = first["cls"]
    if registers:
        assert sweeplab.register_agent("test-cell-agent", **again).cls is again["cls"]
        assert make_agent("test-cell-agent").name == "test-cell-agent"
        if again["cls"] is not first["cls"]:
            assert first["cls"].name == "Cell"  # the replaced class has its own name back
    else:
        with pytest.raises(ValueError, match="registered already"):
            sweeplab.register_agent("test-cell-agent", **again)
        assert AGENTS["test-cell-agent"].cls is first["cls"]


AGENT_PLUGIN = textwrap.dedent('''
    import dataclasses
    import sweeplab
    from sweeplab.agents import Agent
    from sweeplab.agents.base import random_covered

    @dataclasses.dataclass(frozen=True)
    class Mine(Agent):
        methods: tuple = ("trivial",)
        first_move: str | tuple[int, int] = "corner"
        def guess(self, obs, rng):
            return random_covered(obs.grid, rng)

    sweeplab.register_agent(NAME, Mine, replace=NAME in sweeplab.AGENTS)
''')


def test_a_sweep_of_a_registered_agent_records_its_code_and_refuses_to_resume_under_other_code(
        clean_registry, tmp_path: Path, monkeypatch):
    import importlib

    from sweeplab.sweeps import run_sweep

    source = AGENT_PLUGIN.replace("NAME", repr("resume-agent"))
    (tmp_path / "resume_agent_plugin.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "resume_agent_plugin", raising=False)
    module = importlib.import_module("resume_agent_plugin")
    points = [{"agent": "resume-agent", "level": "beginner"}]
    rows = run_sweep(points, games=6, seed=1, out=tmp_path / "run", workers=1, progress=False)
    assert len(rows) == 6 and set(rows["agent"]) == {"resume-agent"}
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert list(manifest["methods"]) == ["agent resume-agent"]
    assert len(run_sweep(points, games=6, seed=1, out=tmp_path / "run", workers=1, progress=False)) == 6
    (tmp_path / "resume_agent_plugin.py").write_text(source.replace('("trivial",)', '("trivial", "rref")'))
    importlib.reload(module)
    with pytest.raises(ValueError, match="other code of agent 'resume-agent'"):
        run_sweep(points, games=6, seed=1, out=tmp_path / "run", workers=1, progress=False)
    sweeplab.unregister_agent("resume-agent")
    with pytest.raises(ValueError, match="agent 'resume-agent'"):  # not registered here: says so
        run_sweep(points, games=6, seed=1, out=tmp_path / "run", workers=1, progress=False)


def _cell_guesser(last: bool) -> type[Agent]:
    """One factory's classes: the same module and qualname, other guesses."""
    @dataclasses.dataclass(frozen=True)
    class Fixed(Agent):
        def guess(self, obs, rng):
            covered = np.argwhere(obs.grid == COVERED)
            return tuple(int(v) for v in covered[-1 if last else 0])

    return Fixed


def test_two_registered_agents_of_one_qualname_are_two_sweep_points(clean_registry, tmp_path: Path):
    """Points were told apart by the agent's module and qualname: two classes of one factory, registered
    under two names, were refused as one point, and a sweep of the second resumed the first's directory,
    serving its games."""
    from sweeplab.sweeps import run_sweep, same_games

    sweeplab.register_agent("first-covered", _cell_guesser(False))
    sweeplab.register_agent("last-covered", _cell_guesser(True))
    first, last = ({"agent": a, "level": "beginner"} for a in ("first-covered", "last-covered"))
    assert not same_games(first, last)
    assert same_games(first, {**first, "first_move": "random"})  # one agent written two ways still is one
    both = run_sweep([first, last], games=2, workers=1, progress=False)
    assert list(both.drop_duplicates("point")["agent"]) == ["first-covered", "last-covered"]
    run_sweep([first], games=2, out=tmp_path, workers=1, progress=False)
    with pytest.raises(ValueError, match="holds another sweep"):
        run_sweep([last], games=2, out=tmp_path, workers=1, progress=False)


def test_a_sweep_point_holding_an_agent_object_says_to_register_it():
    from sweeplab.sweeps import run_sweep

    with pytest.raises(ValueError, match="register_agent"):
        run_sweep([{"agent": _EdgeFirst(), "level": "beginner"}], games=2, workers=1, progress=False)


def test_the_command_line_plays_an_agent_a_plugin_registers(tmp_path: Path, monkeypatch, capsys,
                                                            clean_registry):
    plugin = tmp_path / "my_agents_plugin.py"
    plugin.write_text(AGENT_PLUGIN.replace("NAME", repr("plugin-agent")))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "my_agents_plugin", raising=False)
    monkeypatch.setenv(PLUGINS_ENV, "")  # --plugin names it there for workers; restored for later tests
    code = main(["play", "--agent", "plugin-agent", "--plugin", "my_agents_plugin", "--level", "beginner",
                 "--games", "4", "--workers", "2"])
    assert code == 0
    assert "plugin-agent" in capsys.readouterr().out


def test_a_report_takes_plugin_methods_and_records_their_code(tmp_path: Path, monkeypatch, capsys,
                                                               clean_registry):
    """A researcher's review: `report --set methods=[...]` takes methods, but --plugin was refused (its own
    error said to use it), and the manifest recorded no fingerprint of the plugin method it ran."""
    (tmp_path / "my_report_rule.py").write_text(textwrap.dedent("""
        import sweeplab

        def full_clues(obs, *, use_total=True):
            return sweeplab.deduce(obs, "trivial", use_total=use_total).safe, set()

        sweeplab.register_method("full-clues", full_clues, sound=True, complete=False)
        """))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "my_report_rule", raising=False)
    monkeypatch.setenv(PLUGINS_ENV, "")
    out = tmp_path / "rep"
    argv = ["report", "--preset", "smoke", "--only", "014-reach", "--set", 'methods=["full-clues"]', "--set",
            "densities=[]", "--out", str(out)]
    assert main([*argv, "--plugin", "my_report_rule"]) == 0
    record = json.loads((out / "manifest.json").read_text())["experiments"][0]
    assert list(record["methods"]) == ["full-clues"] and len(record["methods"]["full-clues"]) == 16
    assert "full-clues" in (out / "tables" / "014-reach.csv").read_text()


def test_an_unregistered_subclass_of_a_built_in_is_not_played_under_its_name(clean_registry):
    """A subclass of best that guesses at random, played directly, was labelled "best" with no options: its
    games joined best's in any table grouped by agent."""
    from sweeplab.agents.best import BestAgent

    @dataclasses.dataclass(frozen=True)
    class Sloppy(BestAgent):
        def guess(self, obs, rng, p=None):
            return random_covered(obs.grid, rng)

    @dataclasses.dataclass(frozen=True)
    class Sloppier(Sloppy):
        pass

    names = (Sloppy.name, Sloppy().name, Sloppier.name, BestAgent.name)
    assert names == ("Sloppy", "Sloppy", "Sloppier", "best")
    games = sweeplab.play(Sloppy(), level="beginner", games=3, seed=1)
    assert set(games["agent"]) == {"Sloppy"}
    sweeplab.register_agent("sloppy", Sloppy)
    assert (Sloppy.name, Sloppier.name) == ("sloppy", "Sloppier")
    sweeplab.unregister_agent("sloppy")
    assert Sloppy.name == "Sloppy"


def test_a_class_takes_one_registered_name_at_a_time_and_gets_its_own_back(clean_registry):
    @dataclasses.dataclass(frozen=True)
    class Plain(Agent):
        pass

    sweeplab.register_agent("plain-a", Plain)
    assert Plain.name == "plain-a"
    with pytest.raises(ValueError, match="registered as 'plain-a' already.*subclass"):
        sweeplab.register_agent("plain-b", Plain)
    sweeplab.unregister_agent("plain-a")
    assert Plain.name == "Plain"  # its class name again (not Agent's "agent")
    sweeplab.register_agent("plain-b", Plain)  # renaming a registration works

    @dataclasses.dataclass(frozen=True)
    class Named(Agent):
        name = "named"

    with pytest.raises(ValueError, match="names itself 'named'"):
        sweeplab.register_agent("other", Named)
    sweeplab.register_agent("named", Named)
    sweeplab.unregister_agent("named")
    assert Named.name == "named"


def test_a_class_whose_parent_skips_agents_init_subclass_registers(clean_registry):
    """A parent's own __init_subclass__ not calling Agent's leaves its subclasses no name of their own:
    register_agent raised KeyError('name') for them."""
    @dataclasses.dataclass(frozen=True)
    class Quiet(Agent):
        def __init_subclass__(cls, **kwargs):  # no super(): Agent's does not run for subclasses
            pass

    @dataclasses.dataclass(frozen=True)
    class Child(Quiet):
        pass

    assert "name" not in vars(Child) and Child.name == "Child"  # Quiet's, read as the class's name
    sweeplab.register_agent("child", Child)
    assert Child.name == "child" and make_agent("child").name == "child"
    sweeplab.unregister_agent("child")
    assert "name" not in vars(Child) and Child.name == "Child" and Quiet.name == "Quiet"


def test_the_fingerprint_of_a_notebooks_agent_sees_its_defaults_and_its_bases():
    """Classes written in a notebook travel by value: an edit of a default or of a base's method must
    change the fingerprint, or a resumed sweep would pool two versions' games."""
    from sweeplab.provenance import function_fingerprint

    source = textwrap.dedent("""
        import dataclasses
        from sweeplab.agents import Agent

        @dataclasses.dataclass(frozen=True)
        class Base(Agent):
            def guess(self, obs, rng):
                return BODY

        @dataclasses.dataclass(frozen=True)
        class Mine(Base):
            methods: tuple = DEFAULT
    """)

    def fingerprint(default, body):
        namespace = {"__name__": "__main__"}
        exec(source.replace("BODY", repr(body)).replace("DEFAULT", repr(default)), namespace)
        return function_fingerprint(namespace["Mine"])

    same = fingerprint(("trivial",), None)
    assert fingerprint(("trivial",), None) == same  # run again, the same text: the same code
    assert fingerprint(("rref",), None) != same
    assert fingerprint(("trivial",), (0, 0)) != same


def test_workers_that_never_saw_an_agent_get_it_registered(clean_registry):
    """What a Dask or forkserver worker runs: the agents registered here registered there first."""
    from sweeplab.executor import _call, _registered

    sweeplab.register_agent("edge-first", _EdgeFirst)
    extra = _registered()
    assert "edge-first" in {info.name for info in extra}
    sweeplab.unregister_agent("edge-first")  # as in a fresh worker process
    task = {"agent": "edge-first", "level": "beginner", "games": 2, "seed": 1}
    rows = _call(sweeplab.play, (), task, extra)
    assert "edge-first" in AGENTS and set(rows["agent"]) == {"edge-first"}


def test_a_preset_corpus_that_is_not_committed_is_generated_for_dominance():
    from sweeplab.dominance import dominance_positions

    positions = dominance_positions(corpus="tiny", examples=False)
    assert positions and all(isinstance(p, Observation) for p in positions)


def test_the_fingerprint_of_a_notebooks_method_sees_its_literals_and_not_its_line_numbers():
    """A notebook's method that differs only in a constant (also one inside a nested function) plays
    differently: its fingerprint must differ. Moving it down the notebook changes nothing."""
    from sweeplab.provenance import function_fingerprint

    def fingerprint(threshold, inner, blank_lines=0):
        source = "\n" * blank_lines + textwrap.dedent(f"""
            def mine(system):
                pick = lambda row: row > {inner}
                return [i for i, row in enumerate(system) if pick(row) and row < {threshold}]
        """)
        namespace = {"__name__": "__main__"}
        exec(source, namespace)
        assert namespace["mine"]([1, 2, 5]) is not None
        return function_fingerprint(namespace["mine"])

    same = fingerprint(3, 0)
    assert fingerprint(3, 0, blank_lines=5) == same
    assert fingerprint(4, 0) != same
    assert fingerprint(3, 1) != same
    assert fingerprint(3.0, 0) != same  # another value as Python sees it, though equal


@pytest.mark.slow
def test_the_readme_python_examples_run_as_written(clean_registry, tmp_path: Path, monkeypatch):
    """Every ```python block of the README, in order, in one namespace (they build on each other): its agent
    example once declared ``first_move: str``, which refused the cells the base class takes."""
    import re

    text = (Path(__file__).parents[1] / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 3
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    for k, block in enumerate(blocks):
        exec(compile(block, f"README block {k}", "exec"), namespace)
    assert {"full-clues"} <= set(sweeplab.METHODS) and "edge-first" in AGENTS


def test_names_that_differ_only_in_case_or_separator_are_refused_and_suggested(clean_registry):
    """A new user's review: an agent 'Best' registered beside the built-in 'best', a method 'MINE1'
    beside 'mine1', and deduce(obs, 'RREF') said nothing of 'rref'."""
    def mine1(obs, *, use_total=True):
        return set(), set()

    sweeplab.register_method("mine1", mine1, sound=True, complete=False)
    for twin in ("MINE1", "Mine1"):
        with pytest.raises(ValueError, match=f"method '{twin}' differs from the method 'mine1' only in case"):
            sweeplab.register_method(twin, mine1, sound=True, complete=False)
    sweeplab.register_method("my-m", mine1, sound=True, complete=False)
    with pytest.raises(ValueError, match="method 'my_m' differs from the method 'my-m' only in case or in"):
        sweeplab.register_method("my_m", mine1, sound=True, complete=False)

    @dataclasses.dataclass(frozen=True)
    class Mine(Agent):
        pass

    with pytest.raises(ValueError, match="agent 'Best' differs from the agent 'best' only in case"):
        sweeplab.register_agent("Best", Mine)
    assert "Best" not in sweeplab.AGENTS
    with pytest.raises(ValueError, match=r"unknown method 'RREF' \(did you mean 'rref'\?\)"):
        sweeplab.deduce("?1\n11", "RREF")


def test_a_methods_error_names_the_options_it_was_called_with(clean_registry):
    """A new user's review: a method whose time_limit could not be None failed inside play with a bare
    TypeError; agents call methods with time_limit=None, and the note now says so."""
    def timed(obs, *, use_total=True, time_limit=5.0):
        return time_limit * 2, set()

    sweeplab.register_method("timed", timed, sound=True, complete=False)
    with pytest.raises(TypeError) as info:
        sweeplab.play("chain", methods=["timed"], level="beginner", games=1)
    assert "raised by method 'timed' on this position (mines=10, noise=None, time_limit=None)" in \
        info.value.__notes__[0]


def test_an_agent_whose_next_moves_returns_none_is_named_and_reserved_names_fold_case(clean_registry):
    """A review: next_moves returning None ended in TypeError: 'NoneType' object is not iterable, and a
    method 'Guess' was accepted beside the reserved move source 'guess'."""
    @dataclasses.dataclass(frozen=True)
    class Forgets(Agent):
        def next_moves(self, obs, rng):
            super().next_moves(obs, rng)

    sweeplab.register_agent("forgets", Forgets)
    with pytest.raises(ValueError, match="agent 'forgets' returned None from next_moves"):
        sweeplab.play("forgets", level="beginner", games=1)
    for name in ("Guess", "FIRST"):
        with pytest.raises(ValueError, match=f"method name '{name}' is reserved"):
            sweeplab.register_method(name, nothing, sound=True, complete=False)


def test_no_agent_gets_the_stream_that_placed_the_mines(clean_registry):
    """A judge's review: the explorer and report 001's game (game_steps) gave the agent default_rng(seed),
    the board's own stream, and the corpus and the rollouts a generator naming the board's sibling seed: an
    agent reading only its generator redrew the mines and won 10 expert games of 10 in the explorer."""
    pytest.importorskip("anywidget")
    from sweeplab.experiments import game_steps
    from sweeplab.explorer import Explorer
    from sweeplab.rollouts import move_win_rates

    seen = []

    @dataclasses.dataclass(frozen=True)
    class Spy(Agent):
        def guess(self, obs, rng):
            seen.append((rng.bit_generator.state["state"], rng.bit_generator.seed_seq))
            return random_covered(obs.grid, rng)

    sweeplab.register_agent("spy", Spy)
    ex = Explorer(level="beginner", seed=11)
    ex.agent_step("spy")
    game_steps(agent="spy", shape=(9, 9), density=0.2, seed=11, max_steps=3)
    board = np.random.default_rng(11).bit_generator.state["state"]
    assert len(seen) >= 2
    for state, seed_seq in seen:
        assert state != board and 11 not in np.atleast_1d(seed_seq.entropy) and seed_seq.spawn_key == ()
    seen.clear()  # the rollouts: layout s from [seed, 0, s]; the agent's stream must not name seed
    move_win_rates(Observation.from_text("1??\n???\n???", mines=2), [(2, 2)], agent="spy", samples=3, seed=11)
    assert seen and all(11 not in np.atleast_1d(seed_seq.entropy) for _, seed_seq in seen)
