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

import contextlib
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from .agents import make_agent
from .agents.base import Agent, frontier_mask
from .errors import InconsistentPositionError, mines_text
from .executor import check_count, root_seed, run_tasks, split_range
from .game import Game, as_generator, check_rules
from .positions import COVERED, FLAG, MINE, NOCLUE, Observation, as_observation, cell_pair, short_repr
from .probability import probabilities
from .referee import referee
from .simulate import agent_generator
from .stats import wilson_interval

__all__ = ["move_win_rates", "sample_layouts"]

Cell = tuple[int, int]
#: Layouts per task of :func:`move_win_rates` (any size gives the same result).
_CHUNK = 10
#: Most layouts one call draws (:func:`sample_layouts`) or plays (:func:`move_win_rates`): a slip such as
#: ``--win-rates 1000000000`` planned its tasks until memory ran out (19 GB in two minutes).
MAX_LAYOUTS = 1_000_000


def _check_layouts(name: str, value: Any) -> int:
    """``value`` as a count of layouts, at most :data:`MAX_LAYOUTS`, or a ``ValueError`` naming it."""
    n = check_count(name, value)
    if n > MAX_LAYOUTS:
        raise ValueError(f"{name}={n:,} layouts is more than one call draws ({MAX_LAYOUTS:,}); give fewer "
                         f"(more calls on other seeds add more)")
    return n


def sample_layouts(obs, *, count: int, seed: int | np.random.Generator | None = None,
                   mines: int | None = None, given: Mapping[Cell, int] | Iterable | None = None
                   ) -> np.ndarray:
    """Mine layouts drawn uniformly from those consistent with the position.

    Parameters
    ----------
    obs : Observation, its text or its code array
        The position; its total number of mines must be known and its clues
        exact (lost clues, ``noise="lost"``, are fine: they say nothing).
    count : int
        How many layouts to draw (independently), at most :data:`MAX_LAYOUTS`.
    seed : int or numpy.random.Generator, optional
        The draws are a function of the seed.
    mines : int, optional
        The total, for a position given without one (text, codes).
    given : dict of (row, col) to 0 or 1, optional
        (Or pairs ``(cell, value)``.)  Covered cells whose value every layout must have: the layouts are
        drawn uniformly from those with them.  A layout with a claimed cell
        the other way refutes the claim (``given={cell: 1}`` for a cell
        claimed safe).

    Returns
    -------
    numpy.ndarray of bool, shape ``(count, rows, cols)``
        ``True`` on mines; flags and shown mines are mines in every layout.

    Raises
    ------
    InconsistentPositionError
        When no layout fits (with ``given``: when the position forces one
        of those cells the other way).
    MethodRefused
        Past exact enumeration's size caps.

    Examples
    --------
    >>> layouts = sample_layouts("1??\\n???", mines=1, count=3000, seed=0)
    >>> layouts.shape, bool(layouts.sum(axis=(1, 2)).min() == 1)  # one mine each
    ((3000, 2, 3), True)
    >>> np.round(layouts.mean(axis=0), 1).tolist()  # one of 3 cells by the 1: 1/3 each
    [[0.0, 0.3, 0.0], [0.3, 0.3, 0.0]]
    >>> sample_layouts("1??\\n???", mines=1, count=1, seed=0, given={(1, 1): 1})[0].astype(int).tolist()
    [[0, 0, 0], [0, 1, 0]]
    """
    obs = _exact_position(obs, mines, "sample_layouts")
    if given:
        obs = _with_given(obs, given)
    n = _check_layouts("count", count)
    rng = as_generator(seed)
    p = probabilities(obs, time_limit=None)  # raises when no layout fits, even for count=0
    if n == 0:
        return np.zeros((0, *obs.shape), dtype=bool)
    return np.stack([_one_layout(obs, p, rng) for _ in range(n)])


def _with_given(obs: Observation, given: Any) -> Observation:
    """``obs`` with each given cell settled: a flag for a mine, a revealed cell without a number (no
    clue, SPEC §1) for a safe one."""
    try:  # a dict, or pairs (cell, value) as zip(cells, values) gives them
        pairs = dict(given)
    except (TypeError, ValueError):
        raise ValueError(f"given must be a dict of cells to 0 (safe) or 1 (a mine), for example "
                         f"{{(2, 3): 0}}; got {type(given).__name__} {short_repr(given)}") from None
    grid = obs.grid.copy()
    for key, value in pairs.items():
        cell = cell_pair(key)
        if cell is None or not (0 <= cell[0] < grid.shape[0] and 0 <= cell[1] < grid.shape[1]):
            raise ValueError(f"given: {key!r} is not a cell of this {grid.shape[0]}x{grid.shape[1]} board")
        if grid[cell] != COVERED:
            raise ValueError(f"given: {cell} is not a covered cell; give covered cells only")
        if isinstance(value, bool) or value not in (0, 1):
            raise ValueError(f"given: the value of {cell} must be 0 (safe) or 1 (a mine), got {value!r}")
        grid[cell] = FLAG if value else NOCLUE
    grid.setflags(write=False)
    return Observation._trusted(grid, obs.mines, obs.noise)


