"""The explorer and its tables: every action checked on the state the board widget is sent.

The browser side draws exactly the widget's synced traits and sends custom
messages; these tests send the same messages and read the same state (the
drawing itself is tested in a real browser by ``test_browser.py``).
"""

from __future__ import annotations

import dataclasses
import re
from fractions import Fraction

import numpy as np
import pytest
import sympy

pytest.importorskip("anywidget")

import sweeplab  # noqa: E402
from sweeplab.examples import EXAMPLES  # noqa: E402
from sweeplab.explorer import Explorer, bound_table, clue_table, rref_steps, rref_table  # noqa: E402


def send(ex: Explorer, event: str, **fields) -> None:
    """What the browser sends: a custom message on the board widget."""
    ex.board._handle_custom_msg({"event": event, "game": ex.board.game_id, **fields}, [])


def shown(ex: Explorer) -> dict:
    """The state the board is sent, as the browser receives it (the widget's synced traits)."""
    return {name: value for name, value in ex.board.get_state().items() if not name.startswith("_")}


def assert_board_is_the_game(ex: Explorer) -> None:
    state = shown(ex)
    assert state["grid"] == ex.game.observation.grid.tolist()
    assert state["status"] == ex.game.status
    d = ex.deduction
    assert state["safe"] == (sorted(map(list, d.safe)) if d else [])
    assert state["mines"] == (sorted(map(list, d.mines)) if d else [])
    assert set(state["proofs"]) == ({f"{r},{c}" for r, c in d.proofs} if d else set())


@pytest.fixture
def explorer() -> Explorer:
    ex = Explorer(level="beginner", seed=5, method="trivial")
    send(ex, "click", row=4, col=4)
    return ex


def test_click_message_reveals_and_the_board_is_sent_the_game(explorer: Explorer):
    assert (explorer.game.observation.grid >= 0).sum() > 1
    assert_board_is_the_game(explorer)
    r, c = map(int, np.argwhere(explorer.game.observation.grid == sweeplab.COVERED)[0])
    send(explorer, "click", row=r, col=c)
    assert explorer.game.observation.grid[r, c] != sweeplab.COVERED
    assert_board_is_the_game(explorer)


def test_right_click_and_flag_mode_flag_and_unflag(explorer: Explorer):
    r, c = map(int, np.argwhere(explorer.game.observation.grid == sweeplab.COVERED)[0])
    send(explorer, "flag", row=r, col=c)
    assert explorer.board.grid[r][c] == sweeplab.FLAG and "flagged" in explorer.board.message
    send(explorer, "flag", row=r, col=c)
    assert explorer.board.grid[r][c] == sweeplab.COVERED  # the old board kept its "F" here
    explorer.board.flag_mode = True  # the toggle: left clicks flag
    send(explorer, "click", row=r, col=c)
    assert explorer.board.grid[r][c] == sweeplab.FLAG
    send(explorer, "click", row=r, col=c)
    assert explorer.board.grid[r][c] == sweeplab.COVERED
    assert_board_is_the_game(explorer)


@pytest.mark.parametrize("method", ["trivial", "bounded", "enumerate"])
def test_deductions_sent_are_sound_with_proofs(method: str):
    ex = Explorer(sweeplab.new_game(shape=(10, 10), mines=14, first_click="zero", seed=2), method=method)
    ex.click(5, 5)
    layout, d, obs = ex.game.layout, ex.deduction, ex.game.observation
    assert d is not None and d.method == method and len(d) > 0
    assert all(not layout[cell] for cell in d.safe) and all(layout[cell] for cell in d.mines)
    assert_board_is_the_game(ex)
    for (r, c), proof in d.proofs.items():
        sent = ex.board.proofs[f"{r},{c}"]
        assert sweeplab.check_proof(obs, proof)
        assert sent["value"] == int((r, c) in d.mines) and sent["text"] == proof.explain(obs)
        clues = {tuple(s[:2]) for s in sent["sources"] if s[0] != "total"}
        assert clues == {src for src in proof.sources if src != "total"}


def test_method_chosen_on_the_board_and_apply_never_lose():
    ex = Explorer(sweeplab.new_game(shape=(8, 8), mines=8, first_click="zero", seed=11), method="trivial")
    ex.click(4, 4)
    ex.board.method = "enumerate"  # what the method menu sends
    assert ex.method == "enumerate" and ex.deduction.method == "enumerate"
    assert "enumerate (sound, complete)" in ex.board.summary
    for _ in range(50):
        before = ex.game.observation.grid.copy()
        send(ex, "apply")
        assert_board_is_the_game(ex)
        if (ex.game.observation.grid == before).all():
            break
    assert ex.game.status in ("playing", "won") and ex.game.mines_hit == 0


def test_probabilities_are_sent_exact(explorer: Explorer):
    expected = sweeplab.probabilities(explorer.game.observation)
    sent = np.array([[np.nan if p is None else p for p in row] for row in explorer.board.probabilities])
    np.testing.assert_array_equal(np.isnan(sent), np.isnan(expected))
    np.testing.assert_allclose(sent[~np.isnan(sent)], expected[~np.isnan(expected)])
    explorer.board.show_probabilities = True  # drawn on the cells: nothing to recompute
    assert explorer.board.probabilities == [[None if np.isnan(p) else p for p in row] for row in expected]


def test_agent_steps_play_to_the_end_and_show_the_layout():
    ex = Explorer(sweeplab.new_game(shape=(5, 6), mines=4, seed=3), seed=3, agent="trivial")
    for _ in range(100):
        if ex.game.status != "playing":
            break
        send(ex, "agent_step")
        assert ex.board.message.startswith("agent trivial:")
        assert_board_is_the_game(ex)
    assert ex.game.status in ("won", "lost")
    assert sorted(map(tuple, ex.board.layout)) == sorted(map(tuple, np.argwhere(ex.game.layout).tolist()))
    assert ex.agent_step() == [] and ex.board.safe == [] and ex.board.proofs == {}


