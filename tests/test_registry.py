"""The open registry (SPEC §4, issue 9): methods of one's own work wherever a built-in does."""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import sweeplab
from sweeplab import METHODS, InconsistentPositionError, MethodRefused, Observation, deduce
from sweeplab.agents import make_agent
from sweeplab.methods import method_seconds
from sweeplab.positions import COVERED
from sweeplab.testing import assert_sound, check_sound, random_positions


def single_clue(obs, *, use_total=True):
    """A sound re-implementation of the single-clue rule (one pass), through the public clue system."""
    system = sweeplab.clue_system(obs, use_total=use_total)
    safe, mines = set(), set()
    A, b = system.A, system.b
    for i in range(system.n_equations):
        cols = np.flatnonzero(A[i])
        if not system.exact and system.lo[i] != system.hi[i]:
            continue
        if b[i] == 0:
            safe.update(system.cells[j] for j in cols)
        elif b[i] == cols.size:
            mines.update(system.cells[j] for j in cols)
    if safe & mines:
        raise InconsistentPositionError("a cell is forced both ways")
    return safe, mines


def reckless(obs, *, use_total=True, corner=True):
    """Unsound: claims the top-left covered cell safe."""
    covered = np.argwhere(obs.grid == COVERED)
    return ({tuple(int(v) for v in covered[0])} if corner and covered.size else set()), set()


@pytest.fixture
def registered():
    sweeplab.register_method("test-single", single_clue, sound=True, complete=False, summary="one pass")
    sweeplab.register_method("test-reckless", reckless, sound=False, complete=False)
    yield
    for name in ("test-single", "test-reckless"):
        if name in METHODS:
            sweeplab.unregister_method(name)


def test_registered_methods_appear_and_run(registered):
    assert METHODS["test-single"].sound and not METHODS["test-single"].builtin
    assert METHODS["test-reckless"].options == ("corner",)
    d = deduce("?1\n11", "test-single")
    assert d.mines == {(0, 0)} and d.method == "test-single" and d.seconds >= 0
    assert deduce("?1\n11", "test-reckless", corner=False).cells == frozenset()


def test_check_sound_passes_the_sound_and_catches_the_unsound(registered):
    positions = list(random_positions(120, seed=4))
    good = check_sound("test-single", positions=positions)
    assert good and good.wrong_claims == 0 and good.checked > 150
    bad = check_sound("test-reckless", positions=positions)
    assert not bad and bad.wrong_claims > 0 and bad.counterexamples
    # a counterexample is real: the claimed-safe cell is a mine in some layout
    ex = bad.counterexamples[0]
    truth = deduce(ex.observation, "enumerate", use_total=ex.use_total)
    assert ex.wrong_safe and not ex.wrong_safe <= truth.safe
    with pytest.raises(AssertionError, match="UNSOUND"):
        assert_sound("test-reckless", positions=positions)


def test_check_sound_fails_a_report_of_nothing(registered):
    """A reviewer: check_sound passed a reckless method when nothing was checked (an iterator of positions
    an earlier call used up, no value of use_total, every call refused), and read use_total="no" as two
    Trues."""
    positions = random_positions(20, seed=1)
    assert not check_sound("test-reckless", positions=positions)  # 99 wrong claims
    used_up = check_sound("test-reckless", positions=positions)
    assert used_up.checked == 0 and used_up.sound and not used_up.ok
    assert str(used_up).startswith("test-reckless: NOTHING CHECKED") and "pass a list" in str(used_up)
    with pytest.raises(AssertionError, match="NOTHING CHECKED"):
        assert_sound("test-single", use_total=())

    def refuses(obs, *, use_total=True):
        raise sweeplab.MethodRefused("never")

    report = check_sound(refuses, positions=list(random_positions(5, seed=1)))
    assert report.refused == 10 and not report.ok
    for bad in ("no", "false", 1, None):
        with pytest.raises(ValueError, match="use_total"):
            check_sound("test-single", positions=[], use_total=bad)
    one = check_sound("test-single", positions=list(random_positions(10, seed=1)), use_total=False)
    assert one.checked + one.refused == 10  # one call a position: without the total only


def test_check_sound_holds_a_method_registered_complete_to_its_promise():
    positions = list(random_positions(60, seed=4))
    sweeplab.register_method("test-overpromised", single_clue, sound=True, complete=True)
    try:
        report = check_sound("test-overpromised", positions=positions)
        assert report.complete and report.sound and not report.ok and report.missed > 0
        assert str(report).startswith("test-overpromised: INCOMPLETE")
        # each counterexample is real: enumeration finds a forced cell the method did not claim
        for ex in report.counterexamples:
            truth = deduce(ex.observation, "enumerate", use_total=ex.use_total)
            got = single_clue(ex.observation, use_total=ex.use_total)
            assert ex.note.startswith("missed forced cells") and truth.cells - set().union(*got)
        with pytest.raises(AssertionError, match="INCOMPLETE"):
            assert_sound("test-overpromised", positions=positions)
        assert check_sound("test-overpromised", positions=positions, complete=False).ok
    finally:
        sweeplab.unregister_method("test-overpromised")
    # wrong claims come first among the counterexamples kept, though a missed cell comes first here
    # (reckless claims (0, 1) safe, rightly, and misses the other two cells the 0 makes safe)
    both = check_sound(reckless, positions=[Observation.from_text("0?\n??"), *positions], complete=True,
                       keep=3)
    assert not both.sound and both.missed and len(both.counterexamples) == 3
    assert both.counterexamples[0].wrong_safe and str(both).startswith("reckless: UNSOUND")
    # a function passed directly promises nothing unless asked
    assert check_sound(single_clue, positions=positions).ok
    assert not check_sound(single_clue, positions=positions, complete=True).ok
    with pytest.raises(ValueError, match="complete"):
        check_sound(single_clue, positions=positions, complete="yes")


def test_deduce_checks_a_researchers_complete_method_before_saying_a_layout_fits():
    """An adversarial review: deduce said consistent=True, and returned claims, on a position no layout
    fits, because the method was registered complete (a promise of the researcher's, not checked)."""
    def claims_a_cell(obs, *, use_total=True):
        return {(1, 0)}, set()

    sweeplab.register_method("test-promises", claims_a_cell, sound=True, complete=True)
    try:
        with pytest.raises(InconsistentPositionError):
            deduce(Observation.from_text("??1\n?3?\n???", mines=1), "test-promises")
        assert deduce(Observation.from_text("?1?\n???", mines=1), "test-promises").consistent is True
        # check_sound sees the method's own answer, deduce's check aside: it did not find none fits
        report = check_sound("test-promises", positions=[Observation.from_text("??1\n?3?\n???", mines=1)])
        assert report.missed_inconsistent > 0 and not report.ok
    finally:
        sweeplab.unregister_method("test-promises")