def _exact_position(obs, mines: int | None, caller: str) -> Observation:
    """``obs`` as an Observation with its total and exact clues, or a ValueError naming ``caller``."""
    own = obs.mines if isinstance(obs, Observation) else None
    if own is not None and mines is not None and mines != own:
        raise ValueError(f"{caller}: the position's total is {own}, and mines={mines} says otherwise; give "
                         f"one (obs.with_mines({mines}) for another total)")
    obs = as_observation(obs, mines=mines)
    if obs.mines is None:
        raise ValueError(f"{caller} needs the total number of mines: pass mines=N "
                         f"(or an Observation with one)")
    if obs.noise not in (None, "lost"):
        raise ValueError(f"{caller} needs exact clues: a position with noise={obs.noise!r} bounds its clues; "
                         f"give one with noise=None or 'lost'")
    return obs


def _one_layout(obs: Observation, p: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One layout of ``obs``, whose exact mine probabilities are ``p``."""
    assert obs.mines is not None  # checked by the caller
    grid = obs.grid.copy()
    front = frontier_mask(grid)
    while True:
        open_ = front & (grid == COVERED)
        grid[open_ & (p <= 0.0)] = NOCLUE
        grid[open_ & (p >= 1.0)] = FLAG
        left = np.flatnonzero(front & (grid == COVERED))
        if left.size == 0:
            break
        i = int(left[0])
        grid.flat[i] = FLAG if rng.random() < p.flat[i] else NOCLUE
        # safe cells drawn so far are revealed cells without a number: safe, and no clue
        p = probabilities(Observation._trusted(grid.copy(), obs.mines), time_limit=None)
    layout = (grid == FLAG) | (grid == MINE)
    rest = np.flatnonzero(grid.ravel() == COVERED)  # no number touches them: exchangeable
    need = obs.mines - int(np.count_nonzero(layout))
    if not 0 <= need <= rest.size:  # probabilities() has checked consistency already
        raise InconsistentPositionError(f"{mines_text(need)} left for {rest.size} cells")
    layout.flat[rng.choice(rest, need, replace=False)] = True
    return layout


def move_win_rates(obs, cells: Iterable[Cell] | None = None, *, agent: str | Agent = "best",
                   samples: int = 100, seed: int = 0, mines: int | None = None, confidence: float = 0.95,
                   first_click: str = "none", workers: int | None = 1, progress: bool = False
                   ) -> pd.DataFrame:
    """How often each move wins from a position, played out on sampled layouts.

    Each of ``samples`` layouts (drawn as :func:`sample_layouts` draws, layout
    ``s`` from its own generator) is played once per move: the position is set
    up as a game (its numbers shown, its flags and shown mines flagged), the
    move is revealed, then ``agent`` plays to the end.  Every move sees the
    same layouts and the same agent seeds.  A shown 0 opens its neighbours as
    in any game: they are safe in every layout, so opening them first changes
    no move's outcome.

    Parameters
    ----------
    obs : Observation, its text or its code array
        The position (total known, exact clues, no revealed cell without its number, some safe
        cell still covered).
    cells : iterable of (row, col), optional
        The moves to compare (distinct covered cells); by default the safest covered cells.
    agent : str or Agent, default "best"
        Who finishes the games (see :data:`sweeplab.AGENTS`).
    samples : int, default 100
        Layouts to draw, at least 1 and at most :data:`MAX_LAYOUTS`.
    seed : int or numpy.random.Generator, default 0
        Layouts and agent choices are a function of it (a ``Generator`` gives it by one draw).
    mines : int, optional
        The total, for a position given without one (text, codes).
    confidence : float, default 0.95
        Of the Wilson interval of each win rate.
    first_click : {"none", "safe", "zero"}, default "none"
        The rule the position's game was played under.  Past the first click
        it changes no layout, only how ``agent`` sets itself up for the game
        (:meth:`~sweeplab.agents.Agent.for_rules`: ``best`` credits coin flips
        under a zero start on expert-dense boards).
    workers : int, optional
        Local processes (``None``: every core); the result is the same for any number.
    progress : bool, default False
        A progress bar over the layouts.

    Returns
    -------
    pandas.DataFrame
        One row per move, most wins first: ``cell``, ``mine_probability``
        (exact), ``wins``, ``games``, ``win_rate``, ``win_low``, ``win_high``.

    Examples
    --------
    >>> table = move_win_rates("??\\n11\\n..", mines=1, samples=50, seed=1)  # a coin flip
    >>> sorted(table["cell"]), int(table["wins"].sum())  # on each layout exactly one of the two wins
    ([(0, 0), (0, 1)], 50)
    """
    obs = _exact_position(obs, mines, "move_win_rates")
    n = _check_layouts("samples", samples)
    if n < 1:  # no layout would leave every win rate undefined
        raise ValueError(f"samples must be at least 1 (the layouts each move is played on), got {samples!r}")
    seed = root_seed(seed)
    lost = np.argwhere(obs.grid == NOCLUE)
    if lost.size:
        raise ValueError(f"cell {tuple(int(v) for v in lost[0])} is revealed without its number (NOCLUE): a "
                         f"replayed game would show it; give the position with every revealed cell's number")
    p = probabilities(obs, time_limit=None)
    covered = obs.grid == COVERED
    if not (covered & (p < 1.0)).any():
        raise ValueError("every safe cell of the position is open (each covered cell is a mine): the game is "
                         "won and has no move to rate")
    if cells is None:
        low = p[covered].min() if covered.any() else 0.0
        moves = [(int(r), int(c)) for r, c in np.argwhere(covered & (p <= low + 1e-12))]
    else:
        moves = [covered_move(cell, covered) for cell in cells]
    if not moves:
        raise ValueError("no move to compare: pass covered cells, or cells=None for the safest ones")
    if len(set(moves)) < len(moves):
        raise ValueError(f"every move once: {moves} repeats a cell")
    player = make_agent(agent)  # a name or an agent; anything else is refused naming the choices
    check_rules(first_click, "classic")
    player = player.for_rules(first_click=first_click, shape=obs.shape, mines=obs.mines)
    tasks = [{"obs": obs, "p": p, "moves": moves, "agent": player, "seed": seed, "first": first,
              "last": first + count} for first, count in split_range(n, _CHUNK)]
    wins = np.zeros(len(moves), dtype=np.int64)
    bar = None
    if progress:
        from tqdm.auto import tqdm
        bar = tqdm(total=n, desc="layouts", unit="layout")
    with contextlib.closing(run_tasks(_play_layouts, tasks, workers=workers)) as done:
        for i, won in done:
            wins += won
            if bar is not None:
                bar.update(tasks[i]["last"] - tasks[i]["first"])
    if bar is not None:
        bar.close()
    out = []
    for cell, k in zip(moves, wins.tolist(), strict=True):
        lo, hi = wilson_interval(k, n, confidence=confidence)
        out.append({"cell": cell, "mine_probability": float(p[cell]), "wins": k, "games": n,
                    "win_rate": k / n if n else np.nan, "win_low": lo, "win_high": hi})
    return pd.DataFrame(out).sort_values("wins", ascending=False, kind="stable").reset_index(drop=True)


def covered_move(cell, covered: np.ndarray) -> Cell:
    """``cell`` as a covered (row, col) of the position, or a ValueError that names it."""
    h, w = covered.shape
    pair = cell_pair(cell)
    if pair is None:
        raise ValueError(f"each move must be a (row, col) pair of integers, got {cell!r}")
    r, c = pair
    if not (0 <= r < h and 0 <= c < w) or not covered[r, c]:
        raise ValueError(f"move {cell} is not a covered cell of the {h}x{w} position")
    return pair


def _play_layouts(obs: Observation, p: np.ndarray, moves: list[Cell], agent: Agent, seed: int, first: int,
                  last: int) -> np.ndarray:
    """Wins of each move on layouts ``first .. last - 1`` (layout ``s`` and its games seeded by ``s``)."""
    wins = np.zeros(len(moves), dtype=np.int64)
    for s in range(first, last):
        layout = _one_layout(obs, p, np.random.default_rng([seed, 0, s]))
        for j, cell in enumerate(moves):
            # the same draws as default_rng([seed, 1, s]), without the seed that names the layout's stream
            rng = agent_generator(np.random.SeedSequence([seed, 1, s]))
            wins[j] += _plays_out(layout, obs.grid, cell, agent, rng)
    return wins


def _plays_out(layout: np.ndarray, grid: np.ndarray, cell: Cell, agent: Agent,
               rng: np.random.Generator) -> bool:
    """Set up the position as a game, reveal ``cell``, let ``agent`` finish: won?"""
    if layout[cell]:  # the move steps on a mine (every covered cell does once every safe cell is open)
        return False
    game = Game.from_layout(layout)
    # the shown zeros' cascades may open every safe cell part-way: the game is won, nothing to play
    for r, c in np.argwhere(grid >= 0):
        if game.status != "playing":
            break
        game.reveal(int(r), int(c))
    if game.status == "playing":
        for r, c in np.argwhere((grid == FLAG) | (grid == MINE)):
            game.flag(int(r), int(c))
        game.reveal(*cell)
    if game.status == "playing":
        for _ in referee(agent, game, rng):
            pass
    return game.status == "won" and game.mines_hit == 0