@pytest.mark.parametrize(("level", "first_click", "cell", "recorded"), [
    ("intermediate", "zero", (2, 2), "2,2"), ("expert", "zero", (3, 3), "3,3"),
    ("beginner", "safe", (0, 0), "corner")])
def test_an_agent_opens_where_it_opens_in_play(level: str, first_click: str, cell, recorded):
    """The referee's promise: a move means the same everywhere (``best``'s "auto" first cell too)."""
    ex = Explorer(level=level, seed=0, first_click=first_click)
    assert ex.agent_step("best")[0][:3] == ("reveal", *cell)
    game = sweeplab.play("best", level=level, first_click=first_click, games=1, seed=0, workers=1)
    assert game["first_move"].iloc[0] == recorded


def test_cells_off_the_board_are_clear_errors(explorer: Explorer):
    h, w = explorer.game.shape
    for row, col in ((h, 0), (0, w), (-1, 0)):
        with pytest.raises(ValueError, match=f"cell \\({row}, {col}\\) is outside the {h}x{w} board"):
            explorer.click(row, col)
        with pytest.raises(ValueError, match="outside"):
            explorer.flag(row, col)
    for row, col in ((True, 0), (1.0, 2), ("1", 2)):  # True is an int to Python; 1.0 was "outside"
        with pytest.raises(ValueError, match="row and column must be integers"):
            explorer.click(row, col)


def test_bad_or_stale_board_messages_are_said_on_the_board_never_raised():
    """A click sent just before the level changed, or a malformed one: the board says why, the game
    is untouched (raised, ipywidgets would only log it and the board would seem frozen)."""
    ex = Explorer(level="expert", seed=1)
    send(ex, "click", row=8, col=15)
    ex.board.level = "beginner"
    moves = list(ex.game.moves)
    messages = {"click": [{"row": 15, "col": 29}, {}, {"row": None, "col": 1}, {"row": 1.7, "col": 1},
                          {"row": True, "col": 0}, {"row": "1", "col": 1}],
                "flag": [{"row": -1, "col": 0}, {"row": "x", "col": 2}]}
    for event, variants in messages.items():
        for fields in variants:
            send(ex, event, **fields)
            assert ("outside the 9x9 board" in ex.board.message
                    or f"a {event} needs integer row and col" in ex.board.message), (event, fields)
    ex._on_message("click")  # not even a dict: nothing happens
    assert ex.game.moves == moves and ex.game.status == "playing"
    send(ex, "click", row=4, col=4)
    assert ex.board.message.startswith("revealed (4,4)")


def test_a_seed_that_is_no_integer_is_refused_and_a_won_game_has_no_mine_left():
    with pytest.raises(ValueError, match="seed must be a non-negative integer, got None"):
        Explorer(seed=None)  # New game would have failed on seed + 1, the menus out of step
    ex = Explorer(sweeplab.new_game(shape=(3, 3), mines=8, first_click="safe", seed=1))
    ex.click(0, 0)
    assert ex.game.status == "won" and ex.board.summary.startswith("won · 0 mines left")
    # a lost game's mines were not all found: "not flagged", not "left" to play
    lost = Explorer(sweeplab.Game.from_layout(np.array([[True, False, True]])))
    lost.click(0, 0)
    assert lost.game.status == "lost"  # on (0, 0): the other mine is not flagged
    assert lost.board.summary.startswith("lost · 1 mine not flagged")


def test_a_lost_game_counts_its_mines_from_the_layout_and_names_wrong_flags():
    """A student's review: three wrong flags and a mine stepped on showed "lost · 6 mines not flagged"
    (the total less the flags), where the board shows every mine and the three flags crossed out."""
    ex = Explorer(level="beginner", seed=1)
    send(ex, "click", row=4, col=4)
    layout, grid = ex.game.layout, ex.game.observation.grid
    wrong = [tuple(map(int, x)) for x in np.argwhere((grid == sweeplab.COVERED) & ~layout)[:3]]
    right = tuple(map(int, np.argwhere((grid == sweeplab.COVERED) & layout)[0]))
    for cell in [*wrong, right]:
        send(ex, "flag", row=cell[0], col=cell[1])
    assert ex.board.summary.startswith("playing · 6 mines left")  # the counter in play: total less flags
    mine = tuple(map(int, np.argwhere((ex.game.observation.grid == sweeplab.COVERED) & layout)[0]))
    send(ex, "click", row=mine[0], col=mine[1])
    assert ex.game.status == "lost"
    assert ex.board.summary.startswith("lost · 8 mines not flagged, 3 wrong flags"), ex.board.summary


def test_an_unknown_board_event_is_said_on_the_board(explorer: Explorer):
    send(explorer, "bogus")
    assert explorer.board.message.startswith("unknown board event 'bogus'; the board sends click, flag")


def test_new_game_clears_everything(explorer: Explorer):
    r, c = map(int, np.argwhere(explorer.game.observation.grid == sweeplab.COVERED)[0])
    explorer.flag(r, c)
    explorer.board.panel = "matrix"
    game_id = explorer.board.game_id
    send(explorer, "new")
    state = shown(explorer)
    assert state["game_id"] == game_id + 1 and "seed 6" in state["message"]
    assert state["grid"] == [[sweeplab.COVERED] * 9] * 9
    assert state["safe"] == state["mines"] == state["layout"] == [] and state["proofs"] == {}
    assert [row["label"] for row in state["matrix"]["rows"]] == ["total"] and state["status"] == "playing"
    expected = sweeplab.new_game("beginner", first_click="zero", seed=6)
    explorer.click(4, 4)
    expected.reveal(4, 4)
    assert explorer.board.grid == expected.observation.grid.tolist()


