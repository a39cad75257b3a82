"""Playing agents: :func:`play` runs games and returns one tidy row per game (SPEC §5).

The simulator is the referee: it owns the :class:`~sweeplab.game.Game`, hands
the agent only ``game.observation`` and plays the moves it gets back.  It knows
the layout, so it counts the *wrong claims* of unsound agents (a "certain"
reveal that hits a mine, a "certain" flag on a safe cell, a method's "no layout
fits" on a position the game's layout fits).

Game ``i`` of a run with root seed ``seed`` is seeded by
``SeedSequence(seed, spawn_key=(i,))`` (the ``i``-th child of
``SeedSequence(seed).spawn``): the board from its first child, the agent's
random choices from its second (:func:`agent_generator`: the same draws, without
the seed that would name the game).  A game's outcome therefore depends only on
``(seed, i)`` and the parameters, never on the worker or the order.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import time
from collections import Counter
from collections.abc import Mapping
from functools import cache
from operator import itemgetter
from typing import Any

import numpy as np
import pandas as pd

from .agents import Agent, Move, first_cell, make_agent
from .agents.base import first_move_label, option_default
from .errors import check_flag, close_names
from .game import (
    LEVELS,
    Game,
    board_arguments,
    check_first_click_fits,
    check_noise,
    check_rules,
    first_click_fits,
    kept_free,
    new_game,
    resolve_board,
)
from .methods import METHODS, RESERVED_SOURCES, method_seconds, no_layout_claims
from .positions import layout_fits
from .referee import referee

__all__ = ["play", "play_game", "game_seeds", "agent_generator", "concat_results", "options_text",
           "RESULT_COLUMNS"]

#: Sources of certain moves recorded per game, one ``certain_<source>`` column each.
SOURCES = tuple(name.replace("-", "_") for name, m in METHODS.items() if m.builtin)

#: Columns of :func:`play`'s result, in order (``first_move`` names the cell the first move opens:
#: ``agents.base.first_move_label``).
RESULT_COLUMNS = (
    "agent", "options", "level", "height", "width", "mines", "first_click", "mode", "noise", "noise_p",
    "first_move", "seed", "game", "won", "status", "score", "revealed", "mines_hit", "moves", "reveals",
    "flags", "guesses", "certain", *(f"certain_{s}" for s in SOURCES), "wrong_claims", "seconds",
    *(f"seconds_{s}" for s in SOURCES),
)
_COLUMN_SET = frozenset(RESULT_COLUMNS)


def is_method_column(name: str) -> bool:
    """A column of a registered method's certain moves or seconds (after :data:`RESULT_COLUMNS`)."""
    return name not in _COLUMN_SET and name.startswith(("certain_", "seconds_"))


def options_text(options: Mapping[str, Any]) -> str:
    """Agent options as ``key=value`` text, keys sorted, values as JSON (the ``options`` column).

    Examples
    --------
    >>> options_text({"use_total": False, "methods": ("trivial", "rref")})
    'methods=["trivial", "rref"] use_total=false'
    """
    def plain(value: Any) -> Any:  # numpy scalars as numbers, anything else as its text
        return value.item() if isinstance(value, np.generic) else str(value)

    return " ".join(f"{k}={json.dumps(v, default=plain)}" for k, v in sorted(options.items()))


def _recorded_options(agent: Any, given: Mapping[str, Any]) -> str:
    """The ``options`` column: the options given and, for an agent object, its settings that differ
    from its class's defaults (else two differently made objects of one class would read alike)."""
    if not (isinstance(agent, Agent) and dataclasses.is_dataclass(agent)):
        return options_text(given)
    own = {}
    for f in dataclasses.fields(agent):
        if not f.init or f.name == "first_move" or f.name in given:  # the first move has its own column
            continue
        value, default = getattr(agent, f.name), option_default(f)
        try:
            same = default is not dataclasses.MISSING and bool(value == default)
        except (TypeError, ValueError):  # an array, say: not comparable as one value
            same = False
        if not same:
            own[f.name] = value
    return options_text({**own, **given})


