"""Layouts sampled from a position, and moves played out on them (sweeplab.rollouts)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from sweeplab import InconsistentPositionError, Observation
from sweeplab.agents.best_v1 import endgame_choice, endgame_layouts
from sweeplab.game import new_game
from sweeplab.positions import COVERED, FLAG, MINE, neighbour_counts
from sweeplab.rollouts import move_win_rates, sample_layouts
from sweeplab.testing import random_positions


def _listed(obs, most=60):
    """Every layout of ``obs`` as a full boolean grid, or ``None`` past ``most``."""
    listed = endgame_layouts(obs, max_cells=36, max_layouts=most)
    if listed is None:
        return None
    cells, rows = listed
    known = np.isin(obs.grid, (FLAG, MINE))
    out = np.repeat(known[None], rows.shape[0], axis=0)
    for j, (r, c) in enumerate(cells):
        out[:, r, c] = rows[:, j]
    return out


def _fits(obs, layout):
    shown = obs.grid >= 0
    return (not (layout & (obs.grid >= 0)).any()
            and np.array_equal(neighbour_counts(layout)[shown], obs.grid[shown])
            and int(layout.sum()) == obs.mines)


def test_samples_are_uniform_over_the_layouts_that_fit():
    """On small adversarial positions (flags, shown mines, lost clues), every layout as often as any other."""
    checked = 0
    for obs in random_positions(400, seed=3, noise=False, arbitrary=0.0):
        if obs.mines is None:
            continue
        every = _listed(obs)
        if every is None or not 3 <= len(every) <= 60:
            continue
        draws = sample_layouts(obs, count=30 * len(every), seed=checked)
        assert all(_fits(obs, d) for d in draws)
        index = {e.tobytes(): k for k, e in enumerate(every)}
        counts = np.bincount([index[d.tobytes()] for d in draws], minlength=len(every))
        assert stats.chisquare(counts).pvalue > 1e-4, (obs.to_text(), counts)
        checked += 1
        if checked == 12:
            break
    assert checked == 12


def test_samples_weigh_the_frontier_by_the_cells_no_number_touches():
    """Positions with cells out of every clue's reach: the total, not the clues, weighs the frontier."""
    checked = 0
    for seed in range(200):
        game = new_game(shape=(5, 5), mines=7, first_click="safe", seed=seed)
        rng = np.random.default_rng(seed)
        game.reveal(0, 0)
        every = None
        while game.status == "playing":
            every = _listed(game.observation)
            if every is not None:
                break
            safe = np.argwhere((game.observation.grid == COVERED) & ~game.layout)
            game.reveal(*safe[rng.integers(len(safe))])
        obs = game.observation
        interior = (obs.grid == COVERED) & (neighbour_counts(obs.grid >= 0) == 0)
        if every is None or len(every) < 3 or interior.sum() < 2:
            continue
        if len({int(e[~interior].sum()) for e in every}) < 2:
            continue  # every frontier solution holds as many mines: the total weighs them alike
        draws = sample_layouts(obs, count=30 * len(every), seed=seed)
        index = {e.tobytes(): k for k, e in enumerate(every)}
        counts = np.bincount([index[d.tobytes()] for d in draws], minlength=len(every))
        assert stats.chisquare(counts).pvalue > 1e-4, (obs.to_text(), counts)
        checked += 1
        if checked == 6:
            break
    assert checked == 6


def test_samples_of_an_opening_fit_and_follow_the_exact_probabilities():
    game = new_game("intermediate", first_click="safe", seed=5)
    game.reveal(0, 0)
    obs = game.observation
    draws = sample_layouts(obs, count=400, seed=1)
    assert all(_fits(obs, d) for d in draws)
    from sweeplab import probabilities
    p = probabilities(obs)
    covered = obs.grid == COVERED
    # the mean of 400 draws within 5 standard errors of the exact probability, cell by cell
    se = np.sqrt(p * (1 - p) / 400) + 1e-9
    assert (np.abs(draws.mean(axis=0) - p)[covered] <= 5 * se[covered] + 1e-12).all()


def test_sampling_is_a_function_of_the_seed_and_checks_its_input():
    obs = Observation.from_text("1??\n???", mines=2)
    first = sample_layouts(obs, count=20, seed=4)
    np.testing.assert_array_equal(first, sample_layouts(obs, count=20, seed=4))
    assert not np.array_equal(first, sample_layouts(obs, count=20, seed=5))
    assert sample_layouts(obs, count=0, seed=4).shape == (0, 2, 3)
    with pytest.raises(ValueError, match="total number of mines"):
        sample_layouts(obs.with_mines(None), count=1)
    with pytest.raises(ValueError, match="exact clues"):
        sample_layouts(Observation.from_text("1??\n???", mines=2, noise="under"), count=1)
    with pytest.raises(ValueError, match="count"):
        sample_layouts(obs, count=-1)
    with pytest.raises(InconsistentPositionError):
        sample_layouts(Observation.from_text("3??\n???", mines=2), count=1)


def test_a_coin_flip_wins_on_exactly_one_side():
    obs = Observation.from_text("??\n11\n..", mines=1)
    table = move_win_rates(obs, samples=60, seed=2)  # default moves: the safest cells, both
    assert sorted(table["cell"]) == [(0, 0), (0, 1)]
    assert table["wins"].sum() == 60 and (table["games"] == 60).all()
    assert (table["mine_probability"] == 0.5).all()
    lo, hi = table.loc[0, ["win_low", "win_high"]]
    assert lo <= table.loc[0, "win_rate"] <= hi


def test_win_rates_estimate_the_exact_endgame_value():
    """Small endgames: the rollout win rate of the best reveal against the exhaustive search's value."""
    compared = 0
    for seed in range(40):
        game = new_game(shape=(4, 5), mines=5, first_click="safe", seed=seed)
        game.reveal(0, 0)
        obs = game.observation
        if game.status != "playing":
            continue
        listed = endgame_layouts(obs, max_cells=20, max_layouts=200)
        if listed is None:
            continue
        choice = endgame_choice(obs, listed[1], listed[0], budget=200_000, prune=True)
        if choice is None or not 0.05 < choice[1] < 0.95:
            continue
        cell, value = choice
        table = move_win_rates(obs, [cell], samples=400, seed=seed)
        rate, safe = table.loc[0, "win_rate"], 1 - table.loc[0, "mine_probability"]
        se = np.sqrt(value * (1 - value) / 400)
        # best searches the same endgame after the move (zero openings, which the search leaves out,
        # only help), and no play wins more often than the move is safe
        assert value - 4 * se <= rate <= safe + 4 * se, (seed, cell, value, rate)
        compared += 1
        if compared == 4:
            break
    assert compared == 4


def test_moves_are_checked():
    obs = Observation.from_text("??\n11\n..", mines=1)
    with pytest.raises(ValueError, match="not a covered cell"):
        move_win_rates(obs, [(1, 0)], samples=2)
    with pytest.raises(ValueError, match="NOCLUE or MINE"):
        move_win_rates(Observation.from_text("??\n1-\n..", mines=1), samples=2)