def test_level_menu_starts_a_game_on_that_level(explorer: Explorer):
    assert explorer.board.levels[:3] == ["beginner", "intermediate", "expert"]
    explorer.board.level = "expert"
    assert explorer.game.shape == (16, 30) and len(explorer.board.grid[0]) == 30
    explorer.board.level = "nope"
    assert explorer.board.level == "expert"
    custom = Explorer(sweeplab.new_game(shape=(5, 7), mines=6, seed=1))
    assert custom.board.level == "5x7, 6 mines" and custom.board.levels[-1] == custom.board.level
    assert custom.new().game.shape == (5, 7)


def test_matrix_panels_are_the_clue_system_and_its_rref(explorer: Explorer):
    assert explorer.board.matrix == {}  # computed only while a panel is open
    obs = explorer.game.observation
    system = sweeplab.clue_system(obs)
    explorer.board.panel = "matrix"
    table = explorer.board.matrix
    interior = system.n_variables - system.n_frontier
    assert [c["name"] for c in table["columns"]] == [f"x{j}" for j in range(system.n_frontier)] + (
        ["interior"] if interior else [])
    assert len(table["rows"]) == system.n_equations
    for row, clue, a, b in zip(table["rows"], system.clues, system.A, system.b, strict=True):
        assert row["source"] == ("total" if clue is None else list(clue)) and row["b"] == str(b)
        assert row["values"][: system.n_frontier] == [str(v) for v in a[: system.n_frontier]]
    explorer.board.panel = "rref"
    reduced, _ = sympy.Matrix(np.column_stack([system.A, system.b]).tolist()).rref()
    nonzero = [list(reduced.row(i)) for i in range(reduced.rows) if any(reduced.row(i))]
    assert len(explorer.board.matrix["rows"]) == len(nonzero)
    first = explorer.board.matrix["rows"][0]
    assert [Fraction(v) for v in first["values"][: system.n_frontier]] == [
        Fraction(int(v.p), int(v.q)) for v in nonzero[0][: system.n_frontier]]
    explorer.click(*map(int, np.argwhere(obs.grid == sweeplab.COVERED)[0]))
    assert explorer.board.matrix["kind"] == "rref"  # follows the position
    explorer.board.panel = "none"
    assert explorer.board.matrix == {}


def test_the_method_menu_is_the_live_registry(explorer: Explorer):
    def corner(obs, *, use_total=True):
        return {(0, 0)} if obs.grid[0, 0] == sweeplab.COVERED else set(), set()

    sweeplab.register_method("corner-test", corner, sound=False, complete=False, summary="claims (0,0)")
    try:
        explorer.refresh()
        assert {"name": "corner-test", "sound": False, "complete": False, "summary": "claims (0,0)"} in (
            explorer.board.methods)
        explorer.board.method = "corner-test"
        assert "UNSOUND" in explorer.board.summary
    finally:
        sweeplab.unregister_method("corner-test")
    explorer.refresh()
    assert explorer.board.method == "rref"
    assert "corner-test" not in [m["name"] for m in explorer.board.methods]
    explorer.board.method = "nope"  # a stale menu: the board goes back
    assert explorer.board.method == "rref"


def test_wrong_flags_are_reported_not_raised():
    layout = np.zeros((3, 4), dtype=bool)
    layout[0, 0] = layout[2, 3] = True
    ex = Explorer(sweeplab.Game.from_layout(layout), method="enumerate")
    ex.click(1, 1)  # a 1
    ex.flag(0, 1)
    ex.flag(1, 0)
    assert "no mine layout fits" in ex.board.message and ex.deduction is None


def test_unknown_names_are_clear_errors():
    with pytest.raises(ValueError, match="unknown method"):
        Explorer(level="beginner", method="nope")
    with pytest.raises(ValueError, match="unknown agent"):
        Explorer(level="beginner", agent="nope")
    with pytest.raises(ValueError, match="unknown level"):
        Explorer(level="beginner").new(level="nope")


def test_saved_notebooks_say_how_to_get_the_board_back(explorer: Explorer):
    data, _ = explorer._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data
    assert "Run All" in data["text/plain"]


@pytest.mark.parametrize("name", ["002-one-two", "002-one-one-two-two", "001-abc", "rref-one-pass-misses"])
def test_tables_match_sympy_and_bounds_are_sound(name: str):
    ex = EXAMPLES[name]
    system = sweeplab.clue_system(ex.observation, use_total=False)
    table = clue_table(system)
    assert table.drop(columns="b").to_numpy().tolist() == system.A.tolist()
    reduced = rref_table(system)
    expected, _ = sympy.Matrix(np.column_stack([system.A, system.b]).tolist()).rref()
    nonzero = [list(expected.row(i)) for i in range(expected.rows) if any(expected.row(i))]
    assert [[Fraction(v) for v in row] for row in reduced.to_numpy().tolist()] == [
        [Fraction(int(v.p), int(v.q)) for v in row] for row in nonzero
    ]
    assert rref_steps(system)[-1][1][: len(nonzero), :].tolist() == nonzero
    fixed = {}
    for text in bound_table(reduced)["fixes"]:
        for item in filter(None, text.split(", ")):
            var, value = item.split("=")
            fixed[system.cells[int(var[1:])]] = int(value)
    truth = sweeplab.deduce(ex.observation, method="enumerate", use_total=False)
    assert {c for c, v in fixed.items() if v == 0} <= truth.safe
    assert {c for c, v in fixed.items() if v == 1} <= truth.mines