def test_check_sound_holds_a_complete_method_to_finding_that_no_layout_fits():
    """A method registered complete that answered a position no layout fits (here: nothing claimed) passed
    as "sound and complete", though deduce reports consistent=True for a complete method's answers."""
    def blind(obs, *, use_total=True):
        try:
            d = deduce(obs, "enumerate", use_total=use_total, time_limit=None)
        except InconsistentPositionError:
            return set(), set()
        return d.safe, d.mines

    inconsistent = Observation.from_text("??0", mines=2)  # the 0 leaves no room for two mines
    positions = [inconsistent, *random_positions(40, seed=3, noise=False)]
    sweeplab.register_method("test-blind", blind, sound=True, complete=True)
    try:
        assert deduce(inconsistent, "test-blind").consistent is None  # a researcher's promise is not taken
        report = check_sound("test-blind", positions=positions)
        assert report.sound and not report.ok and report.missed == 0 and report.missed_inconsistent > 0
        assert str(report).startswith("test-blind: INCOMPLETE") and "not detected" in str(report)
        ex = report.counterexamples[0]
        assert ex.observation is inconsistent and ex.note == "did not find that no layout fits"
        assert check_sound("test-blind", positions=positions, complete=False).ok
    finally:
        sweeplab.unregister_method("test-blind")
    # the complete built-ins say so on every such position
    for name in ("milp", "enumerate", "brute"):
        report = check_sound(name, positions=positions)
        assert report.ok and report.missed_inconsistent == 0, str(report)


@pytest.mark.parametrize("name", sorted(n for n, m in METHODS.items() if m.sound and m.builtin))
def test_every_sound_builtin_passes_check_sound(name):
    options = {"brute": {"max_variables": 12}}.get(name, {})
    report = check_sound(name, positions=random_positions(60, seed=9), options=options)
    assert report.ok, str(report)
    assert report.complete == METHODS[name].complete  # the complete ones missed no forced cell


def test_unsound_builtin_is_caught():
    from sweeplab.examples import EXAMPLES

    positions = [EXAMPLES["lstsq-wrong-claim"].observation, *random_positions(50, seed=1)]
    report = check_sound("lstsq", positions=positions)
    assert not report and report.wrong_claims > 0  # report 000's least squares, kept as described


def test_deduce_runs_an_unregistered_callable_once():
    d = deduce("?1\n11", single_clue)
    assert d.method == "single_clue" and d.mines == {(0, 0)}
    assert "single_clue" not in METHODS


def test_errors_name_the_choices():
    with pytest.raises(ValueError, match="unknown method 'nope'.*choose from"):
        deduce("?1\n11", "nope")
    with pytest.raises(ValueError, match="method 'gfp' has no option 'q'.*'p'"):
        deduce("?1\n11", "gfp", q=3)
    with pytest.raises(ValueError, match="unknown method"):
        make_agent("chain", methods=["trivial", "nope"])
    with pytest.raises(ValueError, match="unknown agent"):
        sweeplab.play("nope", level="beginner", games=1)
    # a misspelt keyword reads as an agent option: the message names what was meant
    with pytest.raises(ValueError, match="'frist_click'.*did you mean first_click, an argument of play"):
        sweeplab.play("trivial", level="beginner", games=1, frist_click="none")
    with pytest.raises(ValueError, match="no option 'lookahed'.*did you mean lookahead\\?"):
        make_agent("best", lookahed=3)
    with pytest.raises(ValueError, match=r"no option 'zzz'; its options: [a-z_, ]+$"):
        sweeplab.play("trivial", level="beginner", games=1, zzz=1)
    with pytest.raises(ValueError, match="methods must be method names.*got None"):
        make_agent("chain", methods=None)


def test_register_method_checks_its_arguments(registered):
    with pytest.raises(ValueError, match="built-in"):
        sweeplab.register_method("rref", single_clue, sound=True, complete=False)
    with pytest.raises(ValueError, match="registered already"):
        sweeplab.register_method("test-single", reckless, sound=True, complete=False)
    sweeplab.register_method("test-single", reckless, sound=False, complete=False, replace=True)
    assert METHODS["test-single"].function is reckless
    with pytest.raises(ValueError, match="use_total"):
        sweeplab.register_method("test-bad", lambda obs: (set(), set()), sound=True, complete=False)
    with pytest.raises(ValueError, match="callable"):
        sweeplab.register_method("test-bad", "not a function", sound=True, complete=False)
    with pytest.raises(ValueError, match="True or False"):
        sweeplab.register_method("test-bad", single_clue, sound="yes", complete=False)
    with pytest.raises(ValueError, match="built in"):
        sweeplab.unregister_method("trivial")


def test_deduce_says_what_register_method_says_of_a_function_without_use_total():
    # a function given directly raised Python's own TypeError ("unexpected keyword argument")
    def no_total(obs):
        return set(), set()

    def buggy(obs, *, use_total=True):
        raise TypeError("a bug of its own")

    with pytest.raises(ValueError, match="method 'no_total': function must accept the keyword use_total"):
        deduce("?1\n11", no_total)
    with pytest.raises(TypeError, match="a bug of its own"):  # the function's own TypeError stays its own
        deduce("?1\n11", buggy)


CELL = """
def mine(obs, *, use_total=True, limit=LIMIT):
    return single_clue(obs, use_total=use_total)
"""


def run_cell(source=CELL, limit=3):
    """``mine`` as a notebook cell defines it: a fresh function object each run."""
    namespace = {"single_clue": single_clue, "LIMIT": limit}
    exec(compile(source, "<cell>", "exec"), namespace)
    return namespace["mine"]


@pytest.mark.parametrize("change, registers", [
    ({}, True),  # the cell run again
    ({"summary": "another line"}, False),
    ({"sound": False}, False),
    ({"function": run_cell(CELL.replace("use_total=use_total", "use_total=False"))}, False),
    ({"function": run_cell(limit=4)}, False),  # another default
    ({"function": run_cell("\n" + CELL)}, False),  # lines moved: another definition as far as we know
])
def test_the_same_definition_registers_again_without_replace(change, registers):
    first = {"function": run_cell(), "sound": True, "complete": False, "summary": "one pass"}
    sweeplab.register_method("test-cell", **first)
    try:
        again = {**first, "function": run_cell(), **change}
        assert again["function"] is not first["function"]
        if registers:
            assert sweeplab.register_method("test-cell", **again).function is again["function"]
        else:
            with pytest.raises(ValueError, match="registered already"):
                sweeplab.register_method("test-cell", **again)
            assert METHODS["test-cell"].function is first["function"]
    finally:
        sweeplab.unregister_method("test-cell")


@pytest.mark.parametrize("edit, same", [
    (("", ""), True),
    (("return 1  # p", "return 2  # p"), False),  # a property's body
    (("return 3  # s", "return 4  # s"), False),  # a static method's body
    (("return 5  # c", "return 6  # c"), False),  # a class method's body
    (("'doc'", "'other doc'"), True),  # documentation is not compared
])
def test_same_class_compares_what_a_class_body_defines(edit, same):
    from sweeplab.methods import same_class

    source = textwrap.dedent("""
        class A:
            'doc'
            @property
            def p(self):
                return 1  # p
            @staticmethod
            def s():
                return 3  # s
            @classmethod
            def c(cls):
                return 5  # c
    """)
    first, second = {}, {}
    exec(source, first)
    exec(source.replace(*edit), second)
    assert same_class(first["A"], second["A"]) is same
    assert not same_class(first["A"], int) and not same_class(first["A"], "A")


