"""Dominance between the sound methods (issue 11 item 3) and its committed counterexamples.

Every counterexample of :mod:`sweeplab.examples` (``smallest-<B>-beats-<A>``) is re-checked by the
independent SAT oracle of ``tests/oracle.py``: B proves a cell that A does not, and that cell is forced.
"""

from __future__ import annotations

import pytest
from oracle import forced

from sweeplab import InconsistentPositionError, Observation, clue_system, deduce, new_game
from sweeplab.dominance import (
    SEARCH,
    SOUND,
    classes_from_table,
    counterexamples,
    deductions,
    dominance,
    dominance_positions,
    hasse_edges,
    hasse_from_table,
    search_counterexamples,
    witness_size,
)
from sweeplab.examples import EXAMPLES

CE = counterexamples()


@pytest.fixture(scope="module")
def corpus_dominance():
    """Dominance on the default positions (the examples, then the corpus), with and without the total."""
    positions = dominance_positions(corpus="small")
    return {total: dominance(positions, methods=SEARCH, use_total=total) for total in (True, False)}


def _dominating_pairs(d):
    return {(a, b) for a in SEARCH for b in SEARCH if a != b and d.dominates(a, b)}


def test_measured_dominance_is_exactly_the_pairs_without_a_committed_counterexample(corpus_dominance):
    """On the default positions (the examples, then the corpus) a pair of the incomplete methods and
    ``enumerate`` dominates exactly when no committed counterexample separates it: no pair the corpus
    separates lacks a witness, and no committed witness is missed (the report's Hasse diagram reads this)."""
    d = corpus_dominance[True]
    wrong = [(a, b) for a in SEARCH for b in SEARCH if a != b and d.dominates(a, b) == ((a, b) in CE)]
    assert not wrong, wrong
    assert d.dominates("lp", "rref") and not d.dominates("bounded", "gf2")  # gf2-beats-bounded is in


def test_without_the_total_every_order_measured_with_it_still_holds(corpus_dominance):
    """The orders that are theorems (a claim of ``trivial``, ``subset`` or one RREF pass is one of the LP
    relaxation; a null-space certificate is a row RREF reduces) do not need the total, and on the default
    positions the orders measured with and without it are the same: every committed witness holds either
    way (``gf2-beats-bounded`` has no total)."""
    with_total, without = (_dominating_pairs(corpus_dominance[t]) for t in (True, False))
    theorems = {("lp", "trivial"), ("lp", "subset"), ("subset", "trivial"), ("lp", "rref"),
                ("rref", "lstsq-certified"), ("lp", "lstsq-certified")}
    assert theorems <= with_total == without
    assert not corpus_dominance[False].use_total


def test_examples_are_among_the_default_positions():
    texts = {o.to_text() for o in dominance_positions(corpus=None)}
    assert {ex.observation.to_text() for ex in EXAMPLES.values()} <= texts
    assert dominance_positions(corpus=None, examples=False) == []
    with pytest.raises(ValueError, match="examples"):
        dominance_positions(corpus=None, examples="no")


@pytest.mark.parametrize("pair", sorted(CE), ids=lambda p: f"{p[1]}>{p[0]}")
def test_counterexample_is_confirmed_by_the_oracle(pair):
    a, b = pair
    ex = CE[pair]
    obs = ex.observation
    safe, mines = forced(obs, use_total=True)
    assert (set(ex.safe), set(ex.mines)) == (safe, mines)
    found_b = deduce(obs, b)
    found_a = deduce(obs, a)
    assert found_b.safe <= safe and found_b.mines <= mines  # sound
    extra = found_b.cells - found_a.cells
    assert extra, f"{b} finds nothing {a} misses"
    assert extra <= safe | mines


def test_complete_methods_dominate_and_are_equivalent():
    positions = dominance_positions(corpus=None, random=40, seed=1, max_side=5)
    positions += [CE[("subset", "rref")].observation, CE[("rref", "trivial")].observation]
    d = dominance(positions, methods=("trivial", "subset", "rref", "enumerate", "milp"))
    for m in ("trivial", "subset", "rref"):
        assert d.dominates("enumerate", m) and d.dominates("milp", m)
    assert ("enumerate", "milp") in d.classes()
    assert d.dominates("subset", "trivial")
    edges = hasse_edges(d)
    assert (("enumerate", "milp"), ("subset",)) in edges
    assert (("enumerate", "milp"), ("trivial",)) not in edges  # implied through subset
    assert hasse_from_table(d.table()) == edges and classes_from_table(d.table()) == d.classes()


def test_dominance_skips_refusals_and_inconsistent_positions():
    game = new_game("intermediate", first_click="zero", seed=0)
    game.reveal(8, 8)
    big = game.observation
    assert clue_system(big).n_frontier > 20  # brute refuses it
    bad = Observation.from_text("?1\n?3", mines=1)
    d = dominance([big, bad, Observation.from_text("???\n121", mines=2)], methods=("brute", "trivial"))
    assert d.positions == 2  # the inconsistent one is left out
    assert d.tested[("brute", "trivial")] == 1  # brute refused the big one