def test_unproved_cells_give_their_real_reason():
    """Under clues that are only bounds the board said 'over the prover's size budget'."""
    game = sweeplab.new_game("beginner", first_click="zero", noise=("under", 0.5), seed=3)
    ex = Explorer(game, method="enumerate")
    ex.click(4, 4)
    assert ex.board.unproved and not ex.board.proofs
    assert set(ex.board.unproved_reasons) == {f"{r},{c}" for r, c in ex.board.unproved}
    assert set(ex.board.unproved_reasons.values()) == {"clues that are only bounds have no proof format"}
    assert "only bounds" in ex.board.message
    ex.board.method = "lstsq"  # unsound: its unproved claims are said to be unforced
    assert all("unsound" in why for why in ex.board.unproved_reasons.values())


def test_a_method_that_raises_leaves_the_board_in_step_with_the_game():
    def boom(obs, *, use_total=True):
        raise ValueError("boom")

    sweeplab.register_method("explorer-boom", boom, sound=True, complete=False)
    try:
        ex = Explorer(seed=1)
        ex.click(4, 4)
        ex.set_method("explorer-boom")
        assert "method 'explorer-boom' raised ValueError: boom (a bug in the method" in ex.board.message
        ex.click(0, 0)
        assert ex.board.grid == ex.game.observation.grid.tolist()
    finally:
        sweeplab.unregister_method("explorer-boom")


def test_a_methods_false_no_layout_is_named_a_bug_and_the_probabilities_stay():
    """An adversarial review: the board told the student a flag was wrong (there was none) and dropped the
    probabilities, on a registered method's false InconsistentPositionError; the game's layout fits."""
    def no_layout(obs, *, use_total=True):
        raise sweeplab.InconsistentPositionError("no layout")

    sweeplab.register_method("explorer-no-layout", no_layout, sound=True, complete=False)
    try:
        ex = Explorer(level="beginner", seed=3, method="enumerate")
        ex.click(4, 4)
        ex.set_method("explorer-no-layout")
        said = "says no mine layout fits this position, but the game's own layout does (a bug in the method)"
        assert said in ex.board.message and "wrong flag" not in ex.board.message
        assert ex.probabilities is not None
    finally:
        sweeplab.unregister_method("explorer-no-layout")


@dataclasses.dataclass(frozen=True)
class _GuessesBadly(sweeplab.agents.Agent):
    methods: tuple[str, ...] = ()

    def guess(self, obs, rng):
        raise RuntimeError("guess exploded")


def test_an_agents_bug_in_agent_step_is_said_on_the_board():
    """An adversarial review: the board's handler caught only ValueError; ipywidgets would only log the rest
    and the Agent step button would seem to do nothing."""
    sweeplab.register_agent("explorer-guesses-badly", _GuessesBadly)
    try:
        ex = Explorer(level="beginner", seed=3, agent="explorer-guesses-badly")
        ex.click(4, 4)
        ex._on_message({"event": "agent_step", "game": ex.board.game_id})  # what the button sends
        assert ex.board.message == "agent_step failed: RuntimeError: guess exploded (a bug in the agent)"
    finally:
        sweeplab.unregister_agent("explorer-guesses-badly")


def test_a_refutation_that_raises_leaves_the_reasons_and_says_so(monkeypatch):
    """The refuting layout is drawn after the deduction: a bug there must not stop the board's update."""
    from sweeplab.agents.base import frontier_mask

    def guess_mines(obs, *, use_total=True):  # unsound: every covered cell beside a number is "a mine"
        return set(), {(int(r), int(c)) for r, c in np.argwhere(frontier_mask(obs.grid))}

    sweeplab.register_method("explorer-guess", guess_mines, sound=False, complete=False)
    try:
        ex = Explorer(seed=1, method="explorer-guess")
        ex.click(4, 4)
        drawn = ex.board.unproved_reasons
        assert sum("every clue and the total hold" in why for why in drawn.values()) == 3  # REFUTED

        def broken(*args, **kwargs):
            raise RuntimeError("sampler broke")

        monkeypatch.setattr("sweeplab.explorer.sample_layouts", broken)
        ex.refresh()
        assert "no refuting layout (RuntimeError: sampler broke; a bug in sweeplab)" in ex.board.message
        assert set(ex.board.unproved_reasons) == set(drawn) and ex.board.unproved  # the claims still shown
        assert not any("every clue" in why for why in ex.board.unproved_reasons.values())
        assert ex.board.grid == ex.game.observation.grid.tolist()
    finally:
        sweeplab.unregister_method("explorer-guess")


def test_new_takes_its_seed_with_a_level_and_the_starting_board_stays_on_the_menu():
    ex = Explorer(level="beginner", seed=1)
    ex.new(seed=42, level="expert")
    assert ex._seed == 42 and ex.game.shape == (16, 30)
    ex.new()
    assert ex._seed == 43
    ex = Explorer(sweeplab.new_game(shape=(6, 6), mines=5, first_click="zero", seed=2))
    ex.board.level = "beginner"
    assert ex.game.shape == (9, 9)
    ex.board.level = "6x6, 5 mines"
    assert ex.game.shape == (6, 6) and ex.game.n_mines == 5 and ex.board.level == "6x6, 5 mines"
    with pytest.raises(ValueError, match="unknown level 'huge'; choose one of .*'6x6, 5 mines'"):
        ex.new(level="huge")