def test_a_cell_defining_an_agent_and_its_subclass_registers_both_again():
    """The error message's own advice, class Other(Mine) for a second name, in one notebook cell run
    twice: Other was refused (its base, the cell's new Mine, is another class object)."""
    from sweeplab.agents import register_agent, unregister_agent
    from sweeplab.methods import same_class

    source = textwrap.dedent("""
        import dataclasses
        from sweeplab.agents.basic import TrivialAgent

        @dataclasses.dataclass(frozen=True)
        class Mine(TrivialAgent):
            weight = 1

            def guess(self, obs, rng):
                return super().guess(obs, rng)

        @dataclasses.dataclass(frozen=True)
        class Other(Mine):
            pass
    """)
    cells = [{"__name__": "cell"} for _ in range(3)]
    for cell, text in zip(cells, (source, source, source.replace("weight = 1", "weight = 2")), strict=True):
        exec(text, cell)
    try:
        for cell in cells[:2]:  # the cell, run twice
            register_agent("test-mine", cell["Mine"])
            register_agent("test-other", cell["Other"])
        assert sweeplab.AGENTS["test-other"].cls is cells[1]["Other"]
        assert not same_class(cells[0]["Other"], cells[2]["Other"])  # a base edited: another class
        # a metaclass of the cell's own, run again, is the same definition too (its frozen __setattr__
        # holds the class, compared with its metaclass)
        meta = source.replace("class Mine(TrivialAgent):", "class Mine(TrivialAgent, metaclass=Meta):")
        meta = meta.replace("@dataclasses.dataclass(frozen=True)\nclass Mine",
                            "class Meta(type):\n    pass\n\n@dataclasses.dataclass(frozen=True)\nclass Mine")
        twice = [{"__name__": "cell"} for _ in range(2)]
        for cell in twice:
            exec(meta, cell)
        assert type(twice[0]["Other"]) is not type(twice[1]["Other"])
        assert same_class(twice[0]["Other"], twice[1]["Other"])
        with pytest.raises(ValueError, match="registered already"):
            register_agent("test-other", cells[2]["Other"])
    finally:
        for name in ("test-other", "test-mine"):
            if name in sweeplab.AGENTS:
                unregister_agent(name)


def test_a_slotted_agent_cell_run_again_registers_again():
    """@dataclass(frozen=True, slots=True): each run's slots are new descriptor objects, compared by
    identity, so the same cell run twice was refused."""
    from sweeplab.agents import register_agent, unregister_agent
    from sweeplab.methods import same_class

    source = textwrap.dedent("""
        import dataclasses
        from sweeplab.agents.basic import TrivialAgent

        @dataclasses.dataclass(frozen=True, slots=True)
        class Slotted(TrivialAgent):
            patience: int = 1
    """)
    cells = [{"__name__": __name__} for _ in range(3)]  # slots=True reads the module
    for cell, text in zip(cells, (source, source, source.replace("patience", "haste")), strict=True):
        exec(text, cell)
    assert same_class(cells[0]["Slotted"], cells[1]["Slotted"])
    assert not same_class(cells[0]["Slotted"], cells[2]["Slotted"])  # another field, another slot
    try:
        for cell in cells[:2]:
            register_agent("test-slotted", cell["Slotted"])
        assert make_agent("test-slotted", patience=3).patience == 3
    finally:
        unregister_agent("test-slotted")


def test_same_class_compares_arrays_by_dtype_shape_and_values():
    """An array class attribute (an agent's guess weights): the same cell run twice was refused (== gives
    no single answer), while a one-cell array took another shape for the same (== broadcasts)."""
    from sweeplab.methods import same_class

    source = "import numpy as np\nclass A:\n    weights = np.array([0.25, 0.75])\n"
    cells = [{} for _ in range(5)]
    edits = [("", ""), ("", ""), ("0.75", "0.5"), ("[0.25, 0.75]", "[[0.25, 0.75]]"), ("0.25", "np.nan")]
    for cell, edit in zip(cells, edits, strict=True):
        exec(source.replace(*edit), cell)
    assert same_class(cells[0]["A"], cells[1]["A"])
    assert not same_class(cells[0]["A"], cells[2]["A"]) and not same_class(cells[0]["A"], cells[3]["A"])
    nan = {}
    exec(source.replace("0.25", "np.nan"), nan)
    assert same_class(cells[4]["A"], nan["A"])  # nan is nan here
    one, other = {}, {}
    exec("import numpy as np\nclass A:\n    w = np.array([0.5])\n", one)
    exec("import numpy as np\nclass A:\n    w = np.array([[0.5]])\n", other)
    assert not same_class(one["A"], other["A"])


def test_same_function_compares_closures_and_survives_recursion():
    from sweeplab.methods import same_function

    def make(k):
        def method(obs, *, use_total=True):
            return method if k else None  # the function in its own closure
        return method

    assert same_function(make(1), make(1)) and not same_function(make(1), make(2))
    assert not same_function(make(1), "make") and not same_function(len, make(1))
    # values that compare equal but behave differently are not the same definition
    for x, y in [(7, 7.0), (1, True), ([1], [1.0]), ((1,), (True,)), ({"a": 1}, {"a": 1.0})]:
        assert not same_function(make(x), make(y)), (x, y)
        assert not same_function(run_cell(limit=x), run_cell(limit=y)), (x, y)
    assert same_function(make([1, {"a": (2,)}]), make([1, {"a": (2,)}]))

    def unassigned():
        def method(obs, *, use_total=True):
            return later
        return method
        later = 1  # noqa: F841 -- never reached: the closure's cell stays empty

    assert not same_function(unassigned(), unassigned())


@pytest.mark.parametrize("claim, why", [((0, 1), "which is not covered"), ((5, 0), "outside the 2x2 board")])
def test_a_claim_on_a_cell_that_is_not_covered_is_reported_by_check_sound(claim, why):
    from sweeplab.errors import InvalidClaimError

    def liar(obs, *, use_total=True):
        return {claim}, set()

    with pytest.raises(InvalidClaimError, match=why) as caught:
        deduce("?1\n11", liar)
    assert caught.value.cell == claim
    # the position is said with it, as with a method's other bugs (a review: play named no position)
    note = "claimed by method 'liar' on this position (mines=None, noise=None):\n?1\n11"
    assert caught.value.__notes__ == [note]
    report = check_sound(liar, positions=[Observation.from_text("?1\n11"), Observation.from_text("??\n?1")])
    assert not report and report.wrong_claims == 4 and report.checked == 4
    assert why in str(report.counterexamples[0])


def test_a_method_returning_garbage_is_a_type_error():
    with pytest.raises(TypeError, match="must return"):
        deduce("?1\n11", lambda obs, *, use_total=True: 42)


def test_refusals_and_inconsistency_are_their_own_errors():
    noisy = Observation.from_text("???\n121", noise="under")
    with pytest.raises(MethodRefused, match="needs exact clues"):
        deduce(noisy, "rref")
    with pytest.raises(InconsistentPositionError):
        deduce(Observation.from_text("?2\n??", mines=1), "enumerate")
    assert issubclass(MethodRefused, ValueError) and issubclass(InconsistentPositionError, ValueError)


def test_method_seconds_collects_per_method():
    with method_seconds() as outer:
        deduce("???\n121", "trivial")
        with method_seconds() as inner:
            deduce("???\n121", "rref")
    assert set(outer) == {"trivial", "rref"} and set(inner) == {"rref"}


