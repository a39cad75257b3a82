"""Layouts sampled from a position, and moves played out on them (sweeplab.rollouts)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from sweeplab import InconsistentPositionError, Observation
from sweeplab.agents.best_v1 import endgame_choice, endgame_layouts
from sweeplab.game import new_game
from sweeplab.positions import COVERED, FLAG, MINE, neighbour_counts
from sweeplab.rollouts import move_win_rates, sample_layouts
from sweeplab.testing import random_positions


def _every_layout(obs, most=60):
    """Every layout that fits, by brute force over the covered cells (no solver of the library), as
    full boolean grids; ``None`` for more than ``most`` layouts or too many cells to try."""
    grid = obs.grid
    known = np.isin(grid, (FLAG, MINE))
    cov = np.argwhere(grid == COVERED)
    k = obs.mines - int(known.sum())
    if not 0 <= k <= len(cov) or math.comb(len(cov), k) > 300_000:
        return None
    combos = np.array(list(itertools.combinations(range(len(cov)), k)), dtype=np.int64)
    combos = combos.reshape(math.comb(len(cov), k), k)
    pick = np.zeros((len(combos), len(cov)), dtype=bool)
    pick[np.arange(len(combos))[:, None], combos] = True
    shown = np.argwhere(grid >= 0)
    near = (np.abs(shown[:, None, :] - cov[None, :, :]) <= 1).all(axis=2)  # shown cell x covered cell
    need = grid[grid >= 0] - neighbour_counts(known)[grid >= 0]
    rows = pick[(pick.astype(np.int64) @ near.T.astype(np.int64) == need).all(axis=1)]
    if len(rows) > most:
        return None
    out = np.repeat(known[None], len(rows), axis=0)
    out[:, cov[:, 0], cov[:, 1]] = rows
    return out


def _fits(obs, layout):
    shown = obs.grid >= 0
    return (not (layout & (obs.grid >= 0)).any()
            and np.array_equal(neighbour_counts(layout)[shown], obs.grid[shown])
            and int(layout.sum()) == obs.mines)


def _assert_uniform(obs, every, *, seed, given=None):
    """30 draws per layout of ``obs`` (with the ``given`` cell values) fit it, have those values, and hit
    every layout of ``every`` alike (chi-square)."""
    draws = sample_layouts(obs, count=30 * len(every), seed=seed, given=given)
    assert all(_fits(obs, d) and all(d[c] == v for c, v in (given or {}).items()) for d in draws)
    index = {e.tobytes(): k for k, e in enumerate(every)}
    counts = np.bincount([index[d.tobytes()] for d in draws], minlength=len(every))
    assert len(every) == 1 or stats.chisquare(counts).pvalue > 1e-4, (obs.to_text(), given, counts)


def test_samples_are_uniform_over_the_layouts_that_fit():
    """On small adversarial positions (flags, shown mines, lost clues), every layout as often as any other."""
    checked = 0
    for obs in random_positions(400, seed=3, noise=False, arbitrary=0.0):
        if obs.mines is None:
            continue
        every = _every_layout(obs)
        if every is None or not 3 <= len(every) <= 60:
            continue
        _assert_uniform(obs, every, seed=checked)
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
            every = _every_layout(game.observation)
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
        _assert_uniform(obs, every, seed=seed)
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
    np.testing.assert_array_equal(first, sample_layouts("1??\n???", mines=2, count=20, seed=4))  # text
    assert sample_layouts(obs, count=0, seed=4).shape == (0, 2, 3)
    with pytest.raises(ValueError, match="total number of mines: pass mines=N"):
        sample_layouts("1??\n???", count=1)
    with pytest.raises(ValueError, match="exact clues"):
        sample_layouts(Observation.from_text("1??\n???", mines=2, noise="under"), count=1)
    for bad in (-1, 2.5, None, True):
        with pytest.raises(ValueError, match="count must be a non-negative integer"):
            sample_layouts(obs, count=bad)
    for bad in (-1, "x", 1.5, True):  # as play and new_game say it, never numpy's TypeError
        with pytest.raises(ValueError, match=r"seed must be a non-negative integer .*, got "):
            sample_layouts(obs, count=1, seed=bad)
    for count in (0, 1):  # an impossible position, even when nothing is drawn
        with pytest.raises(InconsistentPositionError):
            sample_layouts(Observation.from_text("3??\n???", mines=2), count=count)


def test_lost_clues_say_nothing_to_the_sampler():
    lost = Observation.from_text("1-?\n???", mines=1, noise="lost")
    draws = sample_layouts(lost, count=2000, seed=0)
    # (0, 1) is revealed without its number: the 1 puts the only mine on (1, 0) or (1, 1)
    np.testing.assert_allclose(draws.mean(axis=0), [[0, 0, 0], [0.5, 0.5, 0]], atol=0.04)


def test_a_coin_flip_wins_on_exactly_one_side():
    obs = Observation.from_text("??\n11\n..", mines=1)
    table = move_win_rates(obs, samples=60, seed=2)  # default moves: the safest cells, both
    assert sorted(table["cell"]) == [(0, 0), (0, 1)]
    assert table["wins"].sum() == 60 and (table["games"] == 60).all()
    assert (table["mine_probability"] == 0.5).all()


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


def test_flags_and_shown_mines_are_mines_in_the_replayed_game():
    """Beside a flag (or a shown mine) holding the only mine, every covered cell is safe: every move wins."""
    for text in ("F?\n??", "*?\n??"):
        table = move_win_rates(text, [(1, 1), (0, 1)], mines=1, samples=20, seed=0)
        assert (table["mine_probability"] == 0).all() and (table["wins"] == 20).all(), text


@pytest.mark.parametrize("text", ["?1\n11", "1?"])
def test_a_position_with_every_safe_cell_shown_has_no_move_to_rate(text):
    """The game is over (won): clicking the certain mine left is no move, and must not rate as a win."""
    with pytest.raises(ValueError, match="every safe cell of the position is open"):
        move_win_rates(text, mines=1, samples=5)


def test_a_move_on_a_certain_mine_loses():
    table = move_win_rates("1??", [(0, 1), (0, 2)], mines=1, samples=5).set_index("cell")
    assert table.loc[[(0, 1)], "wins"].tolist() == [0] and table.loc[[(0, 2)], "wins"].tolist() == [5]


def test_a_shown_zero_opens_its_neighbours_as_in_a_game():
    """Cells beside a shown 0 are safe in every layout: the replay opens them, so moving there is no move."""
    obs = Observation.from_text(".??\n???\n???", mines=2)
    table = move_win_rates(obs, [(0, 1), (1, 0), (2, 2)], samples=40, seed=3).set_index("cell")
    assert table.loc[[(0, 1), (1, 0)], "mine_probability"].tolist() == [0, 0]
    assert table.loc[[(0, 1)], "wins"].item() == table.loc[[(1, 0)], "wins"].item()  # the same 40 games
    assert table.loc[[(2, 2)], "mine_probability"].item() > 0


def test_moves_are_checked():
    obs = Observation.from_text("??\n11\n..", mines=1)
    with pytest.raises(ValueError, match="not a covered cell"):
        move_win_rates(obs, [(1, 0)], samples=2)
    with pytest.raises(ValueError, match="NOCLUE"):
        move_win_rates(Observation.from_text("??\n1-\n..", mines=1), samples=2)
    with pytest.raises(ValueError, match="no move to compare"):
        move_win_rates(obs, [], samples=2)
    with pytest.raises(ValueError, match="repeats a cell"):
        move_win_rates(obs, [(0, 0), (0, 0)], samples=2)
    for bad in ((0, 0), [0], [(0.7, 0)], ["ab"]):
        with pytest.raises(ValueError, match="pair of integers"):
            move_win_rates(obs, bad, samples=2)
    with pytest.raises(ValueError, match="samples must be a non-negative integer"):
        move_win_rates(obs, samples=2.5)
    with pytest.raises(ValueError, match=r"samples must be at least 1 \(the layouts each move"):
        move_win_rates(obs, samples=0)  # was a table of NaN win rates (an adversarial review)
    for seed in (-1, None):
        with pytest.raises(ValueError, match="seed must be a non-negative integer"):
            move_win_rates(obs, samples=2, seed=seed)
    with pytest.raises(ValueError, match="move_win_rates needs the total"):
        move_win_rates("??\n11\n..", samples=2)


def test_win_rates_do_not_depend_on_the_number_of_workers():
    for seed in range(20):  # a corner that shows a number: the next guess is blind
        game = new_game("beginner", first_click="safe", seed=seed)
        game.reveal(0, 0)
        if game.observation.grid[0, 0] > 0:
            break
    obs = game.observation
    one = move_win_rates(obs, [(0, 2), (2, 2), (8, 8)], samples=24, seed=5)
    two = move_win_rates(obs, [(0, 2), (2, 2), (8, 8)], samples=24, seed=5, workers=2)
    assert len(one) > 1 and one["wins"].between(1, 23).any()  # not a trivial table
    pd.testing.assert_frame_equal(one, two)


@pytest.mark.parametrize("text, mines", [(".??", 1), (".?", 0), (".?F", 1), (".?1F", 1), ("F?.", 1)])
def test_a_position_the_shown_zeros_finish_is_won_by_every_safe_move(text, mines):
    """Replaying the shown zeros opens every safe cell: the game is won before the move, or part-way
    through replaying the shown cells, before the flags (both raised)."""
    table = move_win_rates(text, mines=mines, samples=10, seed=1).set_index("cell")
    assert table.loc[[(0, 1)], "mine_probability"].tolist() == [0]
    assert table.loc[[(0, 1)], "wins"].tolist() == [10]


@pytest.mark.parametrize("agent", [5, ["best"]])
def test_an_agent_that_is_no_name_is_refused_with_the_choices(agent):
    with pytest.raises(ValueError, match="agent must be a name .*or an Agent, got"):
        move_win_rates("???\n121", agent=agent, samples=2, mines=2)


def test_a_total_given_twice_must_agree():
    obs = Observation.from_text("1??\n???", mines=1)
    with pytest.raises(ValueError, match="the position's total is 1, and mines=2 says otherwise"):
        sample_layouts(obs, mines=2, count=1)  # it silently drew layouts of 2 mines
    assert sample_layouts(obs, mines=1, count=2, seed=0).sum(axis=(1, 2)).tolist() == [1, 1]


def test_given_cells_draw_uniformly_from_the_layouts_that_have_them():
    """``given`` conditions the draw: every layout that fits and has the given values, alike; a cell
    the position forces the other way has none (a claim it refutes cannot be refuted)."""
    checked = 0
    for obs in random_positions(400, seed=5, noise=False, arbitrary=0.0):
        if obs.mines is None:
            continue
        every = _every_layout(obs)
        if every is None or not 4 <= len(every) <= 60:
            continue
        covered = [tuple(map(int, c)) for c in np.argwhere(obs.grid == COVERED)]
        cell = next((c for c in covered if 0 < sum(e[c] for e in every) < len(every)), None)
        if cell is None:
            continue
        for value in (0, 1):
            _assert_uniform(obs, [e for e in every if e[cell] == value], seed=checked, given={cell: value})
        forced = next((c for c in covered if len({bool(e[c]) for e in every}) == 1), None)
        if forced is not None:
            with pytest.raises(InconsistentPositionError):
                sample_layouts(obs, count=1, seed=0, given={forced: int(not every[0][forced])})
        checked += 1
        if checked == 10:
            break
    assert checked == 10


@pytest.mark.parametrize("given, match", [
    ({(5, 5): 1}, r"\(5, 5\) is not a cell of this 2x3 board"),
    ({(1, 1): 1}, r"\(1, 1\) is not a covered cell"),
    ({(0, 0): 2}, "must be 0 .safe. or 1 .a mine., got 2"),
    ({(0, 0): True}, "must be 0 .safe. or 1 .a mine., got True"),
    ({"00": 1}, "'00' is not a cell"),
    ([(0, 0), 1], r"given must be a dict of cells .* got list \[\(0, 0\), 1\]"),
    ([(i, 0, 1) for i in range(2000)], r"given must be a dict of cells .* got list \[\(0, 0, 1\), .*\]$"),
])
def test_given_cells_are_checked(given, match):
    with pytest.raises(ValueError, match=match):
        sample_layouts(Observation.from_text("???\n121", mines=2), count=1, given=given)


def test_the_finishing_agent_is_set_up_for_the_games_rules(monkeypatch):
    """An adversarial review: best finished every game as if the first click were unprotected and the total
    unknown, so without the coin-flip credit it plays on an expert zero start."""
    import sweeplab.rollouts as rollouts

    seen = []
    real = rollouts.run_tasks

    def recording(function, tasks, **kwargs):
        seen.extend(task["agent"] for task in tasks)
        return real(function, tasks, **kwargs)

    monkeypatch.setattr(rollouts, "run_tasks", recording)
    grid = np.full((16, 30), COVERED, dtype=np.int8)
    grid[0, 0] = 1  # a 1 in the corner of an expert board
    position = Observation(grid, mines=99)
    for first_click, credit in (("zero", 0.9), ("safe", 0.0), ("none", 0.0)):
        seen.clear()
        rollouts.move_win_rates(position, [(0, 1)], samples=1, first_click=first_click)
        assert {agent.coin_flip_credit for agent in seen} == {credit}
    with pytest.raises(ValueError, match="first_click must be one of none, safe, zero, got 'zeros'"):
        rollouts.move_win_rates(position, [(0, 1)], samples=1, first_click="zeros")


def test_more_layouts_than_one_call_draws_are_refused_at_once():
    """A reviewer: ``samples=10**9`` built its tasks until memory ran out; ``count=10**7`` ran for an hour."""
    from sweeplab.rollouts import MAX_LAYOUTS, move_win_rates, sample_layouts

    with pytest.raises(ValueError, match=r"samples=1,000,001 layouts is more than one call draws"):
        move_win_rates("1??\n???", mines=1, samples=MAX_LAYOUTS + 1)
    with pytest.raises(ValueError, match=r"count=10,000,000 layouts is more than one call draws"):
        sample_layouts("1??\n???", mines=1, count=10**7)