def test_a_refused_seed_or_level_leaves_the_explorer_as_it_was():
    """A reviewer's cases: a bad seed was stored before it was checked (every later New game raised), a bad
    seed with a level switched the level menu alone, and an unknown level threw away the game in play."""
    from sweeplab.explorer import Explorer

    ex = Explorer(seed=0)
    ex.click(4, 4)
    game = ex.game
    for kwargs in ({"seed": "a"}, {"level": "expert", "seed": -1}, {"level": "nope"}):
        with pytest.raises(ValueError):
            ex.new(**kwargs)
        assert ex.game is game and ex.board.level == "beginner" and ex._seed == 0
    ex.board.level = "nope"  # as the level menu could send it
    assert ex.game is game and ex.board.level == "beginner"
    ex._on_message({"event": "new"})
    assert ex._seed == 1 and ex.game.shape == (9, 9)
    ex.board.level = "intermediate"
    assert ex.game.shape == (16, 16) and ex._seed == 2
    ex.new(level="expert", seed=7)
    assert ex.game.shape == (16, 30) and ex.board.level == "expert" and ex._seed == 7


def test_a_game_passed_in_takes_the_first_click_rule_given():
    """Explorer(game, first_click="zero") ignored the rule: a new game on a layout's board could be lost on
    its first click (Game.from_layout has no first-click rule)."""
    from sweeplab.explorer import Explorer

    ex = Explorer(sweeplab.Game.from_layout(np.eye(5, dtype=bool)), first_click="zero")
    for seed in range(3, 8):
        ex.new(seed=seed)
        ex.click(2, 2)
        assert ex.game.first_click == "zero" and ex.game.status != "lost"
    assert Explorer(sweeplab.Game.from_layout(np.eye(5, dtype=bool))).new(seed=1).game.first_click == "none"
    with pytest.raises(ValueError, match="first_click"):
        Explorer(sweeplab.Game.from_layout(np.eye(5, dtype=bool)), first_click="sometimes")


def test_the_board_says_a_mine_in_score_mode_and_keeps_what_was_done():
    """In score mode a mine did not say so (the game plays on); on a position a wrong flag made
    inconsistent, the problem overwrote what had just been done."""
    from sweeplab.explorer import Explorer

    game = sweeplab.new_game(shape=(5, 5), mines=5, mode="score", first_click="zero", seed=1)
    ex = Explorer(game)
    ex.click(2, 2)
    r, c = map(int, np.argwhere(game.layout & (game.observation.grid == sweeplab.COVERED))[0])
    ex.click(r, c)
    assert game.status == "playing" and ex.board.message == f"revealed ({r},{c}): a mine"
    ex = Explorer(level="beginner", seed=3)
    ex.click(4, 4)
    safe = min(sweeplab.deduce(ex.game.observation, "enumerate").safe)
    ex.flag(*safe)  # a wrong flag: no layout fits
    assert ex.board.message.startswith(f"flagged ({safe[0]},{safe[1]}): every method now takes it as a mine; "
                                       "then no mine layout fits")


def test_the_board_says_why_a_click_does_nothing():
    """A student's review: clicks that change nothing left the last action's message on the board."""
    ex = Explorer(level="beginner", seed=3, first_click="zero")
    assert ex.apply() == 0 and "reveal a cell first" in ex.board.message
    assert ex.board.probabilities == [] and "the first click is safe" in ex.board.summary
    ex.click(4, 4)
    assert ex.board.probabilities and "first click" not in ex.board.summary
    ex.click(4, 4)
    assert ex.board.message == "(4,4) is already revealed"
    ex.flag(4, 4)
    assert ex.board.message == "(4,4) is revealed: only a covered cell takes a flag"
    r, c = map(int, np.argwhere(np.array(ex.board.grid) == sweeplab.COVERED)[0])
    ex.flag(r, c)
    assert "every method now takes it as a mine" in ex.board.message
    ex.click(r, c)
    assert ex.board.message == f"({r},{c}) is flagged: unflag it (right click) to reveal it"
    assert ex.game.observation.grid[r, c] == sweeplab.FLAG
    assert Explorer(level="beginner", seed=3, first_click="none").board.probabilities  # no rule to honour


def test_a_first_click_on_a_hidden_number_opens_the_board():
    """A review: with lost clues the first click can show no number, and the board still read untouched."""
    ex = Explorer(sweeplab.new_game("beginner", noise=("lost", 1.0), seed=1))
    ex.click(4, 4)
    assert ex.game.observation.grid[4, 4] == sweeplab.NOCLUE
    assert ex.board.probabilities and "first click" not in ex.board.summary
    assert ex.apply() == 0 and ex.board.message == "rref has no deductions here to apply"


def test_apply_repeats_why_there_is_nothing_to_apply():
    ex = Explorer(level="beginner", seed=3)
    ex.click(4, 4)
    ex.flag(*min(sweeplab.deduce(ex.game.observation, "enumerate").safe))  # a wrong flag
    assert ex.apply() == 0 and ex.board.message.startswith("no mine layout fits this position")


def test_the_hover_calls_probabilities_exact_only_where_they_are():
    """Under clue noise read as bounds the probabilities rest on a model; the hover line said "exact"."""
    from sweeplab.explorer import Explorer

    for noise, kind in [(None, "exact"), (("lost", 0.5), "exact"), (("under", 0.5), "equally likely"),
                        (("over", 0.5), "equally likely")]:
        ex = Explorer(sweeplab.new_game("beginner", noise=noise, seed=2))
        ex.click(4, 4)
        assert kind in ex.board.probability_kind, (noise, ex.board.probability_kind)


def test_bad_arguments_and_controls_are_refused_or_undone():
    with pytest.raises(ValueError, match="game must be a sweeplab Game.*for a preset pass level='beginner'"):
        Explorer("beginner")
    with pytest.raises(ValueError, match="a position's text is not a game: sweeplab.Game.from_layout"):
        Explorer("???\n121")
    with pytest.raises(ValueError, match=r"unknown agent \['best'\]; choose from"):
        Explorer(agent=["best"])
    ex = Explorer(seed=3)
    ex.board.agent = "nope"  # from Python: no such agent, so the board keeps the one it had
    assert ex.board.agent == "best"
    ex.board.agent = "trivial"
    assert ex.board.agent == "trivial"


