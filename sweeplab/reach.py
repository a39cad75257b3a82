"""How far each method gets, game by game (issue 11; notebook 14, report section 014).

Three game-level measures, each a function of a block of seeded games that
returns tidy rows, and one resumable, chunked runner (:func:`run_games`) for all of them:

**Reach** (:func:`reach_games`).  A :class:`ReachAgent` plays one method and never
guesses: after the opening click it applies every cell the method proves
(reveals the safe ones, flags the mines), asks again, and stops at the first
position where the method proves nothing, the point where a player would have
to guess.  A game is *reached* when every safe cell is open by then.  Each row
gives whether the game was reached and the share of the safe cells opened
before the first forced guess.

**Cascade** (:func:`cascade_games`).  One player tries ``trivial -> subset ->
rref -> bounded -> lp -> enumerate`` in that order on every position and
guesses uniformly only when all fail (:data:`CASCADE`); each decision (a cell
revealed or flagged) is credited to the first method that proved it.  The
rows are the decisions of every game, with the move number and the cells each
decision opened.  :func:`cascade_shares` turns them into the share of a game
decided by each method, beside the shares the project's brief quotes as published
(:data:`PUBLISHED_CASCADE`; it names no source).

**Geometry along a game** (:func:`geometry_games`): the positions the cascade
player meets, each measured by :func:`sweeplab.geometry.geometry`.

Games are seeded exactly as in :func:`sweeplab.play`: game ``i`` of root
``seed`` has the board of ``game_seeds(seed, i)[0]``, so the reach of rref on
game 17 is measured on the very board the ``chain`` agent plays as game 17,
and results never depend on the worker count or the order of the chunks.

Examples
--------
>>> rows = reach_games(method="trivial", level="beginner", games=3, seed=1)
>>> rows[["game", "won"]].shape
(3, 2)
>>> bool((rows["revealed"] > 0).all())  # the zero opening opens something
True
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import operator
import os
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from .agents.base import Agent, first_cell, first_move_label, ordered_names
from .errors import check_flag
from .executor import check_count, check_positive, root_seed
from .game import LEVELS, new_game, resolve_board
from .methods import METHODS, method_info
from .noguess import CASCADE, CONVENTIONS, CascadeAgent, ReachAgent, play_without_guessing
from .positions import Observation, short_repr
from .referee import referee
from .run_directory import (
    Chunk,
    RunFormat,
    chunk_identity,
    json_value,
    legacy_chunks,
    load_chunk,
    open_manifest,
    output_path,
    plan_chunks,
    prepare_output,
    unplanned_chunks,
    write_chunk,
)
from .simulate import agent_generator, game_seeds
from .stats import check_distinct_games, check_known_outcomes, wilson_interval

__all__ = [
    "CASCADE",
    "PUBLISHED_CASCADE",
    "published_share_text",
    "REACH_METHODS",
    "ReachAgent",
    "CascadeAgent",
    "reach_games",
    "reach_summary",
    "cascade_games",
    "cascade_shares",
    "geometry_games",
    "geometry_summary",
    "run_games",
    "KINDS",
]

log = logging.getLogger(__name__)

#: Sound methods whose reach the report measures.  ``milp`` and ``brute`` are complete, like
#: ``enumerate``: they prove exactly the cells enumerate proves (``brute`` refuses frontiers over
#: 20 cells), so their reach is enumerate's, game by game; :func:`reach_games` runs them too.
REACH_METHODS = ("trivial", "subset", "rref", "lstsq-certified", "gf2", "gfp", "bounded", "lp", "enumerate")
#: Joins the methods of a cascade in :func:`cascade_games`' ``chain`` column (no method name holds it).
CHAIN_SEPARATOR = ">"
#: Shares of a game's decisions that the project's brief (issue 11) quotes as published, naming no
#: source: single-clue rules about 88%, subset rules about 8%, under 2% guessed.  Set beside ours as
#: the brief's figures, not as a published measurement.
PUBLISHED_CASCADE = {"trivial": 0.88, "subset": 0.08, "guess": 0.02}


def published_share_text(source: str, share: float) -> str:
    """A share of :data:`PUBLISHED_CASCADE` as issue 11 states it: ``"<2%"`` for the guesses (an upper
    bound, not a share of 2%), else the percentage at the precision it is quoted to.

    Examples
    --------
    >>> published_share_text("guess", 0.02), published_share_text("trivial", 0.88)
    ('<2%', '88%')
    """
    return "<2%" if source == "guess" else f"{100 * share:g}%"


# ----------------------------------------------------------------------------- helpers
def _board(level, shape, mines, density) -> tuple[tuple[int, int], int, str | None]:
    (h, w), n = resolve_board(level, shape=None if shape is None else tuple(shape), mines=mines,
                              density=density)
    if level is None:
        level = next((k for k, lv in LEVELS.items() if lv.shape == (h, w) and lv.mines == n), None)
    return (h, w), n, level


def _check_method(method: str, study: str = "reach") -> str:
    """``method``'s name when it is sound; ``ValueError`` naming the study (its results would count
    wrong claims) and the sound methods."""
    info = method_info(method)  # ValueError naming the choices
    if not info.sound:
        sound = sorted(n for n, m in METHODS.items() if m.sound)
        raise ValueError(f"method {method!r} is not sound, so its {study} would count wrong claims; "
                         f"choose from {sound}")
    return info.name


def _games(shape, n_mines, first_click, seed, start, games):
    """``(index, game, agent rng)`` of games ``start .. start + games - 1``, seeded as in :func:`play`."""
    for i in range(start, start + games):
        board_ss, agent_ss = game_seeds(seed, i)
        game = new_game(shape=shape, mines=n_mines, first_click=first_click, seed=board_ss)
        yield i, game, agent_generator(agent_ss)


# ------------------------------------------------------------------------------- reach
def reach_games(
    *,
    method: str = "rref",
    level: str | None = None,
    shape: tuple[int, int] | None = None,
    mines: int | None = None,
    density: float | None = None,
    use_total: bool = True,
    first_click: str = "zero",
    first_move: Any = "auto",
    convention: str = "all",
    games: int = 100,
    seed: int = 0,
    start: int = 0,
) -> pd.DataFrame:
    """Play games with one method and no guess; one row per game (issue 11 item 1).

    Parameters
    ----------
    method : str
        A sound method of :data:`sweeplab.METHODS`.
    level : {"beginner", "intermediate", "expert"}, optional
        Or ``shape=(height, width)`` with ``mines`` or ``density``.
    use_total : bool
        Let the method use the board's total number of mines.
    first_click : {"zero", "safe", "none"}
        The game's first-click rule.
    first_move : "auto", "corner", "centre", "random" or (row, col)
        The opening click; ``"auto"`` is the package's rule (:meth:`sweeplab.agents.Agent.for_rules`):
        cell (2, 2) under the "zero" rule where the mines leave its nine cells free, the corner
        otherwise.
    convention : {"all", "reveal", "single"}
        How each answer of the method is applied (:data:`sweeplab.noguess.CONVENTIONS`): every
        proved cell at once (safe ones revealed, mines flagged), the safe ones only, or one move
        at a time.  Only methods that are not monotone (one RREF pass, bounds propagation, the
        finite fields) can answer differently.
    games, seed, start : int
        Games ``start .. start + games - 1`` of root ``seed`` (the boards of :func:`sweeplab.play`).

    Returns
    -------
    pandas.DataFrame
        ``method, use_total, level, height, width, mines, density, first_click,
        first_move, convention, seed, game, won`` (every safe cell opened without a guess),
        ``revealed`` (share of the safe cells open at the first forced guess),
        ``opening`` (share opened by the first click), ``turns`` (method
        calls), ``reveals``, ``flags``, ``mines_hit`` (0 for a sound method,
        but for an opening click on a mine under the "none" rule), ``refused`` (the game stopped
        where the method refused a position past its budget, such as ``brute`` past 20 frontier
        cells: not a forced guess, and not a win), ``seconds``.

    Examples
    --------
    >>> df = reach_games(method="subset", shape=(6, 6), mines=3, games=4, seed=2)
    >>> df["won"].dtype, len(df)
    (dtype('bool'), 4)
    """
    games = check_count("games", games)
    seed = root_seed(seed)
    start = check_count("start", start)
    params, agent = _reach_point(method=method, level=level, shape=shape, mines=mines, density=density,
                                 use_total=use_total, first_click=first_click, first_move=first_move,
                                 convention=convention)
    params["seed"] = seed
    name, use_total, h, w, n_mines = (params[k] for k in ("method", "use_total", "height", "width", "mines"))
    shape_ = (h, w)
    rows = []
    for i, game, rng in _games(shape_, n_mines, first_click, seed, start, games):
        t0 = time.perf_counter()
        safe_total = h * w - n_mines
        opening = first_cell(agent.first_move, shape_, rng)  # as the agent's first call draws it
        p = play_without_guessing(game, name, opening, use_total=bool(use_total), convention=convention)
        rows.append({**params, "game": i, "won": game.status == "won" and game.mines_hit == 0,
                     "revealed": game.revealed_fraction, "opening": p.opened_first / max(safe_total, 1),
                     "turns": p.turns, "reveals": p.reveals, "flags": p.flags, "mines_hit": game.mines_hit,
                     "refused": p.refused, "seconds": time.perf_counter() - t0})
    return pd.DataFrame(rows, columns=[*params, "game", "won", "revealed", "opening", "turns", "reveals",
                                       "flags", "mines_hit", "refused", "seconds"])


def _reach_point(*, method, level, shape, mines, density, use_total, first_click, first_move,
                 convention) -> tuple[dict[str, Any], Agent]:
    """A reach point's parameters as its rows state them (its games' identity, but the seed), and its
    player."""
    name = _check_method(method)
    shape_, n_mines, level = _board(level, shape, mines, density)
    use_total = check_flag("use_total", use_total)
    agent = ReachAgent(methods=(name,), use_total=use_total, first_move=first_move).for_rules(
        first_click=first_click, shape=shape_, mines=n_mines)
    if convention not in CONVENTIONS:
        raise ValueError(f"convention must be one of {CONVENTIONS}, got {convention!r}")
    h, w = shape_
    return ({"method": name, "use_total": bool(use_total), "level": level, "height": h, "width": w,
             "mines": n_mines, "density": round(n_mines / (h * w), 4), "first_click": first_click,
             "first_move": first_move_label(agent.first_move, shape_), "convention": convention}, agent)


#: Columns that identify a reach point.
REACH_KEYS = ("method", "use_total", "level", "height", "width", "mines", "density", "first_click",
              "first_move", "convention")


def reach_summary(rows: pd.DataFrame, *, confidence: float = 0.95) -> pd.DataFrame:
    """Reach per point: games, wins, win rate with Wilson intervals, and the share opened before a guess.

    ``refused`` counts the games that stopped where the method refused a
    position (they are not wins, and not forced guesses either: a method that
    refuses some positions of a point has no reach measured there).

    Examples
    --------
    >>> rows = reach_games(method="trivial", level="beginner", games=5, seed=0)
    >>> list(reach_summary(rows).columns)[-8:]
    ['games', 'wins', 'win_rate', 'ci_low', 'ci_high', 'mean_revealed', 'sem_revealed', 'refused']
    """
    keys = [k for k in REACH_KEYS if k in rows.columns]
    if "method" not in keys or not {"won", "revealed"} <= set(rows.columns):
        raise ValueError(f"reach_summary takes reach_games rows (columns {['method', 'won', 'revealed']} at "
                         f"least, and a point's {list(REACH_KEYS[1:])}), got columns {list(rows.columns)}")
    check_known_outcomes(rows, function="reach_summary")
    check_distinct_games(rows, keys, function="reach_summary")
    out = []
    for values, g in rows.groupby(keys, sort=False, dropna=False):
        n, wins = len(g), int(g["won"].sum())
        lo, hi = wilson_interval(wins, n, confidence=confidence)
        rev = g["revealed"].to_numpy(dtype=float)
        out.append({**dict(zip(keys, values, strict=True)), "games": n, "wins": wins,
                    "win_rate": wins / n if n else math.nan, "ci_low": float(lo), "ci_high": float(hi),
                    "mean_revealed": float(rev.mean()) if n else math.nan,
                    "sem_revealed": float(rev.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan,
                    "refused": int(g["refused"].sum()) if "refused" in g else 0})
    return pd.DataFrame(out, columns=[*keys, "games", "wins", "win_rate", "ci_low", "ci_high",
                                      "mean_revealed", "sem_revealed", "refused"])


# ----------------------------------------------------------------------------- cascade
def cascade_games(
    *,
    level: str | None = None,
    shape: tuple[int, int] | None = None,
    mines: int | None = None,
    density: float | None = None,
    methods: tuple[str, ...] = CASCADE,
    first_click: str = "zero",
    first_move: Any = "auto",
    games: int = 100,
    seed: int = 0,
    start: int = 0,
) -> pd.DataFrame:
    """Every decision of games played by the cascade, credited to the first method that proved it.

    A decision is a cell the player revealed or flagged (cells a zero opens
    around it are counted in ``opened``, not as decisions).  The opening
    click's source is ``"first"``; a cell no method proves is a ``"guess"``.

    Returns
    -------
    pandas.DataFrame
        One row per decision: ``level, height, width, mines, first_click, seed,
        game, move`` (0 for the opening, then 1, 2, ...), ``kind``
        (``"reveal"`` or ``"flag"``), ``source``, ``opened`` (cells the move
        opened, 0 for a flag), ``won`` (the game's outcome, on every row),
        ``chain`` (the methods tried, in order, joined by ``">"``).

    Examples
    --------
    >>> df = cascade_games(level="beginner", games=2, seed=0)
    >>> df.groupby("game")["move"].min().tolist()
    [0, 0]
    >>> set(df["source"]) <= {"first", "guess", *CASCADE}
    True
    """
    try:
        names = ordered_names(methods)
    except TypeError:
        raise ValueError(f"methods must be method names in order, a tuple such as {CASCADE!r} (a set has no "
                         f"order), got {short_repr(methods)}") from None
    chain = tuple(_check_method(m, "cascade") for m in names)
    shape_, n_mines, level = _board(level, shape, mines, density)
    games = check_count("games", games)
    seed = root_seed(seed)
    start = check_count("start", start)
    agent = CascadeAgent(methods=chain, first_move=first_move).for_rules(first_click=first_click,
                                                                          shape=shape_, mines=n_mines)
    h, w = shape_
    columns = ["level", "height", "width", "mines", "first_click", "seed", "game", "move", "kind", "source",
               "opened", "won", "chain"]
    played = CHAIN_SEPARATOR.join(chain)
    parts: list[tuple] = []
    for i, game, rng in _games(shape_, n_mines, first_click, seed, start, games):
        moves = [(k, p.move.kind, p.move.source, p.opened) for k, p in enumerate(referee(agent, game, rng))]
        won = game.status == "won"
        parts.extend((level, h, w, n_mines, first_click, seed, i, k, kind, src, opened, won, played)
                     for k, kind, src, opened in moves)
    df = pd.DataFrame(parts, columns=columns)
    return df.astype({"move": "int32", "opened": "int32", "game": "int64"})


def cascade_shares(rows: pd.DataFrame, *, by: str = "level", move_bins: Iterable[int] | None = None
                   ) -> pd.DataFrame:
    """Share of the decisions (and of the cells) credited to each source, beside the brief's shares.

    Parameters
    ----------
    rows : DataFrame
        :func:`cascade_games` rows.
    by : str
        Column to split by (``"level"``); every table also has an ``"all"`` row.
    move_bins : iterable of int, optional
        Left edges of move-number bins: adds rows with ``scope="move"`` giving
        the shares among the decisions whose move number falls in each bin.

    Returns
    -------
    pandas.DataFrame
        ``scope`` (``"game"`` or ``"move"``), ``group`` (the level or ``"all"``),
        ``move`` (bin's left edge, -1 for whole games), ``source`` (``"first"``,
        the methods of the chains played in their order, those that decided
        nothing too, then ``"guess"``),
        ``decisions``, ``cells``, ``share`` (of the decisions after the
        opening), ``cell_share`` (of every cell the game opened or flagged,
        opening included), ``report`` (the brief's share, :data:`PUBLISHED_CASCADE`, where there is one).

    Examples
    --------
    >>> table = cascade_shares(cascade_games(level="beginner", games=3, seed=0))
    >>> bool(abs(table[table["group"] == "all"]["share"].sum() - 1) < 1e-9)
    True
    """
    if by not in rows.columns:
        raise ValueError(f"by={by!r} is not a column of the cascade rows; choose from {list(rows.columns)}")
    edges: list[int] | None = None
    if move_bins is not None:
        try:
            bins = list(move_bins)
            if any(isinstance(b, bool) for b in bins):  # operator.index takes True as 1
                raise TypeError
            edges = sorted(set(operator.index(b) for b in bins))
        except TypeError:
            raise ValueError(f"move_bins must be move numbers (the bins' left edges, integers such as "
                             f"(1, 5, 20)), got {short_repr(move_bins)}") from None
    # the methods of the chains played, in chain order (rows of other origins: the default cascade)
    chains = rows["chain"].unique().tolist() if "chain" in rows.columns else [CHAIN_SEPARATOR.join(CASCADE)]
    sources = ["first", *dict.fromkeys(m for c in chains for m in str(c).split(CHAIN_SEPARATOR)), "guess"]
    extra = sorted(set(rows["source"]) - set(sources))
    sources = [*sources[:-1], *extra, "guess"]
    cells = np.where(rows["kind"] == "flag", 1, rows["opened"]).astype(np.int64)
    frame = rows.assign(cells=cells)
    out = []

    def add(scope, group, move, part):
        decided = part[part["source"] != "first"]
        n_dec = len(decided)
        n_cells = int(part["cells"].sum())
        for src in sources:
            mine = part[part["source"] == src]
            n = len(mine) if src != "first" else 0
            c = int(mine["cells"].sum())
            out.append({"scope": scope, "group": group, "move": move, "source": src, "decisions": n,
                        "cells": c, "share": n / n_dec if n_dec and src != "first" else
                        (math.nan if src != "first" else 0.0),
                        "cell_share": c / n_cells if n_cells else math.nan,
                        "report": PUBLISHED_CASCADE.get(src, math.nan) if scope == "game" else math.nan})

    # dropna=False: a custom board has no level, and its rows must not vanish from the per-group rows
    groups = [(k if pd.isna(k) else str(k), g) for k, g in frame.groupby(by, sort=False, dropna=False)]
    for key, g in [*groups, ("all", frame)]:
        add("game", key, -1, g)
    if edges is not None:
        for key, g in [*groups, ("all", frame)]:
            idx = np.searchsorted(edges, g["move"].to_numpy(), side="right") - 1
            for j, edge in enumerate(edges):
                part = g[idx == j]
                if len(part[part["source"] != "first"]):
                    add("move", key, edge, part)
    return pd.DataFrame(out)


# ---------------------------------------------------------------------------- geometry
def geometry_games(
    *,
    level: str | None = None,
    shape: tuple[int, int] | None = None,
    mines: int | None = None,
    density: float | None = None,
    first_click: str = "zero",
    first_move: Any = "auto",
    games: int = 10,
    seed: int = 0,
    start: int = 0,
    every: int = 1,
) -> pd.DataFrame:
    """The solution-space geometry of the positions a cascade player meets, along each game (item 4).

    Every ``every``-th position after the first click (turns ``every, 2 every, ...``:
    the position before each call of the player; the blank board is not measured) is measured by
    :func:`sweeplab.geometry.geometry` (rank and nullity without the total,
    layouts with it).

    Returns
    -------
    pandas.DataFrame
        One row per position: ``level, height, width, mines, first_click, seed,
        game, turn, revealed`` (share of safe cells open), ``n_frontier,
        n_interior, n_equations, rank, nullity, log10_layouts, n_components,
        largest_component, components`` (block sizes, space-separated).

    Examples
    --------
    >>> df = geometry_games(level="beginner", games=1, seed=0)
    >>> bool((df["rank"] + df["nullity"] == df["n_frontier"]).all())
    True
    """
    from .geometry import geometry

    shape_, n_mines, level = _board(level, shape, mines, density)
    games = check_count("games", games)
    seed = root_seed(seed)
    start = check_count("start", start)
    every = int(check_positive("every", every) or 0)  # never None: no default for None
    agent = CascadeAgent(first_move=first_move).for_rules(first_click=first_click, shape=shape_,
                                                          mines=n_mines)
    h, w = shape_
    rows = []
    for i, game, rng in _games(shape_, n_mines, first_click, seed, start, games):
        seen: list[tuple[int, Observation, float]] = []

        def look(turn, obs, game=game, seen=seen):
            if turn and turn % every == 0:
                seen.append((turn, obs, game.revealed_fraction))

        for _ in referee(agent, game, rng, on_turn=look):
            pass
        for turn, obs, revealed in seen:
            g = geometry(obs)
            rows.append({"level": level, "height": h, "width": w, "mines": n_mines,
                         "first_click": first_click, "seed": seed, "game": i, "turn": turn,
                         "revealed": revealed,
                         "n_frontier": g.n_frontier, "n_interior": g.n_interior, "n_equations": g.n_equations,
                         "rank": g.rank, "nullity": g.nullity, "log10_layouts": g.log10_layouts,
                         "n_components": g.n_components, "largest_component": g.largest_component,
                         "components": " ".join(map(str, g.components))})
    columns = ["level", "height", "width", "mines", "first_click", "seed", "game", "turn", "revealed",
               "n_frontier", "n_interior", "n_equations", "rank", "nullity", "log10_layouts", "n_components",
               "largest_component", "components"]
    return pd.DataFrame(rows, columns=columns)


def geometry_summary(rows: pd.DataFrame, *, by: str = "level") -> pd.DataFrame:
    """Distribution of rank, nullity, layouts and blocks per group: median, quartiles and maximum.

    Examples
    --------
    >>> table = geometry_summary(geometry_games(level="beginner", games=2, seed=0))
    >>> sorted(set(table["quantity"]))[:2]
    ['block size', 'blocks']
    """
    if by not in rows.columns:
        raise ValueError(f"by={by!r} is not a column of the geometry rows; choose from {list(rows.columns)}")
    quantities = {"frontier": "n_frontier", "rank": "rank", "nullity": "nullity",
                  "log10 layouts": "log10_layouts", "blocks": "n_components",
                  "largest block": "largest_component"}
    out = []
    for key, g in rows.groupby(by, sort=False, dropna=False):  # a custom board has no level: kept
        for label, col in quantities.items():
            v = g[col].to_numpy(dtype=float)
            v = v[np.isfinite(v)]
            out.append(_quantiles(key, label, v, len(g)))
        sizes = np.array([int(s) for text in g["components"] for s in str(text).split()], dtype=float)
        out.append(_quantiles(key, "block size", sizes, len(g)))
    return pd.DataFrame(out, columns=["group", "quantity", "positions", "values", "mean", "p10", "q1",
                                      "median", "q3", "p90", "max"])


def _quantiles(group, label, v, positions) -> dict[str, Any]:
    if v.size == 0:
        q = [math.nan] * 5
    else:
        q = np.quantile(v, [0.1, 0.25, 0.5, 0.75, 0.9]).tolist()
    return {"group": group, "quantity": label, "positions": positions, "values": int(v.size),
            "mean": float(v.mean()) if v.size else math.nan, "p10": q[0], "q1": q[1], "median": q[2],
            "q3": q[3], "p90": q[4], "max": float(v.max()) if v.size else math.nan}


# ------------------------------------------------------------------------------ runner
#: The measures :func:`run_games` runs, by kind.
KINDS: dict[str, Callable[..., pd.DataFrame]] = {"reach": reach_games, "cascade": cascade_games,
                                                 "geometry": geometry_games}


def run_chunk(kind: str, point: Mapping[str, Any], start: int, games: int, seed: int) -> pd.DataFrame:
    """Games ``start .. start + games - 1`` of one point (what a worker runs)."""
    kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in point.items()}
    df = KINDS[kind](**kwargs, games=games, seed=seed, start=start)
    df.insert(0, "point", 0)
    return df


def _check_rows(df: pd.DataFrame, identity: Mapping[str, Any]) -> None:
    """``ValueError`` unless a chunk has its kind's columns, as a run of no games gives them (a column
    name corrupted in the file's footer would otherwise drop a measure from the results)."""
    empty = run_chunk(identity["kind"], identity["params"], identity["start"], 0, identity["seed"])
    if list(df.columns) != list(empty.columns):
        raise ValueError(f"its columns are not those of a {identity['kind']} run")


#: A run's directory: its messages, manifest keys and chunk identity (:mod:`sweeplab.run_directory`).
_FORMAT = RunFormat(noun="run of run_games", manifest="manifest of run_games",
                    resume="run the same arguments", keys=("kind", "points", "games", "seed"),
                    chunk_key=b"sweeplab.games_chunk", check_rows=_check_rows)


def _normalise_points(kind: str, points) -> list[dict[str, Any]]:
    import inspect

    if isinstance(points, Mapping):
        raise ValueError("points is a list of dicts, got a single dict")
    parameters = inspect.signature(KINDS[kind]).parameters
    allowed = set(parameters) - {"games", "seed", "start"}
    # a reach point's games, whatever the spelling: _reach_point's answer for its arguments or their defaults
    defaults = {k: v.default for k, v in inspect.signature(reach_games).parameters.items()}
    point_args = list(inspect.signature(_reach_point).parameters)
    out: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for i, p in enumerate(points):
        if not isinstance(p, Mapping):
            raise ValueError(f"point {i} must be a dict of {kind} parameters, got {p!r}")
        bad = sorted(set(p) - allowed)
        if bad:
            raise ValueError(f"point {i} has unknown parameter(s) {bad}; {kind} takes {sorted(allowed)}")
        try:  # kept as JSON (numpy numbers as numbers: mines=np.int64(10) is 10)
            q = json_value({k: p[k] for k in sorted(p)})
        except (TypeError, ValueError):
            raise ValueError(f"point {i} holds names, numbers and lists only (it is kept as JSON), "
                             f"got {short_repr(dict(p))}") from None
        text = json.dumps(q, sort_keys=True)
        if text in seen:
            raise ValueError(f"point {i} repeats point {seen[text]} ({q!r}); give each point once")
        # written differently (a level or its shape and mines, a default restated), the same games:
        # they would be counted as one larger sample
        if kind == "reach":
            games_key = json.dumps(_reach_point(**{k: q.get(k, defaults[k]) for k in point_args})[0],
                                   sort_keys=True)
        else:
            args = {k: q.get(k, parameters[k].default) for k in allowed}
            board = _board(*(args.pop(k) for k in ("level", "shape", "mines", "density")))[:2]
            games_key = json.dumps({**args, "board": board}, sort_keys=True, default=list)
        if games_key in seen:
            j = seen[games_key]
            raise ValueError(f"point {i} ({q!r}) plays the same games as point {j} ({out[j]!r}): they "
                             f"would be counted as one larger sample; give each point once")
        seen[games_key] = i
        seen[text] = i
        out.append(q)
    if not out:
        raise ValueError("give at least one point")
    return out


def run_games(
    kind: str,
    points: Iterable[Mapping[str, Any]],
    *,
    games: int,
    seed: int = 0,
    out: str | os.PathLike | None = None,
    chunk_size: int | None = None,
    workers: int | None = 1,
    progress: bool = False,
) -> pd.DataFrame:
    """Run (or resume) a grid of points of one measure, in chunks, on any number of workers.

    The sweep machinery of :mod:`sweeplab.sweeps` for the measures of this
    module: the same fixed partition of each point's games into chunks
    (:func:`sweeplab.run_directory.plan_chunks`), the same executor
    (:func:`sweeplab.executor.run_tasks`), the same directory
    (:mod:`sweeplab.run_directory`: an exclusive lock, a manifest and atomic
    chunk files that carry their identity).  With ``out``, a manifest and one
    Parquet file per finished chunk are written, and a run stopped in any way
    and started again with the same arguments plays only the missing chunks.

    Parameters
    ----------
    kind : {"reach", "cascade", "geometry"}
        The measure: :func:`reach_games`, :func:`cascade_games` or :func:`geometry_games`.
    points : iterable of dict
        Keyword arguments of that function (no two alike).
    games : int
        Games per point.
    seed : int or numpy.random.Generator
        Root seed: game ``i`` of every point is seeded by ``(seed, i)`` (a ``Generator``
        gives it by one draw).
    out : path, optional
        Directory of the resumable run.
    chunk_size : int, optional
        Games per chunk (default: about 20 chunks per point).
    workers : int, optional
        Local processes (``None``: every core).  Rows do not depend on it.
    progress : bool
        Show a progress bar over games.

    Returns
    -------
    pandas.DataFrame
        The function's rows for every point, with a ``point`` column (index in ``points``).

    Examples
    --------
    >>> df = run_games("reach", [{"method": "trivial", "level": "beginner"}], games=4)
    >>> df["game"].tolist()
    [0, 1, 2, 3]
    """
    from .executor import default_chunk_size, run_tasks

    if not isinstance(kind, str) or kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; choose from {sorted(KINDS)}")
    points = _normalise_points(kind, points)
    games = int(check_positive("games", games) or 0)
    seed = root_seed(seed)
    size = check_positive("chunk_size", chunk_size, none="about 20 chunks per point")
    check_positive("workers", workers, none="every core")
    for p in points:  # bad parameters fail here, before anything runs or is written
        run_chunk(kind, p, 0, 0, seed)
    outdir = output_path(out)
    lock = None if outdir is None else prepare_output(outdir, _FORMAT.noun)
    manifest: dict[str, Any] = {}
    try:
        if outdir is not None:
            run = {"kind": kind, "points": points, "games": games, "seed": seed}
            manifest = open_manifest(outdir, _FORMAT, run, size)
            size = manifest["chunk_size"]
        size = size or default_chunk_size(games)
        chunks = plan_chunks(len(points), games, size)
        done: dict[Chunk, pd.DataFrame] = {}
        if outdir is not None:
            stray = unplanned_chunks(outdir, chunks, _FORMAT.noun)
            if stray:
                log.warning("%s", stray)
            for c in chunks:
                df = load_chunk(outdir, _FORMAT, c, _identity(kind, points, c, seed, manifest),
                                legacy=legacy_chunks(manifest), logger=log)
                if df is not None:
                    done[c] = df
        todo = [c for c in chunks if c not in done]
        bar = None
        if progress:
            from tqdm.auto import tqdm

            bar = tqdm(total=sum(c.games for c in chunks), initial=sum(c.games for c in done),
                       unit="game", desc=kind)
        tasks = [{"kind": kind, "point": points[c.point], "start": c.start, "games": c.games, "seed": seed}
                 for c in todo]
        try:
            with contextlib.closing(run_tasks(run_chunk, tasks, workers=workers,
                                              preload=("sweeplab.reach",))) as results:
                for i, df in results:
                    c = todo[i]
                    df["point"] = c.point
                    if outdir is not None:
                        write_chunk(outdir, _FORMAT, c, df, _identity(kind, points, c, seed, manifest))
                    done[c] = df
                    if bar is not None:
                        bar.update(c.games)
        finally:
            if bar is not None:
                bar.close()
    finally:
        if lock is not None:
            lock.release()
    frames = [done[c] for c in chunks if len(done[c])]
    if not frames:
        return run_chunk(kind, points[0], 0, 0, seed)
    return pd.concat(frames, ignore_index=True)


def _identity(kind: str, points: list[dict[str, Any]], chunk: Chunk, seed: int, manifest: dict[str, Any]
              ) -> dict[str, Any]:
    return chunk_identity(chunk, points[chunk.point], seed, manifest, kind=kind)