def test_a_function_given_directly_is_not_timed_as_the_method_it_is_named_after():
    """A function of one's own named ``rref``, given to deduce, had its seconds added to the built-in
    rref's clock (a game's ``seconds_rref``) though rref never ran."""
    def rref(obs, *, use_total=True):
        d = deduce(obs, "trivial", use_total=use_total)
        return d.safe, d.mines

    with method_seconds() as clock:
        assert deduce("???\n121", rref).method == "rref"
        assert deduce("???\n121", lambda obs, *, use_total=True: (set(), set())).method == "<lambda>"
    assert set(clock) == {"trivial"}  # the method it called is timed


def test_chain_agent_with_a_registered_method_plays(registered):
    df = sweeplab.play("chain", methods=["test-single"], level="beginner", games=4, seed=3)
    assert len(df) == 4 and df["certain_test_single"].sum() > 0
    assert df["seconds_test_single"].gt(0).all()
    builtin = sweeplab.play("chain", methods=["trivial"], level="beginner", games=4, seed=3)
    assert {"seconds_trivial", "certain_trivial"} <= set(builtin.columns)
    assert builtin["seconds_trivial"].gt(0).all()


def test_example_plugin_registers_a_sound_method():
    import sweeplab.example_plugin  # noqa: F401

    assert "rref-reversed" in METHODS
    assert check_sound("rref-reversed", positions=random_positions(60, seed=6, noise=False)).ok


@pytest.mark.parametrize("name", ["gf2", "gfp", "trivial", "rref", "lstsq-certified", "subset", "bounded"])
def test_claims_are_never_returned_for_positions_with_no_layout(name):
    """Issue 14 item 11: '??0' with 2 mines has no layout; gf2 used to call both cells safe."""
    obs = Observation.from_text("??0", mines=2)
    with pytest.raises(InconsistentPositionError):
        deduce(obs, name)
    raw = METHODS[name].function(obs) if name == "gf2" else None
    if raw is not None:  # the bare function still claims: deduce is what checks
        assert raw[0]


def test_consistency_is_reported():
    obs = Observation.from_text("???\n121", mines=2)
    assert deduce(obs, "enumerate").consistent is True
    assert deduce(obs, "rref").consistent is True
    assert deduce(obs, "rref", check_consistency=False).consistent is None
    assert deduce(Observation.from_text("????\n????"), "trivial").consistent is None  # nothing claimed


#: A random 16x30 clue grid (an adversarial review's): some block of it has no layout, and counting
#: every block takes longer than deduce's one-second consistency budget.
RANDOM_CLUES = (
    "??--.?112?2?.????3??.11?221??1\n"
    ".2--????2???..?2????.??2????2?\n"
    "----????12??.?1?2221122??????.\n"
    "----?2???1?1???????1???1???121\n"
    "..??14???.???????22??22??221??\n"
    ".??3????1????1?1.????1111????1\n"
    "???3??33?11?1?????????.?.1???1\n"
    "????1???2??3???43????1?12221??\n"
    "???1??4???4??4?4?????4??2??2??\n"
    "??1????2???????3??3????343????\n"
    "11.???2?4?4??2??.???4?????????\n"
    "???..12?22???2?1??2???????225?\n"
    "1??..???1??3??.1?1..1124??1???\n"
    "1?1.??1???1???.1??????????1?2?\n"
    "1?1?..????2..?.????2????42????\n"
    "?????.?1??????..??2????11???1.\n"
)


def test_a_local_contradiction_is_found_past_the_consistency_budget():
    """gf2 claimed 17 cells on it (consistent=None): the whole-board check ran out of time."""
    from sweeplab.methods._consistency import has_layout
    from sweeplab.methods.enumerate import block_contradiction

    obs = Observation.from_text(RANDOM_CLUES)
    assert "no layout" in block_contradiction(obs)
    with pytest.raises(InconsistentPositionError):
        has_layout(obs, use_total=True, time_limit=1e-9)  # out of time at once: the blocks still tell
    with pytest.raises(InconsistentPositionError):
        deduce(obs, "gf2")
    # out of time, yet every block searched to its end: a layout fits
    assert has_layout(Observation.from_text("??\n11\n.."), use_total=False, time_limit=1e-9) is True