def test_an_unforced_claim_comes_with_a_layout_that_refutes_it():
    """lstsq claims (2,3) a mine here; the board shows a layout that fits every clue with it safe."""
    from sweeplab.explorer import _refutation
    from sweeplab.rollouts import sample_layouts

    obs = sweeplab.Observation.from_text("????-\n*5???\n*????\n?-5??\n2?F?1\n?F?2?", mines=13)
    d = sweeplab.deduce(obs, "lstsq", proofs=True)
    assert d.mines == d.unproved == {(2, 3)}
    text = _refutation(d, (2, 3), obs, True)
    layout = sample_layouts(obs, count=1, seed=0, given={(2, 3): 0})[0]  # the layout the text describes
    grid = obs.grid
    assert not layout[2, 3] and layout.sum() == 13
    for r, c in np.argwhere(grid >= 0):  # every clue holds (brute force, no solver)
        assert layout[max(r - 1, 0): r + 2, max(c - 1, 0): c + 2].sum() == grid[r, c]
    near = (grid == sweeplab.COVERED) & (sweeplab.positions.neighbour_counts(grid >= 0) > 0)
    listed = ", ".join(f"({r},{c})" for r, c in np.argwhere(layout & near).tolist())
    assert text.startswith(f": every clue and the total hold with (2,3) safe and mines next to the numbers "
                           f"at {listed}")
    assert _refutation(d, (2, 3), obs, False) == ""
    # a claim of safety refuted: the cell, a mine there, is named once (a review: it was listed twice)
    position = sweeplab.Observation.from_text("???\n121", mines=2)
    claim = sweeplab.deduce(position, lambda obs, *, use_total=True: ({(0, 0)}, set()), proofs=True)
    assert _refutation(claim, (0, 0), position, True) == (
        ": every clue and the total hold with (0,0) a mine and other mines next to the numbers at (0,2)")
    assert _refutation(d, (2, 3), obs.with_mines(None), True) == ""  # no total: nothing to draw from


@pytest.mark.parametrize("mode", ["classic", "score"])
def test_the_layout_reaches_the_browser_only_when_the_game_is_over(mode):
    """The widget's state is visible in the browser: while a game is played it must hold no mine."""
    game = sweeplab.new_game("beginner", first_click="safe", mode=mode, seed=8)
    ex = Explorer(game, method="enumerate")
    send(ex, "click", row=4, col=4)
    assert ex.game.layout is not None and ex.board.layout == []  # mines placed, none sent
    while ex.game.status == "playing":  # open safe cells, then step on a mine once
        safe = np.argwhere((ex.game.observation.grid == sweeplab.COVERED) & ~ex.game.layout)
        mines = np.argwhere((ex.game.observation.grid == sweeplab.COVERED) & ex.game.layout)
        r, c = map(int, mines[0] if mode == "score" and len(mines) and not ex.game.mines_hit else safe[0])
        send(ex, "click", row=r, col=c)
        if ex.game.status == "playing":
            assert ex.board.layout == [], (mode, ex.game.mines_hit)
    assert sorted(map(tuple, ex.board.layout)) == sorted(map(tuple, np.argwhere(ex.game.layout).tolist()))


@pytest.mark.parametrize("mines, fixed", [(15, 14), (1, 0)])
def test_the_interior_column_is_fixed_to_its_count_of_mines(mines, fixed):
    """Total row minus the clue: the 14 interior cells hold 14 mines (or none), not "1"."""
    from sweeplab.explorer import panel_table

    table = panel_table(sweeplab.Observation.from_text("1?????\n??????\n??????", mines=mines), "rref")
    assert table["columns"][3] == {"name": "interior", "count": 14}
    assert [row["fixes"] for row in table["rows"]] == [[], [[3, fixed]]]


def test_a_message_from_an_earlier_game_is_ignored_even_on_the_new_board():
    """A click sent just before New game could land inside the new board and be played there: each
    message names the game it was sent from (board.js), and one from an earlier game is ignored."""
    ex = Explorer(level="beginner", seed=4)
    old = ex.board.game_id
    send(ex, "new")
    for event, fields in [("click", {"row": 4, "col": 4}), ("flag", {"row": 0, "col": 0}), ("apply", {}),
                          ("agent_step", {}), ("new", {})]:
        ex.board._handle_custom_msg({"event": event, "game": old, **fields}, [])
        assert ex.game.moves == [] and ex._seed == 5, event
        assert ex.board.message == (f"{event} ignored: it was sent from an earlier game's board "
                                    f"(game {old}, this is game {old + 1})")
    send(ex, "click", row=4, col=4)  # the same click from this game's board is played
    assert ex.game.moves == [("reveal", 4, 4)]


def test_actions_after_the_game_ends_say_so():
    ex = Explorer(sweeplab.new_game(shape=(3, 3), mines=8, first_click="safe", seed=1))
    ex.click(0, 0)
    assert ex.game.status == "won"
    for action, say in [(lambda: ex.click(1, 1), "reveal"), (lambda: ex.flag(1, 1), "flag"),
                        (ex.apply, "apply"), (ex.agent_step, "agent step")]:
        ex.board.message = ""
        action()
        assert ex.board.message == f"the game is won: no {say} now; New game starts the next one"
    with pytest.raises(ValueError, match="outside the 3x3 board"):  # a bad cell is still refused first
        ex.click(5, 5)