def test_a_pair_never_tested_together_dominates_neither_way():
    """brute refused every position, yet 'dominated' and 'was dominated by' everything: no witness in
    no test.  A pair with no position both answered has no evidence either way."""
    game = new_game("intermediate", first_click="zero", seed=0)
    game.reveal(8, 8)
    d = dominance([game.observation], methods=("trivial", "brute", "enumerate"))
    assert d.tested[("trivial", "brute")] == 0 and d.tested[("trivial", "enumerate")] == 1
    assert not d.dominates("trivial", "brute") and not d.dominates("brute", "trivial")
    assert not d.dominates("brute", "enumerate") and d.dominates("enumerate", "trivial")
    assert ("brute",) in d.classes() and not any("brute" in a + b for a, b in hasse_edges(d))
    empty = dominance([], methods=("trivial", "enumerate"))
    assert not empty.dominates("trivial", "enumerate") and not empty.dominates("enumerate", "trivial")


def test_dominance_skips_positions_no_method_sees_are_inconsistent():
    """No layout fits (checked by brute force), yet neither trivial nor gf2 notices: not a witness."""
    obs = Observation.from_text("13?1\n????\n???1", mines=4)
    with pytest.raises(InconsistentPositionError):
        forced(obs, use_total=True)
    assert deduce(obs, "gf2", check_consistency=False).cells  # gf2 alone would claim cells here
    d = dominance([obs], methods=("trivial", "gf2"))
    assert d.positions == 0 and not any(d.witnesses.values())


def test_search_finds_the_classic_trivial_miss():
    found = search_counterexamples(methods=("trivial", "subset"), exhaustive_area=4, random=0)
    w = found[("trivial", "subset")]
    assert w.size == (3, 4) and w.observation.mines == 2


@pytest.mark.parametrize(("methods", "match"), [
    (("trivial", "lstsq"), "not sound"),
    (("trivial",), "two or more"),
    (("trivial", "magic"), "unknown method"),
])
def test_bad_methods(methods, match):
    with pytest.raises(ValueError, match=match):
        dominance([], methods=methods)


def test_counterexamples_are_in_the_catalogue():
    assert all(EXAMPLES[ex.name] is ex for ex in CE.values())
    assert set(SOUND) >= set(SEARCH)


@pytest.mark.slow
def test_no_smaller_witness_on_tiny_boards():
    """Every position of at most 6 cells: no pair has a witness with fewer covered cells than committed."""
    tiny = search_counterexamples(exhaustive_area=6, random=0)
    for pair, w in tiny.items():
        if pair in CE:
            assert witness_size(CE[pair].observation) <= w.size, pair


def test_deductions_do_not_depend_on_the_machine_speed(request):
    """A starved machine (every time budget spent at once): no method refuses, the same cells."""
    methods = ("trivial", "subset", "rref", "gf2", "bounded", "lp", "milp", "enumerate")
    positions = [new_game(level="intermediate", first_click="zero", seed=s) for s in range(4)]
    for g in positions:
        g.reveal(8, 8)
    before = [deductions(g.observation, methods) for g in positions]
    request.getfixturevalue("starved")
    after = [deductions(g.observation, methods) for g in positions]
    assert after == before and all(None not in d.values() for d in after)


def test_first_witness_is_the_index_of_the_first_separating_position():
    """trivial proves nothing on '???/121' (2 mines) where subset proves all three cells; the first position
    separates nothing ('?1' with 1 mine: both prove the mine), so the first witness is position 1, not 2."""
    plain = Observation.from_text("?1", mines=1)
    split = Observation.from_text("???\n121", mines=2)
    d = dominance([plain, split, split], methods=("trivial", "subset"))
    assert d.witnesses[("trivial", "subset")] == 2 and d.first_witness[("trivial", "subset")] == 1
    assert ("subset", "trivial") not in d.first_witness


@pytest.mark.parametrize(("options", "match"), [
    ({"random": -1}, "random must be a non-negative integer, got -1"),
    ({"random": 1.5}, "random must be a non-negative integer, got 1.5"),
    ({"random": 1, "max_side": 0}, "max_side must be a positive integer, got 0"),
    ({"seed": -2}, "seed must be a non-negative integer, got -2"),
])
def test_bad_position_options_name_the_value(options, match):
    with pytest.raises(ValueError, match=match):
        dominance_positions(corpus=None, examples=False, **options)
    with pytest.raises(ValueError, match=match):
        search_counterexamples(methods=("trivial", "subset"), exhaustive_area=0, **{"random": 0, **options})


def test_dominates_a_pair_not_tested_names_the_methods():
    d = dominance([Observation.from_text("???\n121", mines=2)], methods=("trivial", "rref"))
    for a, b in (("rref", "rref"), ("rref", "subset")):
        with pytest.raises(ValueError, match=r"give two distinct methods of \['trivial', 'rref'\]"):
            d.dominates(a, b)


def test_positions_may_be_texts_and_a_single_position_is_named():
    """The audit's case: a text raised AttributeError ('str' object has no attribute 'shape')."""
    by_text = dominance(["???\n121"], methods=("trivial", "rref"))
    by_obs = dominance([Observation.from_text("???\n121")], methods=("trivial", "rref"))
    assert by_text.tested == by_obs.tested and by_text.witnesses == by_obs.witnesses
    assert by_text.witnesses[("trivial", "rref")] == 1  # rref's 1-2-1 proves (0, 1) safe; trivial does not
    with pytest.raises(ValueError, match="a single one.*give \\[position\\]"):
        dominance("???\n121", methods=("trivial", "rref"))
    with pytest.raises(ValueError, match="a single one"):
        dominance(Observation.from_text("???\n121").grid, methods=("trivial", "rref"))
    with pytest.raises(ValueError, match="positions is a list of positions, got None"):
        dominance(None, methods=("trivial", "rref"))