def test_a_total_no_layout_can_hold_is_found_past_the_consistency_budget(monkeypatch):
    """Past enumeration's budget the LP relaxation still sees a total the clues cannot hold: trivial
    claimed cells on a 48x48 board of 256 mines whose clues need 428 (consistent=None)."""
    import sweeplab.methods._consistency as consistency
    import sweeplab.methods.enumerate as enumeration

    rng = np.random.default_rng(1)
    layout = rng.random((16, 16)) < 0.3
    shown = np.fromfunction(lambda r, c: ((r + c) % 2 == 0) & (r % 4 != 3), (16, 16), dtype=int)
    layout[shown] = False
    grid = np.full((16, 16), -1)
    for r, c in np.argwhere(shown):
        grid[r, c] = layout[max(0, r - 1):r + 2, max(0, c - 1):c + 2].sum()
    def over_budget(*args, **kwargs):
        raise sweeplab.MethodRefused("over the test's budget")

    # as on a board too large for them: enumeration gives up, the block search finds nothing
    monkeypatch.setattr(enumeration, "analyse", over_budget)
    monkeypatch.setattr(enumeration, "block_check", lambda *args, **kwargs: (None, False))
    fits = Observation(grid, mines=int(layout.sum()))
    assert consistency.has_layout(fits, use_total=True, time_limit=None) is None  # unchecked, not refused
    assert deduce(fits, "trivial").consistent is None
    for mines in (int(layout.sum()) // 2, 2 * int(layout.sum())):
        with pytest.raises(InconsistentPositionError, match="LP relaxation"):
            deduce(Observation(grid, mines=mines), "trivial")
    assert deduce(Observation(grid, mines=mines), "trivial", use_total=False).consistent is None


def _pockets(n: int, extra: int) -> Observation:
    """n x n star pockets, each 1 or 4 mines (four 1s around a centre, one arm each), one forced mine, and
    hidden numbers elsewhere: the totals that fit are n*n + 1 + 3k, the LP relaxation takes any between."""
    g = np.full((6 * n + 2, 6 * n), -4, np.int8)
    for k in range(n):
        for j in range(n):
            for a, b in [(0, 0), (0, 4), (4, 0), (4, 4), (2, 2)]:
                g[6 * k + a, 6 * j + b] = -1
            for a, b in [(1, 1), (1, 3), (3, 1), (3, 3)]:
                g[6 * k + a, 6 * j + b] = 1
    g[-1, 0], g[-2, 1] = -1, 1
    return Observation(g, mines=n * n + 1 + extra, noise="lost")


def test_a_total_between_what_the_blocks_allow_is_found_past_the_consistency_budget():
    """A reviewer's case: past enumeration's budget (1,600 pockets) a total the pockets cannot hold passed
    the LP check, and trivial claimed a cell (consistent=None) where bounded refused."""
    from sweeplab.methods._consistency import has_layout

    for extra in (1, 2):
        with pytest.raises(InconsistentPositionError,  # (the tree of products combines 1,600 blocks)
                           match=r"no sum of the mines each block|no layout fits the clues with \d+ mines"):
            has_layout(_pockets(40, extra), use_total=True, time_limit=None)
        with pytest.raises(InconsistentPositionError):
            deduce(_pockets(40, extra), "trivial")
    for extra in (0, 3):  # totals that fit: every pocket searched, so a layout is known to fit
        assert has_layout(_pockets(40, extra), use_total=True, time_limit=None) is True
        assert deduce(_pockets(40, extra), "trivial").safe | deduce(_pockets(40, extra), "trivial").mines
    assert has_layout(_pockets(40, 1), use_total=False, time_limit=None)  # the total is what fails


def test_the_sums_the_blocks_reach_are_every_sum_of_their_counts():
    """The bit sets of block_contradiction against sums listed one by one."""
    import itertools

    from sweeplab.methods.enumerate import _any_count

    rng = np.random.default_rng(3)
    for _ in range(300):
        base = {int(v) for v in rng.choice(12, size=rng.integers(1, 4), replace=False)}
        n = int(rng.integers(0, 20))
        reach = _any_count(sum(1 << b for b in base), n)
        want = {b + k for b, k in itertools.product(base, range(n + 1))}
        assert {k for k in range(reach.bit_length()) if reach >> k & 1} == want


def test_deduce_with_proofs_fills_checkable_proofs():
    obs = Observation.from_text("??????\n?1122?", mines=3)
    for name in ("subset", "rref", "gfp", "lp", "enumerate"):
        d = deduce(obs, name, proofs=True)
        assert set(d.proofs) | d.unproved == d.cells and d.cells
        assert all(sweeplab.check_proof(obs, p) and p.cell == c for c, p in d.proofs.items()), name
    assert deduce(obs, "rref").proofs is None  # no cost unless asked


def test_plugins_reach_worker_processes():
    """A method registered by a plugin module works in play(workers=2) (issue 9): workers import it."""
    from sweeplab.methods import load_plugins

    load_plugins(["sweeplab.example_plugin"])
    kwargs = dict(methods=["trivial", "rref-reversed"], level="beginner", games=6, seed=5)
    one = sweeplab.play("chain", **kwargs)
    two = sweeplab.play("chain", **kwargs, workers=2)
    cols = [c for c in one.columns if not c.startswith("seconds")]
    assert one[cols].equals(two[cols])
    assert "certain_rref_reversed" in two.columns


def test_methods_registered_in_this_process_reach_worker_processes(registered):
    """A method registered in a script or a notebook (no plugin module) works in play(workers=2)."""
    kwargs = dict(methods=["test-single"], level="beginner", games=6, seed=5)
    one = sweeplab.play("chain", **kwargs)
    two = sweeplab.play("chain", **kwargs, workers=2)
    cols = [c for c in one.columns if not c.startswith("seconds")]
    assert one[cols].equals(two[cols]) and two["certain_test_single"].sum() > 0


def both_ways(obs, *, use_total=True):
    """A bug: the first covered cell claimed both safe and a mine."""
    first = set(sweeplab.clue_system(obs, use_total=use_total).cells[:1])
    return first, first


def on_a_number(obs, *, use_total=True):
    """A bug: a revealed cell claimed safe."""
    return {tuple(int(v) for v in np.argwhere(obs.grid >= 0)[0])} if (obs.grid >= 0).any() else set(), set()


@pytest.mark.parametrize("function, error", [(both_ways, "ContradictoryClaimError"),
                                             (on_a_number, "InvalidClaimError")])
def test_a_method_bug_raised_in_a_worker_reaches_the_caller_as_with_one_worker(function, error):
    """These two errors could not be unpickled (their extra arguments), so with two workers the pool broke
    (BrokenProcessPool, a TypeError deep inside) where one worker said the method's bug in one line."""
    import pickle

    sweeplab.register_method("test-bug", function, sound=True, complete=False)
    try:
        messages = []
        for workers in (1, 2):
            with pytest.raises(ValueError) as info:
                sweeplab.play("chain", methods=["test-bug"], level="beginner", games=4, seed=1,
                              workers=workers)
            assert type(info.value).__name__ == error
            messages.append(str(info.value))
        # the same error, from whichever game a worker met it in first
        assert [re.sub(r"\(\d+, \d+\)", "cell", m) for m in messages[:1]] == [
            re.sub(r"\(\d+, \d+\)", "cell", m) for m in messages[1:]] and "method 'test-bug'" in messages[0]
        again = pickle.loads(pickle.dumps(info.value))
        assert str(again) == messages[1] and vars(again) == vars(info.value)
        info.value.add_note("raised while proving")  # a note added on the way up travels too
        notes = pickle.loads(pickle.dumps(info.value)).__notes__
        assert notes[0].startswith("claimed by method 'test-bug' on this position") and notes[1:] == [
            "raised while proving"]
    finally:
        sweeplab.unregister_method("test-bug")


def test_dask_workers_get_the_methods_registered_here(registered):
    """What a Dask worker runs: plugins imported, then the other registered methods registered."""
    from sweeplab.executor import _call, _registered

    extra = _registered()
    assert {"test-single", "test-reckless"} <= {info.name for info in extra}
    sweeplab.unregister_method("test-single")  # as in a fresh worker process
    rows = _call(sweeplab.play, (), {"agent": "chain", "methods": ["test-single"], "level": "beginner",
                                     "games": 2, "seed": 1}, extra)
    assert "test-single" in METHODS and len(rows) == 2


def test_a_script_without_a_main_guard_plays_on_two_workers(tmp_path):
    """Workers never re-run the caller's script (Linux: forked), so no __main__ guard is needed."""
    import subprocess
    import sys

    script = tmp_path / "no_guard.py"
    script.write_text(
        "import sweeplab\n"
        "def full_rows(obs, *, use_total=True):\n"
        "    s = sweeplab.clue_system(obs, use_total=use_total)\n"
        "    rows = [(s.b[i], s.A[i].nonzero()[0]) for i in range(s.n_equations)]\n"
        "    return set(), {s.cells[j] for b, cols in rows if b == cols.size for j in cols}\n"
        "sweeplab.register_method('full-rows', full_rows, sound=True, complete=False)\n"
        "df = sweeplab.play('chain', methods=['full-rows'], level='beginner', games=8, seed=2, workers=2)\n"
        "print('rows', len(df), 'found', int(df['certain_full_rows'].sum() > 0))\n")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["rows", "8", "found", "1"]


def test_bad_plugin_is_a_value_error():
    from sweeplab.methods import load_plugins

    with pytest.raises(ValueError, match="no_such_module_xyz"):
        load_plugins(["no_such_module_xyz"])
    with pytest.raises(ValueError, match=r"'plugins/my_methods.py' is a file path.*PYTHONPATH.*'my_methods'"):
        load_plugins(["plugins/my_methods.py"])


@pytest.mark.parametrize("modules, expected", [
    ("sweeplab.example_plugin", "True"),
    ("", "False"),
    ("sweeplab.example_plugin,no_such_module_xyz", "True"),
    ("no_such_module_xyz", "RuntimeWarning: plugin 'no_such_module_xyz' (--plugin or SWEEPLAB_PLUGINS)"),
    ("no_such_module_xyz,sweeplab.example_plugin", "skipped, here and in worker processes"),
])
def test_the_plugins_environment_variable_registers_in_a_process_started_by_hand(modules, expected):
    """README: ``SWEEPLAB_PLUGINS=mod1,mod2`` does what ``--plugin`` does, in a process importing sweeplab."""
    env = {**os.environ, "SWEEPLAB_PLUGINS": modules}
    code = ("import sweeplab; print('rref-reversed' in sweeplab.METHODS); "
            "print(len(sweeplab.play('chain', methods=['trivial'], level='beginner', games=2, workers=2)))")
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert expected in (run.stdout + run.stderr), run.stderr[-2000:]
    assert run.stdout.split()[-1] == "2", run.stderr[-2000:]  # workers import what loaded, skip the rest


def test_options_fixed_by_a_partial_cannot_be_overridden():
    gfp = METHODS["gfp"].function
    sweeplab.register_method("test-gfp-11", functools.partial(gfp, p=11), sound=True, complete=False)
    try:
        obs = Observation.from_text("??????\n?1122?", mines=3)
        eleven = deduce(obs, "test-gfp-11")
        again = deduce(obs, "test-gfp-11", p=11)  # the fixed value itself is fine
        assert eleven.cells and (again.safe, again.mines) == (eleven.safe, eleven.mines)
        with pytest.raises(ValueError, match=r"'test-gfp-11' fixes p=11 .* so p=2 cannot be passed"):
            deduce(obs, "test-gfp-11", p=2)
        # a reviewer: 11.0 == 11 let the caller's float through, refused as "a bug in the method"
        with pytest.raises(ValueError, match=r"fixes p=11 .* so p=11.0 cannot be passed"):
            deduce(obs, "test-gfp-11", p=11.0)
        assert deduce(obs, "test-gfp-11", p=np.int64(11)).cells == eleven.cells  # an integer all the same
    finally:
        sweeplab.unregister_method("test-gfp-11")
    sweeplab.register_method("test-rref-it", functools.partial(METHODS["rref"].function, iterate=True),
                             sound=True, complete=False)
    try:  # 1 == True
        with pytest.raises(ValueError, match=r"fixes iterate=True .* so iterate=1 cannot be passed"):
            deduce(obs, "test-rref-it", iterate=1)
    finally:
        sweeplab.unregister_method("test-rref-it")
    sweeplab.register_method("test-gf2-flint", functools.partial(METHODS["gf2"].function, engine="flint"),
                             sound=True, complete=False)
    try:  # numpy's string is a string (a reviewer: refused as a clash)
        assert deduce(obs, "test-gf2-flint", engine=np.str_("flint")).cells == deduce(obs, "gf2").cells
    finally:
        sweeplab.unregister_method("test-gf2-flint")


def test_a_callable_object_registered_again_from_the_same_cell_is_the_same_definition():
    """An adversarial review: running a cell that registers a callable object a second time demanded
    replace=True, as an edit would; an object with other attributes still does."""
    source = ("class Threshold:\n    def __init__(self, k):\n        self.k = k\n        self._calls = 0\n"
              "    def __call__(self, obs, *, use_total=True):\n        self._calls += 1\n"
              "        return set(), set()\n")
    cells = [{"__name__": "__main__"} for _ in range(3)]
    for cell in cells:
        exec(source, cell)
    first = cells[0]["Threshold"](3)
    sweeplab.register_method("test-object", first, sound=True, complete=False)
    try:
        deduce("?1\n11", "test-object")  # its state (named _like_this) changes as it plays: not compared
        assert first._calls == 1
        sweeplab.register_method("test-object", cells[1]["Threshold"](3), sound=True, complete=False)
        with pytest.raises(ValueError, match="registered already"):
            sweeplab.register_method("test-object", cells[2]["Threshold"](4), sound=True, complete=False)
    finally:
        sweeplab.unregister_method("test-object")


def test_the_readmes_partial_registered_again_is_the_same_definition():
    """The README's ``register_method("gfp-11", functools.partial(f, p=11), ...)``, its cell run twice, was
    refused (a new partial object each run); another fixed value, or another function, still needs replace."""
    gfp, rref = METHODS["gfp"].function, METHODS["rref"].function
    try:
        for _ in range(2):
            sweeplab.register_method("test-gfp-11", functools.partial(gfp, p=11), sound=True, complete=False)
        for other in (functools.partial(gfp, p=13), functools.partial(gfp, p=11.0), functools.partial(rref)):
            with pytest.raises(ValueError, match="registered already"):
                sweeplab.register_method("test-gfp-11", other, sound=True, complete=False)
    finally:
        sweeplab.unregister_method("test-gfp-11")


def test_a_partial_fixing_what_its_function_does_not_take_is_refused_when_registered():
    gfp = METHODS["gfp"].function
    with pytest.raises(ValueError, match=r"method 'test-gfp-q'.* fixes arguments its function does not take "
                                         r"\(keyword options it takes: \[.*'p'.*\]\)"):
        sweeplab.register_method("test-gfp-q", functools.partial(gfp, q=11), sound=True, complete=False)
    with pytest.raises(ValueError, match="'test-gfp-pos'.* does not take"):  # a second positional argument
        sweeplab.register_method("test-gfp-pos", functools.partial(gfp, 1, 2), sound=True, complete=False)
    assert "test-gfp-q" not in METHODS and "test-gfp-pos" not in METHODS


@pytest.mark.parametrize(("method", "fixed"), [("gfp", {"p": 4}), ("rref", {"iterate": "x"}),
                                               ("enumerate", {"max_nodes": -1}), ("lp", {"time_limit": 0})])
def test_a_partial_fixing_a_value_its_builtin_refuses_is_refused_when_registered(method, fixed):
    """An adversarial review: gfp with p=4 was registered, and every call failed as a bug in the method."""
    (option, _), = fixed.items()
    with pytest.raises(ValueError, match=rf"method 'test-bad'.* fixes an option that method '{method}' "
                                         rf"refuses: option {option} of method '{method}' must be .*fix the"):
        sweeplab.register_method("test-bad", functools.partial(METHODS[method].function, **fixed), sound=True,
                                 complete=False)
    assert "test-bad" not in METHODS


@pytest.mark.parametrize(("fixed", "match"), [
    ({"probabilities": True}, "fixes probabilities, which deduce asks"),
    ({"use_total": "maybe"}, "fixes a use_total that is not a flag")])
def test_a_partial_fixing_what_deduce_asks_per_call_is_refused_when_registered(fixed, match):
    """A review of today's change: a partial of enumerate fixing probabilities=True was accepted, and every
    call failed with "must return (safe, mines)"."""
    with pytest.raises(ValueError, match=match):
        sweeplab.register_method("test-fixes", functools.partial(METHODS["enumerate"].function, **fixed),
                                 sound=True, complete=True)
    assert "test-fixes" not in METHODS
    off = functools.partial(METHODS["enumerate"].function, probabilities=False)  # the default: harmless
    sweeplab.register_method("test-fixes", off, sound=True, complete=True)
    try:
        assert deduce("?1\n11", "test-fixes").mines == {(0, 0)}
    finally:
        sweeplab.unregister_method("test-fixes")


def test_a_partial_keeps_its_use_total_and_its_time_limit_gives_way_to_untimed_play():
    rref, lp = METHODS["rref"].function, METHODS["lp"].function
    sweeplab.register_method("test-rref-no-total", functools.partial(rref, use_total=False), sound=True,
                             complete=False)
    sweeplab.register_method("test-lp-5s", functools.partial(lp, time_limit=5.0), sound=True, complete=False)
    try:
        obs = Observation.from_text("??\n??\n11", mines=1)  # without the total no cell is forced
        assert deduce(obs, "rref").cells and not deduce(obs, "test-rref-no-total").cells
        assert deduce(obs, "test-lp-5s", time_limit=None).cells == deduce(obs, "lp").cells
        games = sweeplab.play("chain", methods=["trivial", "test-lp-5s"], level="beginner", games=2, seed=1)
        assert len(games) == 2  # agents call methods untimed: the fixed budget gives way
    finally:
        for name in ("test-rref-no-total", "test-lp-5s"):
            sweeplab.unregister_method(name)


def test_cli_plugin_solve_bench_play(tmp_path, capsys):
    """``--plugin MODULE`` makes a registered method usable from every sub-command (issue 9)."""
    from sweeplab.cli import main
    from sweeplab.corpus import Slice, generate_corpus, save_corpus

    pos = tmp_path / "p.txt"
    pos.write_text("??????\n?1122?\n")
    assert main(["solve", str(pos), "--plugin", "sweeplab.example_plugin", "--method", "rref-reversed",
                 "--mines", "3", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "rref-reversed (sound)" in out and "(0,1) is safe." in out

    corpus = tmp_path / "c.jsonl.gz"
    save_corpus(generate_corpus(seed=3, slices=[Slice("b", level="beginner", games=1, per_game=2)],
                                examples=False), corpus)
    assert main(["bench", "--plugin", "sweeplab.example_plugin", "--corpus", str(corpus),
                 "--methods", "rref,rref-reversed", "--out", str(tmp_path / "bench")]) == 0
    assert "rref-reversed" in capsys.readouterr().out

    assert main(["play", "--plugin", "sweeplab.example_plugin", "--agent", "chain", "--option",
                 'methods=["trivial","rref-reversed"]', "--level", "beginner", "--games", "4",
                 "--workers", "2"]) == 0
    assert "chain" in capsys.readouterr().out
    assert main(["solve", str(pos), "--plugin", "no_such_module_xyz"]) == 2
    assert "no_such_module_xyz" in capsys.readouterr().err


@pytest.mark.parametrize("call", [
    lambda obs: sweeplab.probabilities(obs, use_total="false"),
    lambda obs: sweeplab.clue_system(obs, use_total="false"),
    lambda obs: deduce(obs, "enumerate", probabilities="no"),
    lambda obs: deduce(obs, "rref", proofs="no"),
    lambda obs: deduce(obs, "rref", check_consistency="no"),
    lambda obs: deduce(obs, "rref", iterate="yes"),
    lambda obs: deduce(obs, "rref", use_total=1),
])
def test_flags_are_true_or_false_never_a_truthy_string(call):
    """``use_total="false"`` was taken as True: probabilities 1/3 where 1/2 is right."""
    obs = Observation.from_text("???", mines=1)
    with pytest.raises(ValueError, match="must be True or False"):
        call(obs)
    assert sweeplab.probabilities(obs, use_total=np.False_)[0, 0] == 0.5
    assert sweeplab.probabilities(obs, use_total=True)[0, 0] == pytest.approx(1 / 3)


def test_probabilities_are_asked_only_of_a_method_that_gives_them():
    obs = Observation.from_text("???", mines=1)
    with pytest.raises(ValueError, match="method 'rref' gives no probabilities; 'enumerate' does"):
        deduce(obs, "rref", probabilities=True)
    assert deduce(obs, "rref", probabilities=False).probabilities is None  # asking for none is fine
    probabilities = deduce(obs, "enumerate", probabilities=True).probabilities
    assert probabilities[0].tolist() == pytest.approx([1 / 3] * 3)


@pytest.mark.parametrize("claims, message", [
    (({(0, 0)}, {(0, 0)}), "both safe and a mine"),
    (({(9, 9)}, set()), "outside the 2x2 board"),
    (({(-1, 0)}, set()), "outside the 2x2 board"),
    ((set(), {(0, 1)}), "not covered"),
])
def test_a_method_that_is_not_built_in_claims_only_covered_cells_once(claims, message):
    obs = Observation.from_text("?1\n11", mines=1)
    with pytest.raises(ValueError, match=message):
        deduce(obs, lambda obs, *, use_total=True: claims)
    assert deduce(obs, lambda obs, *, use_total=True: (set(), {(0, 0)})).mines == {(0, 0)}


@pytest.mark.parametrize("cell", [(0.9, 1.5), "02", (0.0, 1), (0, 1, 2), (True, 1), 5, b"01",
                                  frozenset({0, 1})])
@pytest.mark.parametrize("kind", [set, frozenset, list])
def test_a_registered_method_must_name_cells_by_integer_pairs(cell, kind):
    """int() made (0, 1) of (0.9, 1.5) and the mine (0, 2) of "02": a wrong claim, unchecked."""
    obs = Observation.from_text("???\n121", mines=2)
    with pytest.raises(TypeError, match="a cell is a pair of integers"):
        deduce(obs, lambda obs, *, use_total=True: (kind([cell]), kind()))
    fine = deduce(obs, lambda obs, *, use_total=True: (kind([(np.int64(0), np.int64(1))]), kind()))
    assert fine.safe == {(0, 1)} and all(type(v) is int for cell in fine.safe for v in cell)


def test_budgets_past_int64_mean_no_budget_and_messages_name_the_method_called():
    obs = Observation.from_text("???\n121", mines=2)
    for options in ({"max_nodes": 10**30}, {"max_bytes": 10**30}, {"max_nodes": 0}):
        assert deduce(obs, "enumerate", **options).safe == {(0, 1)}
        assert sweeplab.probabilities(obs, **options)[0].tolist() == [1.0, 0.0, 1.0]
    assert sweeplab.probabilities(obs, max_nodes=2**63)[0].tolist() == [1.0, 0.0, 1.0]
    noisy = Observation.from_text("?1?", noise="under")
    for method, options in (("gfp", {"p": 2}), ("gf2", {}), ("gfp", {})):
        with pytest.raises(MethodRefused, match=f"method '{method}' needs exact clues"):
            deduce(noisy, method, **options)


def test_claims_both_ways_on_a_position_without_layout_mean_inconsistent_not_a_bug():
    """A sound rule proves anything from contradictory clues: '0?' over '?2' has no layout."""
    obs = Observation.from_text("0?\n?2")
    both = {(0, 1), (1, 0)}
    for check in (True, False):
        with pytest.raises(InconsistentPositionError):
            deduce(obs, lambda obs, *, use_total=True: (both, both), check_consistency=check)


def test_the_lp_still_checks_a_position_when_the_block_search_is_over_its_memory(monkeypatch):
    """Enumeration and the block search both over budget: the LP relaxation still refuses a total the clues
    cannot hold (the 2 needs two of the three cells, the total allows none)."""
    import sweeplab.methods._consistency as consistency
    import sweeplab.methods.enumerate as enumeration

    def over_budget(*args, **kwargs):
        raise sweeplab.MethodRefused("over the test's budget")

    monkeypatch.setattr(enumeration, "analyse", over_budget)
    monkeypatch.setattr(enumeration, "block_check", over_budget)
    with pytest.raises(InconsistentPositionError):
        consistency.has_layout(Observation.from_text("???\n121", mines=0), use_total=True, time_limit=None)
    assert consistency.has_layout(Observation.from_text("???\n121", mines=2), use_total=True,
                                  time_limit=None) is None  # a point, no proof of a layout


def test_the_sweeplab_command_finds_a_plugin_in_the_current_folder(tmp_path):
    """``python -m sweeplab --plugin mymod`` found mymod.py in the current folder, the installed ``sweeplab``
    command did not (a bare ModuleNotFoundError, no hint): both look there now."""
    script = Path(sys.executable).with_name("sweeplab")
    if not script.exists():
        pytest.skip("the sweeplab console script is not installed beside this Python")
    (tmp_path / "folder_plugin.py").write_text(
        "import sweeplab\n\ndef nothing(obs, *, use_total=True):\n    return set(), set()\n\n"
        "sweeplab.register_method('folder-rule', nothing, sound=True, complete=False)\n")
    (tmp_path / "p.txt").write_text("??1\n?21\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "SWEEPLAB_PLUGINS")}
    command = [str(script), "solve", "p.txt", "--plugin"]
    run = subprocess.run([*command, "folder_plugin", "--method", "folder-rule"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and "folder-rule (sound): 0 safe, 0 mines" in run.stdout, run.stderr[-2000:]
    run = subprocess.run([*command, "elsewhere_plugin"], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 2 and "run it from the folder that holds the module" in run.stderr
    run = subprocess.run([str(script), "solve", "p.txt", "--method", "folder-rule"], cwd=tmp_path,
                         env={**env, "SWEEPLAB_PLUGINS": "folder_plugin"}, capture_output=True, text=True,
                         timeout=120)  # the environment variable, as --plugin
    assert run.returncode == 0 and "folder-rule (sound)" in run.stdout, run.stderr[-2000:]
    for start in ([str(script)], [sys.executable, "-m", "sweeplab"]):  # a missing one: a warning line
        run = subprocess.run([*start, "methods"], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                             env={**env, "SWEEPLAB_PLUGINS": "gone_plugin"})
        assert run.returncode == 0 and run.stderr.startswith("sweeplab: warning: plugin 'gone_plugin'")
        assert "RuntimeWarning" not in run.stderr and "import main" not in run.stderr


def test_unknown_names_say_the_close_one_the_list_syntax_and_the_plugin_option():
    """A researcher's review: a forgotten --plugin on resume, or ``methods=rref,trivial`` on the command line,
    got only the list of choices."""
    with pytest.raises(ValueError, match=r"unknown agent 'bets' \(did you mean 'best'\?\).*--plugin MODULE"):
        make_agent("bets")
    with pytest.raises(ValueError, match=r"unknown method 'rref,trivial' \(a list of names is written "
                                         r"\[\"rref\", \"trivial\"\]\)"):
        make_agent("chain", methods=["rref,trivial"])
    with pytest.raises(ValueError, match=r"unknown method 'rrefs' \(did you mean 'rref'\?\).*register_"):
        deduce(Observation.from_text("1?"), "rrefs")
    with pytest.raises(ValueError, match=r"unknown method 'rref,trivial' \(one name, not a list\)"):
        deduce(Observation.from_text("1?"), "rref,trivial")  # where one name is wanted, no JSON advice


@pytest.mark.parametrize("value, edited", [
    ("types.MappingProxyType({'cell': (0, 5)})", "types.MappingProxyType({'cell': (0, 5.0)})"),
    ("collections.defaultdict(int, a=1)", "collections.defaultdict(float, a=1)"),
    ("frozenset({5})", "frozenset({5.0})"),
    ("{'w': [1, True]}", "{'w': [1, 1]}"),
])
def test_same_class_tells_values_apart_that_compare_equal(value, edited):
    """A mapping proxy was compared with ==, so (0, 5) was (0, 5.0); a defaultdict's factory and a set's
    element types were not compared: a changed class was taken for the one registered."""
    from sweeplab.methods import same_class

    source = "import collections, types\nclass A:\n    table = {}\n"
    cells = [{} for _ in range(3)]
    for cell, text in zip(cells, (value, value, edited), strict=True):
        exec(source.replace("{}", text), cell)
    assert same_class(cells[0]["A"], cells[1]["A"])
    assert not same_class(cells[0]["A"], cells[2]["A"])


def test_same_class_compares_a_list_that_holds_itself():
    """Such a list recursed until RecursionError."""
    from sweeplab.methods import same_class

    source = "class A:\n    table = []\nA.table.append(A.table)\nA.table.append({value})\n"
    cells = [{} for _ in range(3)]
    for cell, value in zip(cells, (1, 1, 2), strict=True):
        exec(source.format(value=value), cell)
    assert same_class(cells[0]["A"], cells[1]["A"])
    assert not same_class(cells[0]["A"], cells[2]["A"])


def test_a_method_that_fixes_use_total_is_judged_against_the_truth_under_its_own():
    """An adversarial review: enumerate fixed to use the total was called UNSOUND by check_sound, had wrong
    claims in bench and the fuzzer (the truth was taken without the total), and broke dominance."""
    from sweeplab.bench import run_bench
    from sweeplab.corpus import Slice, generate_corpus
    from sweeplab.dominance import dominance
    from sweeplab.methods import method_use_total
    from sweeplab.testing import check_sound, random_positions
    from sweeplab.testing.fuzz import fuzz

    sweeplab.register_method("test-enum-t", functools.partial(METHODS["enumerate"].function, use_total=True),
                             sound=True, complete=True)
    try:
        assert method_use_total("test-enum-t", False) is True
        assert method_use_total("enumerate", False) is False
        obs = sweeplab.Observation.from_text("?1--\n11--\n---?\n---?", mines=1)  # the total proves 2 cells
        assert sweeplab.deduce(obs, "test-enum-t", use_total=False).safe == {(2, 3), (3, 3)}
        report = check_sound("test-enum-t", positions=[obs, *random_positions(40, seed=3)])
        assert report and report.wrong_claims == 0 and report.missed == 0, report
        assert fuzz(15, seed=2, methods=["test-enum-t"])[1] == []
        corpus = generate_corpus(seed=11, slices=[Slice("beginner", level="beginner", games=1, per_game=3)],
                                 examples=False)
        rows = run_bench(corpus, methods=["test-enum-t"])
        assert (rows["wrong"] == 0).all() and (rows["missed"] == 0).all()
        with pytest.raises(ValueError, match="'test-enum-t' fixes use_total=True.*compare it with use_total"):
            dominance([obs], methods=["test-enum-t", "enumerate"], use_total=False)
        assert dominance([obs], methods=["test-enum-t", "enumerate"]).positions == 1
    finally:
        sweeplab.unregister_method("test-enum-t")