def test_apply_and_agent_step_say_a_mine_in_score_mode():
    """In score mode the game plays on after a mine: Apply (of an unsound method's claim) and Agent step
    said nothing of it, as a click does."""
    import dataclasses

    def hit_cell(ex):
        return next((r, c) for kind, r, c in reversed(ex.game.moves)
                    if kind == "reveal" and ex.game.observation.grid[r, c] == sweeplab.MINE)

    game = sweeplab.new_game(shape=(6, 6), mines=12, mode="score", first_click="zero", seed=0)
    ex = Explorer(game, agent="random")
    ex.click(2, 2)
    while not game.mines_hit:  # a random agent steps on a mine soon
        ex.agent_step()
    r, c = hit_cell(ex)
    assert game.status == "playing" and ex.board.message.endswith(f"; a mine at ({r},{c})")
    mine = tuple(map(int, np.argwhere(game.layout & (game.observation.grid == sweeplab.COVERED))[0]))
    ex.deduction = dataclasses.replace(ex.deduction, safe=frozenset({mine}), mines=frozenset())  # wrong
    assert ex.apply() == 1 and hit_cell(ex) == mine
    assert ex.board.message == f"{ex.method}: played 1 move; a mine at ({mine[0]},{mine[1]})"


def test_deductions_are_shown_once_a_cell_is_open_without_a_number():
    """A mine stepped on in score mode (or clues lost to noise) and no number yet: the board showed no
    deduction and Apply said there was none, while the total proves cells (sweeplab.deduce finds them)."""
    ex = Explorer(sweeplab.Game.from_layout(np.array([[True, False, False, False]]), mode="score"),
                  method="enumerate")
    ex.click(0, 0)  # a mine, the game plays on
    assert ex.game.status == "playing" and ex.game.observation.grid.tolist() == [[sweeplab.MINE, -1, -1, -1]]
    expected = sweeplab.deduce(ex.game.observation, "enumerate")
    assert expected.safe == {(0, 1), (0, 2), (0, 3)}
    assert ex.deduction is not None and ex.deduction.safe == expected.safe
    assert sorted(map(tuple, ex.board.safe)) == sorted(expected.safe) and set(ex.board.proofs) == {
        "0,1", "0,2", "0,3"}
    assert ex.apply() >= 1 and ex.game.status == "won"  # (0,2) is a 0: it opens (0,3)
    game = sweeplab.Game.from_layout(np.array([[True, False, False, False]]), noise=("lost", 1.0), seed=0)
    ex = Explorer(game, method="rref")
    ex.flag(0, 0)
    ex.click(0, 1)  # a lost clue: no number, but the flag is the one mine
    assert ex.game.observation.grid.tolist() == [[sweeplab.FLAG, sweeplab.NOCLUE, -1, -1]]
    assert sweeplab.deduce(ex.game.observation, "rref").safe == {(0, 2), (0, 3)}
    assert ex.deduction is not None and ex.deduction.safe == {(0, 2), (0, 3)}
    assert sorted(map(tuple, ex.board.safe)) == [(0, 2), (0, 3)]


def test_more_flags_than_mines_is_said_without_a_negative_count():
    ex = Explorer(level="beginner", seed=3)
    ex.click(0, 0)
    for r, c in np.argwhere(ex.game.observation.grid == sweeplab.COVERED)[:12].tolist():
        ex.flag(r, c)
    assert "2 more flags than mines (a wrong flag?)" in ex.board.summary
    for method in ["rref", "enumerate", "trivial", "lp", "gf2", "bounded", "subset"]:
        ex.set_method(method)
        assert not re.search(r"-\d", ex.board.summary + ex.board.message), (method, ex.board.message)
        assert "no mine layout fits" in ex.board.message, method


def test_the_agent_menu_lists_agents_registered_after_the_board(clean_registry):
    """A researcher's review: the method menu took methods registered after the board was made, the agent
    menu did not, though agent_step played the new agent and showed it as selected."""
    import dataclasses

    from sweeplab.agents import Agent

    ex = Explorer(level="beginner", seed=1)
    assert "late-agent" not in ex.board.agents

    @dataclasses.dataclass(frozen=True)
    class Late(Agent):
        pass

    sweeplab.register_agent("late-agent", Late)
    ex.new(seed=3)
    assert "late-agent" in ex.board.agents
    ex.agent_step("late-agent")
    assert ex.board.agent == "late-agent" and ex.board.agents[-1] == "late-agent"


def test_probabilities_stay_when_the_method_declines():
    """A teacher's review: with brute (which declines any expert board) the hover and the probability
    overlay went blank, though the probabilities do not depend on the method."""
    ex = Explorer(level="expert", seed=1, method="brute")
    ex.click(8, 15)
    assert "brute declines this position" in ex.board.message
    assert ex.probabilities is not None and len(ex.board.probabilities) == 16
    declined = ex.board.probabilities
    ex.set_method("enumerate")
    assert ex.board.probabilities == declined  # the same exact probabilities, whichever method


def test_a_generator_seed_gives_the_game_an_integer_seed():
    """A reviewer: ``new(seed=Generator)`` swapped the game in, then raised numpy's TypeError, and every New
    game after it raised too (SPEC §3: everything random takes a seed or a Generator)."""
    ex = Explorer(level="beginner", seed=np.random.default_rng(1))
    first = ex._seed
    same = sweeplab.new_game("beginner", first_click="zero", seed=first)
    assert isinstance(first, int) and np.array_equal(ex.game.layout, same.layout)
    ex.new(seed=np.random.default_rng(3))
    drawn = ex._seed
    assert ex.board.game_id == 1 and f"seed {drawn}" in ex.board.message
    ex._on_action("new")  # the board's New game: the next seed
    assert ex._seed == drawn + 1 and ex.board.game_id == 2
    game = ex.game
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        ex.new(seed=-1)
    assert ex.game is game and ex._seed == drawn + 1  # refused before anything changed


