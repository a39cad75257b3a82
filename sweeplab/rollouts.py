"""What the hidden layout may be, and how often a move wins on it.

:func:`sample_layouts` draws mine layouts uniformly from those consistent
with a position (its clues, flags and total): the frontier cells one at a
time, each from its exact mine probability given the cells already drawn
(:func:`~sweeplab.probability.probabilities`), then the remaining mines
uniformly over the cells no number touches, which only the total ties
together.  The product of those conditional probabilities is the uniform
distribution, so the draws are exact, not a Markov chain.

:func:`move_win_rates` plays each candidate move on the same sampled
layouts, an agent finishing every game: an estimate of the chance each move
wins from the position, with the same layouts and agent seeds for every
move (common random numbers), so that moves are compared on equal terms.
Issue 13 used it to compare the strongest published solver's opening guesses
with ``best``'s (``best``'s docstring, fifth round).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from .agents import make_agent
from .agents.base import Agent, frontier_mask
from .errors import InconsistentPositionError
from .game import Game
from .positions import COVERED, FLAG, MINE, NOCLUE, Observation, as_observation
from .probability import probabilities
from .referee import referee
from .stats import wilson_interval

__all__ = ["move_win_rates", "sample_layouts"]

Cell = tuple[int, int]


def sample_layouts(obs, *, count: int, seed: int | np.random.Generator | None = None) -> np.ndarray:
    """Mine layouts drawn uniformly from those consistent with the position.

    Parameters
    ----------
    obs : Observation (or its text)
        The position; its total number of mines must be known and its clues exact.
    count : int
        How many layouts to draw (independently).
    seed : int or numpy.random.Generator, optional
        The draws are a function of the seed.

    Returns
    -------
    numpy.ndarray of bool, shape ``(count, rows, cols)``
        ``True`` on mines; flags and shown mines are mines in every layout.

    Raises
    ------
    InconsistentPositionError
        When no layout fits.

    Examples
    --------
    >>> obs = Observation.from_text("1??\\n???", mines=1)
    >>> layouts = sample_layouts(obs, count=3000, seed=0)
    >>> layouts.shape, bool(layouts.sum(axis=(1, 2)).min() == 1)  # one mine each
    ((3000, 2, 3), True)
    >>> np.round(layouts.mean(axis=0), 1).tolist()  # one of 3 cells by the 1: 1/3 each
    [[0.0, 0.3, 0.0], [0.3, 0.3, 0.0]]
    """
    obs = as_observation(obs)
    if obs.mines is None:
        raise ValueError("sample_layouts needs the total number of mines: give Observation(..., mines=N)")
    if obs.noise is not None:
        raise ValueError(f"sample_layouts needs exact clues, got noise={obs.noise!r}")
    if int(count) < 0:
        raise ValueError(f"count must be a non-negative integer, got {count!r}")
    rng = np.random.default_rng(seed)
    return np.stack([_one_layout(obs, rng) for _ in range(int(count))]) if count else \
        np.zeros((0, *obs.shape), dtype=bool)


def _one_layout(obs: Observation, rng: np.random.Generator) -> np.ndarray:
    assert obs.mines is not None  # checked by the caller
    grid = obs.grid.copy()
    front = frontier_mask(grid)
    while True:
        # safe cells drawn so far become revealed cells without a number: safe, and no clue
        p = probabilities(Observation._trusted(grid.copy(), obs.mines), time_limit=None)
        open_ = front & (grid == COVERED)
        grid[open_ & (p <= 0.0)] = NOCLUE
        grid[open_ & (p >= 1.0)] = FLAG
        left = np.flatnonzero(front & (grid == COVERED))
        if left.size == 0:
            break
        i = int(left[0])
        grid.flat[i] = FLAG if rng.random() < p.flat[i] else NOCLUE
    layout = (grid == FLAG) | (grid == MINE)
    rest = np.flatnonzero(grid.ravel() == COVERED)  # no number touches them: exchangeable
    need = obs.mines - int(np.count_nonzero(layout))
    if not 0 <= need <= rest.size:  # probabilities() has checked consistency already
        raise InconsistentPositionError(f"{need} mines left for {rest.size} cells")
    layout.flat[rng.choice(rest, need, replace=False)] = True
    return layout


def move_win_rates(obs, cells: Iterable[Cell] | None = None, *, agent: str | Agent = "best",
                   samples: int = 100, seed: int = 0, confidence: float = 0.95,
                   progress: bool = False) -> pd.DataFrame:
    """How often each move wins from a position, played out on sampled layouts.

    Each of ``samples`` layouts (:func:`sample_layouts`) is played once per
    move: the move is revealed, then ``agent`` plays to the end.  Every move
    sees the same layouts and the same agent seeds.

    Parameters
    ----------
    obs : Observation (or its text)
        The position (total known, exact clues, every revealed cell a number).
    cells : iterable of (row, col), optional
        The moves to compare (covered cells); by default the safest covered cells.
    agent : str or Agent, default "best"
        Who finishes the games (see :data:`sweeplab.AGENTS`).
    samples : int, default 100
    seed : int, default 0
        Layouts and agent choices are a function of it.
    confidence : float, default 0.95
        Of the Wilson interval of each win rate.
    progress : bool, default False
        A progress bar over the layouts.

    Returns
    -------
    pandas.DataFrame
        One row per move, most wins first: ``cell``, ``mine_probability``
        (exact), ``wins``, ``games``, ``win_rate``, ``win_low``, ``win_high``.

    Examples
    --------
    >>> obs = Observation.from_text("??\\n11\\n..", mines=1)  # a coin flip: one of the two wins
    >>> table = move_win_rates(obs, [(0, 0), (0, 1)], samples=50, seed=1)
    >>> int(table["wins"].sum()), table["games"].tolist()
    (50, [50, 50])
    """
    obs = as_observation(obs)
    if np.isin(obs.grid, (NOCLUE, MINE)).any():
        raise ValueError("move_win_rates replays the position as a game, which shows every revealed cell's "
                         "number and ends on a shown mine: give a position without NOCLUE or MINE cells")
    p = probabilities(obs, time_limit=None)
    covered = obs.grid == COVERED
    if cells is None:
        low = p[covered].min() if covered.any() else 0.0
        moves = [(int(r), int(c)) for r, c in np.argwhere(covered & (p <= low + 1e-12))]
    else:
        moves = [(int(r), int(c)) for r, c in cells]
    for cell in moves:
        r, c = cell
        if not (0 <= r < obs.shape[0] and 0 <= c < obs.shape[1]) or not covered[r, c]:
            h, w = obs.shape
            raise ValueError(f"move {cell} is not a covered cell of the {h}x{w} position")
    if not moves:
        raise ValueError("no move to compare: the position has no covered cell")
    player = make_agent(agent) if isinstance(agent, str) else agent
    player = player.for_rules(first_click="none", shape=obs.shape)
    layouts = sample_layouts(obs, count=samples, seed=np.random.default_rng([seed, 0]))
    shown = np.argwhere(obs.grid >= 0)
    wins = np.zeros(len(moves), dtype=np.int64)
    rows = range(len(layouts))
    if progress:
        from tqdm.auto import tqdm
        rows = tqdm(rows, desc="layouts", unit="layout")
    for s in rows:
        for j, cell in enumerate(moves):
            wins[j] += _plays_out(layouts[s], shown, cell, player, np.random.default_rng([seed, 1, s]))
    n = len(layouts)
    out = []
    for cell, k in zip(moves, wins.tolist(), strict=True):
        lo, hi = wilson_interval(k, n, confidence=confidence)
        out.append({"cell": cell, "mine_probability": float(p[cell]), "wins": k, "games": n,
                    "win_rate": k / n if n else np.nan, "win_low": lo, "win_high": hi})
    return pd.DataFrame(out).sort_values("wins", ascending=False, kind="stable").reset_index(drop=True)


def _plays_out(layout: np.ndarray, shown: np.ndarray, cell: Cell, agent: Agent,
               rng: np.random.Generator) -> bool:
    """Reveal what the position shows, then ``cell``, then let ``agent`` finish: won?"""
    game = Game.from_layout(layout)
    for r, c in shown:
        game.reveal(int(r), int(c))
    game.reveal(*cell)
    if game.status == "playing":
        for _ in referee(agent, game, rng):
            pass
    return game.status == "won" and game.mines_hit == 0