def concat_results(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """Results of :func:`play` (parts of one run) as one table.

    A registered method has columns only in the parts whose games called it;
    elsewhere it made no move and took no time, so its columns are 0 there,
    as a built-in method's are.  Other columns come first, in order.
    """
    df = pd.concat(frames, ignore_index=True)
    extra = sorted(c for c in df.columns if is_method_column(c))
    for c in extra:
        df[c] = df[c].fillna(0.0 if c.startswith("seconds_") else 0)
        if c.startswith("certain_"):
            df[c] = df[c].astype("int64")
    return df[[c for c in df.columns if not is_method_column(c)] + extra]


def game_seeds(seed: int, game: int) -> tuple[np.random.SeedSequence, np.random.SeedSequence]:
    """The board seed and the agent seed of game ``game`` under root ``seed``."""
    # the children of SeedSequence(seed, spawn_key=(game,)).spawn(2), built directly
    board, agent = (np.random.SeedSequence(seed, spawn_key=(game, k)) for k in (0, 1))
    return board, agent


def agent_generator(seed: np.random.SeedSequence) -> np.random.Generator:
    """The agent's generator: the stream of ``default_rng(seed)``, without the seed that names the game.

    ``default_rng(seed)`` keeps ``seed`` in ``rng.bit_generator.seed_seq``,
    whose entropy and spawn key are the run's root seed and the game's index:
    from them an agent could rebuild the board.  This generator has the same
    state, so the same draws, but its seed sequence is one made from that
    state (its children still differ from game to game).

    Examples
    --------
    >>> board, agent = game_seeds(8128, 7)
    >>> rng = agent_generator(agent)
    >>> int(rng.integers(10**9)) == int(np.random.default_rng(agent).integers(10**9))
    True
    >>> rng.bit_generator.seed_seq.spawn_key, 8128 in np.atleast_1d(rng.bit_generator.seed_seq.entropy)
    ((), False)
    """
    state = np.random.PCG64(seed).state
    bits = np.random.PCG64(np.random.SeedSequence(state["state"]["state"]))
    bits.state = state
    return np.random.Generator(bits)


def agent_generator_beside(seed: int) -> np.random.Generator:
    """The agent's generator for a game whose board came from ``new_game(..., seed=seed)`` (the explorer,
    report 001's game): ``default_rng(seed)`` is the board's own stream, from which an agent could redraw
    the mines (a review's agent won 10 expert games of 10 that way); this is a stream of its own, whose
    seed sequence names neither ``seed`` nor the board's (:func:`agent_generator`).

    Examples
    --------
    >>> board, agent = np.random.default_rng(5), agent_generator_beside(5)
    >>> int(board.integers(10**9)) == int(agent.integers(10**9)), agent.bit_generator.seed_seq.spawn_key
    (False, ())
    """
    return agent_generator(np.random.SeedSequence(seed, spawn_key=(1,)))


def play_game(agent: Agent, game: Game, rng: np.random.Generator) -> dict[str, Any]:
    """Play one game to the end through the :func:`~sweeplab.referee.referee`; its outcome counts.

    Besides the counts of :data:`RESULT_COLUMNS`, the seconds each method
    spent (``seconds_<method>``) and the certain moves of methods registered
    after import (``certain_<method>``).
    """
    claims: set[tuple[str, int, int]] = set()

    def note_claims(turn: int, moves: list[Move]) -> None:
        claims.update((m.kind, m.row, m.col) for m in moves if m.claimed)

    with method_seconds() as clock, no_layout_claims() as no_layout:
        played = list(referee(agent, game, rng, on_moves=note_claims))
    moves = [p.move for p in played]
    flag_moves = [m for m in moves if m[0] == "flag"]
    # the sources tallied in C; the per-move work stays in the referee
    by_source = Counter(map(itemgetter(3), moves))
    by_source.subtract(map(itemgetter(3), flag_moves))  # reveals only
    flag_sources = Counter(map(itemgetter(3), flag_moves))
    # a column for every built-in method and every method of the agent's chain, even if it found nothing
    chain = tuple(m.replace("-", "_") for m in getattr(agent, "methods", ()))
    counts = dict.fromkeys(SOURCES + chain, 0)
    for tally in (by_source, flag_sources):
        for source, n in tally.items():
            if n and source not in RESERVED_SOURCES:
                key = source.replace("-", "_")
                counts[key] = counts.get(key, 0) + n
    flags = len(flag_moves)
    reveals = len(moves) - flags
    guesses = by_source["guess"]
    # the referee's verdict: an unfinished game after every turn it allows is stuck
    status = "stuck" if game.status == "playing" else game.status
    layout = game.layout
    # every certain move the agent returned, played or not, is a claim: a zero's flood may open a cell
    # before the same turn's wrong flag on it (no layout before the first reveal: nothing claimed yet)
    wrong = 0 if layout is None else sum(bool(layout[r, c]) != (kind == "flag") for kind, r, c in claims)
    if layout is not None and no_layout:  # "no layout fits" where the game's own layout does: one wrong claim
        wrong += sum(layout_fits(obs, layout, use_total=use_total) for _, obs, use_total in no_layout)
    seconds = dict.fromkeys(SOURCES + chain, 0.0)
    seconds.update((m.replace("-", "_"), t) for m, t in clock.items())
    row = {
        "won": status == "won" and game.mines_hit == 0,
        "status": status,
        "score": game.score,
        "revealed": game.revealed_fraction,
        "mines_hit": game.mines_hit,
        "moves": reveals + flags,
        "reveals": reveals,
        "flags": flags,
        "guesses": guesses,
        "certain": sum(counts.values()),
        "wrong_claims": wrong,
    }
    row.update(zip(_column_names("certain_", tuple(counts)), counts.values(), strict=True))
    row.update(zip(_column_names("seconds_", tuple(seconds)), seconds.values(), strict=True))
    return row


@cache
def _column_names(prefix: str, sources: tuple[str, ...]) -> tuple[str, ...]:
    """``prefix + source`` for every source, in order (built once per set of sources)."""
    return tuple(prefix + s for s in sources)


#: Built-in agents (class, name and methods) whose kernels this process has loaded (:func:`_load_kernels`).
_LOADED: set[tuple[type, str, tuple[str, ...]]] = set()


def _load_kernels(player: Agent, shape: tuple[int, int], mines: int, **rules: Any) -> None:
    """Play one untimed game of a built-in agent, once per process: numba's kernels load on their first
    call (0.5 s from the cache, a minute cold), which the first game's ``seconds`` counted (a reviewer: 87
    against 923 games/s for the same 50 games).  A board up to expert's size, at the same density.
    A researcher's agent plays no such game, nor a researcher's method (either may keep state): a
    built-in agent with one plays the game with its built-in methods alone."""
    methods = tuple(getattr(player, "methods", ()))
    key = (type(player), player.name, methods)  # a chain of other methods loads other kernels
    if key in _LOADED or not type(player).__module__.startswith("sweeplab."):
        return
    _LOADED.add(key)
    builtin = tuple(m for m in methods if m in METHODS and METHODS[m].builtin)
    if builtin != methods:
        if not builtin or not dataclasses.is_dataclass(player):
            return
        try:
            player = dataclasses.replace(player, methods=builtin)
        except (TypeError, ValueError):  # an agent that needs its whole chain: no warm-up
            return
    h, w = shape
    if h * w > 480:
        h, w, mines = 16, 30, round(mines * 480 / (shape[0] * shape[1]))
    try:
        play_game(player, new_game(shape=(h, w), mines=mines, seed=0, **rules),
                  agent_generator(np.random.SeedSequence(0)))
    except ValueError:  # a first move off the smaller board, or a rule it cannot fit: the games will say
        pass


def play(
    agent: str | Agent,
    *,
    level: str | None = None,
    shape: tuple[int, int] | None = None,
    mines: int | None = None,
    density: float | None = None,
    games: int = 100,
    seed: int = 0,
    first_click: str = "safe",
    mode: str = "classic",
    noise: tuple[str, float] | None = None,
    first_move: Any = None,
    start: int = 0,
    workers: int | None = 1,
    scheduler: Any = None,
    progress: bool = False,
    **agent_options: Any,
) -> pd.DataFrame:
    """Play ``games`` games with an agent; one row per game.

    Parameters
    ----------
    agent : str or Agent
        A name in :data:`sweeplab.AGENTS` or an agent instance.
    level : {"beginner", "intermediate", "expert"}, optional
        Or ``shape=(height, width)`` with ``mines`` or ``density``.
    games : int
        Number of games; they are games ``start .. start + games - 1`` of the root ``seed``
        (0: an empty table with every column, for code that concatenates results;
        the command line, where 0 is more likely a slip, refuses it).
    seed : int or numpy.random.Generator
        Root seed (see the module notes: results never depend on the worker count); a
        ``Generator`` gives it by one draw, and the rows record the integer.
    first_click : {"none", "safe", "zero"}
    mode : {"classic", "score"}
    noise : (kind, p), optional
        Clue noise of report 004.
    first_move : "corner", "centre", "random", "auto" or (row, col), optional
        Overrides the agent's opening move.
    start : int
        Index of the first game.
    workers : int, optional
        Local processes (``None``: every core); the default 1 plays in this process.
    scheduler : str or distributed.Client, optional
        A Dask scheduler address (or client): play there instead.  The rows are
        the same for any ``workers`` and ``scheduler`` (timing columns aside).
    progress : bool
        Show a tqdm progress bar.
    **agent_options
        Passed to the agent (for example ``use_total=False``).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`RESULT_COLUMNS`: the parameters (``options``: the agent
        options given, and an agent object's settings other than its class's
        defaults, as :func:`options_text`; ``""`` for none), ``seed`` and ``game``
        index, ``won`` (every safe cell opened without stepping on a mine; a
        board of mines only, ``first_click="none"``, is won before any move),
        ``status`` (the game's at the end: in score mode a game whose safe cells
        are all open is ``"won"`` even when it stepped on mines, so read ``won``;
        ``"stuck"`` when the agent returned no move, as an agent of one's own whose
        ``guess`` returns ``None``; for the reports' agents possible only after
        wrong flags),
        ``score`` (share of mines not stepped on), ``revealed`` (share of safe
        cells opened), moves, reveals and flags (read ``df["flags"]``: ``df.flags``
        is pandas' own attribute), guesses, certain moves by method, wrong
        claims (a "certain" move the agent returned that was wrong, played or
        not: a zero's flood can open a cell before the same turn's flag on it;
        or a method's "no layout fits" where the game's layout fits), seconds.

    Examples
    --------
    >>> df = play("trivial", level="beginner", games=3, seed=1)
    >>> df[["game", "won"]].shape
    (3, 2)
    """
    options = _recorded_options(agent, agent_options)  # before the first move joins them
    if first_move is not None:
        agent_options["first_move"] = first_move
    try:
        player = make_agent(agent, **agent_options)
    except ValueError as exc:  # a misspelt keyword of play reads as an agent option: say which was meant
        keywords = [k for k, v in inspect.signature(play).parameters.items() if v.kind == v.KEYWORD_ONLY]
        meant = close_names(agent_options, keywords)
        if meant and "has no option" in str(exc):
            raise ValueError(f"{exc} (or did you mean {' or '.join(meant)}, an argument of play?)") from None
        raise
    level, shape, mines, density = board_arguments(level, shape, mines, density)  # (16, 30, 99) as a level
    (h, w), n_mines = resolve_board(level, shape=shape, mines=mines, density=density)
    from .executor import (
        check_count,
        check_plan,
        check_positive,
        default_chunk_size,
        root_seed,
        run_tasks,
        split_range,
    )

    games, seed, start = check_count("games", games), root_seed(seed), check_count("start", start)
    noise = check_noise(noise)
    check_rules(first_click, mode)  # refused here, before any game (or progress bar) starts
    check_first_click_fits(first_click, (h, w), n_mines)
    progress = check_flag("progress", progress)
    player = player.for_rules(first_click=first_click, shape=(h, w), mines=n_mines)
    if player.first_move != "random":  # a cell off the board, or one the zero rule cannot clear: refused
        cell = first_cell(player.first_move, (h, w), np.random.default_rng(0))
        check_first_click_fits(first_click, (h, w), n_mines, cell=cell)
    elif first_click == "zero":  # a random first cell may be one with the most neighbours, as (1, 1)
        cell = (min(1, h - 1), min(1, w - 1))
        if not first_click_fits("zero", (h, w), n_mines, cell):
            raise ValueError(f"first_move='random' may open a cell such as {cell}, and a zero first click "
                             f"there cannot fit: {n_mines} mines on {h}x{w} leave fewer than the "
                             f"{kept_free('zero', (h, w), cell).size} cells it keeps free; give a first move "
                             f"(a corner) or fewer mines")

    parallel = check_positive("workers", workers, none="every core") != 1 or scheduler is not None
    if parallel and games:
        size = default_chunk_size(games)
        check_plan(1, games, size, chunks_chosen=False)
        common = {"agent": agent, "level": level, "shape": shape, "mines": mines, "density": density,
                  "seed": seed, "first_click": first_click, "mode": mode, "noise": noise, **agent_options}
        tasks = [{**common, "start": start + s, "games": n} for s, n in split_range(games, size)]
        parts: list = [None] * len(tasks)
        bar = None
        if progress:
            from tqdm.auto import tqdm

            bar = tqdm(total=games, desc=f"{player.name} {level or f'{h}x{w}/{n_mines}'}", unit="game")
        try:
            for i, df in run_tasks(play, tasks, workers=workers, scheduler=scheduler):
                parts[i] = df
                if bar is not None:
                    bar.update(len(df))
        finally:
            if bar is not None:
                bar.close()
        return concat_results(parts)
    if level is None:
        level = next((n for n, lv in LEVELS.items() if lv.shape == (h, w) and lv.mines == n_mines), None)
    params = {
        "agent": player.name, "options": options, "level": level, "height": h, "width": w, "mines": n_mines,
        "first_click": first_click, "mode": mode,
        "noise": None if noise is None else str(noise[0]),
        "noise_p": 0.0 if noise is None else float(noise[1]),
        "first_move": first_move_label(player.first_move, (h, w)), "seed": seed,
    }
    if games:
        _load_kernels(player, (h, w), n_mines, first_click=first_click, mode=mode, noise=noise)
    indices = range(start, start + games)
    if progress:
        from tqdm.auto import tqdm

        indices = tqdm(indices, desc=f"{player.name} {level or f'{h}x{w}/{n_mines}'}", unit="game")
    rows = []
    for i in indices:
        board_ss, agent_ss = game_seeds(seed, i)
        t0 = time.perf_counter()
        game = new_game(shape=(h, w), mines=n_mines, first_click=first_click, mode=mode, noise=noise,
                        seed=board_ss)
        outcome = play_game(player, game, agent_generator(agent_ss))
        rows.append({**params, "game": i, **outcome, "seconds": time.perf_counter() - t0})
    # registered methods' columns (rows longer than the standard ones)
    extra = sorted({k for row in rows if len(row) > len(RESULT_COLUMNS) for k in row} - _COLUMN_SET)
    return concat_results([pd.DataFrame(rows, columns=[*RESULT_COLUMNS, *extra])])  # as parts of a run are
