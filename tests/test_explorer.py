"""The explorer widget and its tables: clicks, flags, methods, agent steps, matrix views."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy

pytest.importorskip("ipywidgets")

import sweeplab  # noqa: E402
from sweeplab.examples import EXAMPLES  # noqa: E402
from sweeplab.explorer import Explorer, bound_table, clue_table, rref_steps, rref_table  # noqa: E402


@pytest.fixture
def explorer() -> Explorer:
    ex = Explorer(level="beginner", seed=5, method="trivial")
    ex.click(4, 4)
    return ex


def test_button_click_reveals_and_disables(explorer: Explorer):
    grid = explorer.game.observation.grid
    r, c = map(int, np.argwhere(grid == sweeplab.COVERED)[0])
    before = int((grid == sweeplab.COVERED).sum())
    explorer.buttons[r][c].click()
    after = explorer.game.observation.grid
    assert int((after == sweeplab.COVERED).sum()) < before or explorer.game.status == "lost"
    if explorer.game.status != "lost":
        assert explorer.buttons[r][c].disabled


def test_flag_mode_flags_and_unflags(explorer: Explorer):
    r, c = map(int, np.argwhere(explorer.game.observation.grid == sweeplab.COVERED)[0])
    explorer.flag_mode.value = True
    explorer.buttons[r][c].click()
    assert explorer.game.observation.grid[r, c] == sweeplab.FLAG
    assert explorer.buttons[r][c].description == "F"
    explorer.buttons[r][c].click()
    assert explorer.game.observation.grid[r, c] == sweeplab.COVERED


@pytest.mark.parametrize("method", ["trivial", "bounded", "enumerate"])
def test_overlay_shows_sound_deductions(method: str):
    ex = Explorer(sweeplab.new_game(shape=(10, 10), mines=14, first_click="zero", seed=2), method=method)
    ex.click(5, 5)
    layout = ex.game.layout
    d = ex.deduction
    assert d is not None and d.method == method
    assert all(not layout[cell] for cell in d.safe) and all(layout[cell] for cell in d.mines)
    for r, c in d.safe:
        assert ex.buttons[r][c].button_style == "success"
    for r, c in d.mines:
        assert ex.buttons[r][c].button_style == "danger"
    assert "<svg" in ex.figure.value


def test_method_dropdown_and_apply_never_lose():
    ex = Explorer(sweeplab.new_game(shape=(8, 8), mines=8, first_click="zero", seed=11), method="trivial")
    ex.click(4, 4)
    ex.method_box.value = "enumerate"
    assert ex.method == "enumerate" and ex.deduction.method == "enumerate"
    for _ in range(50):
        if not ex.apply():
            break
    assert ex.game.status in ("playing", "won")
    assert ex.game.mines_hit == 0


def test_probabilities_overlay_in_tooltips(explorer: Explorer):
    explorer.show_probabilities.value = True
    assert explorer.probabilities is not None
    tips = [b.tooltip for row in explorer.buttons for b in row if not b.disabled]
    assert any("P(mine)=" in t for t in tips)


def test_agent_steps_play_to_the_end():
    ex = Explorer(sweeplab.new_game(shape=(5, 6), mines=4, seed=3), seed=3)
    ex.agent_box.value = "trivial"
    for _ in range(100):
        if ex.game.status != "playing":
            break
        assert ex.agent_step()
    assert ex.game.status in ("won", "lost")
    assert ex.agent_step() == []


def test_matrix_tabs_show_the_clue_system(explorer: Explorer):
    assert explorer.matrix.value == ""  # computed only when its tab opens
    explorer.tabs.selected_index = 1
    system = sweeplab.clue_system(explorer.game.observation)
    if system.n_variables <= 60:
        assert "<table" in explorer.matrix.value and "<table" in explorer.rref.value
        assert "x0 (" in explorer.matrix.value and "rank" in explorer.rref.value
    explorer.new(seed=8)
    assert explorer.game.status == "playing" and explorer.deduction is None


def test_unknown_method_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown method"):
        Explorer(level="beginner", method="nope")


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