def test_the_matrix_panel_of_a_large_board_reads_the_sparse_matrix(monkeypatch):
    """A reviewer: on a 300x300 board the panel built the dense matrix (10.8 GiB) on every refresh, and past
    250 frontier cells it showed nothing when the first component was the large one."""
    from sweeplab.clue_system import ClueSystem
    from sweeplab.explorer import panel_table

    game = sweeplab.new_game(shape=(60, 60), density=0.12, first_click="zero", seed=0)
    game.reveal(30, 30)
    for _ in range(3):
        for r, c in sorted(sweeplab.deduce(game.observation, "trivial").safe):
            if game.observation.grid[r, c] == sweeplab.COVERED:
                game.reveal(r, c)
    system = sweeplab.clue_system(game.observation)
    assert system.n_frontier > 250
    monkeypatch.setattr(ClueSystem, "A", property(lambda self: pytest.fail("the dense matrix was built")))
    table = panel_table(game.observation, "matrix")
    assert "showing whole components that fit only" in table["note"] and table["columns"] and table["rows"]
    assert all(len(row["values"]) == len(table["columns"]) for row in table["rows"])


def test_the_teaching_tables_never_read_a_bound_as_an_equation():
    """An adversarial review: on "over" noise bound_table(rref_table(...)) fixed x0=1, x3=0, though the
    all-safe layout fits (SPEC §2: no reader takes a bound for an equality)."""
    from sweeplab.explorer import bound_table, clue_table, rref_steps, rref_table

    over = sweeplab.Observation.from_text("????\n-32-", noise="over")
    table = clue_table(over, use_total=False)
    assert "b" not in table.columns and table["hi"].tolist() == [3, 2] and table["lo"].tolist() == [0, 0]
    assert (bound_table(table)["fixes"] == "").all()  # an upper bound at the top proves nothing here
    for reader in (rref_table, rref_steps):
        with pytest.raises(ValueError, match="reads the clues as equations, but this position's are bounds"):
            reader(over, use_total=False)
    under = sweeplab.Observation.from_text("????\n-32-", noise="under")  # (1,1): 3 mines at least, of 3
    assert bound_table(clue_table(under, use_total=False))["fixes"].tolist() == ["x0=1, x1=1, x2=1", ""]
    truth = sweeplab.deduce(under, "enumerate", use_total=False)
    assert truth.mines == {(0, 0), (0, 1), (0, 2)}


def test_apply_never_plays_the_claims_of_a_method_registered_again_or_removed():
    """An adversarial review: Apply played the claims drawn for a draft registered since with a fix (and lost
    the game), or for a method no longer registered, crediting rref."""
    def draft(obs, *, use_total=True):  # every frontier cell safe: wrong
        system = sweeplab.clue_system(obs, use_total=use_total)
        return set(system.cells[:system.n_frontier]), set()

    def fixed(obs, *, use_total=True):
        return set(), set()

    sweeplab.register_method("explorer-draft", draft, sound=False, complete=False)
    try:
        ex = Explorer(level="beginner", seed=3, method="explorer-draft")
        ex.click(4, 4)
        drawn = len(ex.board.safe)
        sweeplab.register_method("explorer-draft", fixed, sound=False, complete=False, replace=True)
        assert drawn > 0 and ex.apply() == 0 and ex.game.status == "playing"
        said = "was registered again with other code since its claims were drawn: nothing played"
        assert said in ex.board.message
        assert ex.board.safe == []  # the fixed method's claims, drawn now
        # the same definition registered again (its cell run twice) is the same method: played
        sweeplab.register_method("explorer-draft", fixed, sound=False, complete=False, replace=True)
        assert ex.apply() == 0 and "nothing played" not in ex.board.message
        sweeplab.register_method("explorer-draft", draft, sound=False, complete=False, replace=True)
        ex.refresh()
        sweeplab.unregister_method("explorer-draft")
        assert ex.apply() == 0 and ex.game.status == "playing" and ex.method == "rref"
        assert "'explorer-draft' is registered no more: nothing played" in ex.board.message
        assert ex.apply() > 0  # rref's claims, drawn now
    finally:
        if "explorer-draft" in sweeplab.METHODS:
            sweeplab.unregister_method("explorer-draft")


def test_the_status_line_gives_the_score_hides_counts_with_the_deductions_and_blames_no_option():
    """An adversarial review: a score-mode game read "won" after three mines were stepped on and showed no
    score; with deductions cleared the status line still gave the method's counts; a method option without
    a default was called a bug in the method."""
    ex = Explorer(sweeplab.new_game("beginner", first_click="zero", seed=4, mode="score"), method="enumerate")
    ex.click(4, 4)
    for r, c in np.argwhere(ex.game.layout)[:3]:
        ex.click(int(r), int(c))
    assert "3 stepped on, score 0.70" in ex.board.summary
    assert ": " in ex.board.summary.split(" · ")[-1]  # the method's counts
    ex.board.show_marks = False
    assert "safe" not in ex.board.summary and "enumerate (sound, complete)" in ex.board.summary

    def needs_k(obs, *, use_total=True, k):
        return set(), set()

    sweeplab.register_method("explorer-needs-k", needs_k, sound=True, complete=False)
    try:
        ex.set_method("explorer-needs-k")
        assert "needs the option 'k'" in ex.board.message and "a bug" not in ex.board.message
    finally:
        sweeplab.unregister_method("explorer-needs-k")


def test_bound_table_of_a_position_with_no_equation_is_an_empty_table():
    """An adversarial review: no rows gave pandas' raw KeyError."""
    from sweeplab.explorer import bound_table, clue_table

    table = bound_table(clue_table(sweeplab.Observation.from_text("??\n??"), use_total=False))
    assert table.empty and table.columns.tolist() == ["low", "high", "b", "fixes"]
