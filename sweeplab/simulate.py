"""Playing agents: :func:`play` runs games and returns one tidy row per game (SPEC §5).

The simulator is the referee: it owns the :class:`~sweeplab.game.Game`, hands
the agent only ``game.observation`` and plays the moves it gets back.  It knows
the layout, so it counts the *wrong claims* of unsound agents (a "certain"
reveal that hits a mine, a "certain" flag on a safe cell).

Game ``i`` of a run with root seed ``seed`` is seeded by
``SeedSequence(seed, spawn_key=(i,))`` (the ``i``-th child of
``SeedSequence(seed).spawn``): the board from its first child, the agent's
random choices from its second.  A game's outcome therefore depends only on
``(seed, i)`` and the parameters, never on the worker or the order.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pandas as pd

from .agents import Agent, make_agent
from .game import LEVELS, Game, new_game, resolve_board
from .methods import METHODS

__all__ = ["play", "play_game", "game_seeds", "RESULT_COLUMNS"]

#: Sources of certain moves recorded per game, one ``certain_<source>`` column each.
SOURCES = tuple(m.replace("-", "_") for m in METHODS)

#: Columns of :func:`play`'s result, in order.
RESULT_COLUMNS = (
    "agent", "level", "height", "width", "mines", "first_click", "mode", "noise", "noise_p", "first_move",
    "seed", "game", "won", "status", "score", "revealed", "mines_hit", "moves", "reveals", "flags",
    "guesses", "certain", *(f"certain_{s}" for s in SOURCES), "wrong_claims", "seconds",
)


def game_seeds(seed: int, game: int) -> tuple[np.random.SeedSequence, np.random.SeedSequence]:
    """The board seed and the agent seed of game ``game`` under root ``seed``."""
    # the children of SeedSequence(seed, spawn_key=(game,)).spawn(2), built directly
    board, agent = (np.random.SeedSequence(seed, spawn_key=(game, k)) for k in (0, 1))
    return board, agent


def play_game(agent: Agent, game: Game, rng: np.random.Generator) -> dict[str, Any]:
    """Play one game to the end; return its outcome counts.

    The agent is called with ``game.observation`` and ``rng`` only.  A turn in
    which none of its moves changes the board ends the game as ``"stuck"``
    (possible only after wrong flags).
    """
    counts = dict.fromkeys(SOURCES, 0)
    guesses = reveals = flags = wrong = 0
    wrong_flags: list[tuple[int, int]] = []
    limit = 4 * game.shape[0] * game.shape[1] + 10
    status = game.status
    for _ in range(limit):
        if game.status != "playing":
            break
        moves = agent.next_moves(game.observation, rng)
        changed = False
        for kind, r, c, source in moves:
            if game.status != "playing":
                break
            certain = source not in ("guess", "first")
            if kind == "reveal":
                hit_before = game.mines_hit
                try:
                    opened = game.reveal(r, c)
                except ValueError:  # a cell the agent flagged itself
                    continue
                if not opened:
                    continue
                reveals += 1
                if certain:
                    counts[source.replace("-", "_")] += 1
                    wrong += game.mines_hit > hit_before
                else:
                    guesses += source == "guess"
            elif kind == "flag":
                before = len(game.moves)
                try:
                    game.flag(r, c)
                except ValueError:  # already revealed
                    continue
                if len(game.moves) == before:
                    continue
                flags += 1
                if certain:
                    counts[source.replace("-", "_")] += 1
                    wrong_flags.append((r, c))
            else:
                raise ValueError(f"agent {agent.name!r} returned an unknown move kind {kind!r}")
            changed = True
        if not changed:
            status = "stuck"
            break
    else:
        status = "stuck"
    if game.status != "playing":
        status = game.status
    layout = game.layout
    if layout is not None:
        wrong += sum(not layout[r, c] for r, c in wrong_flags)
    return {
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
        **{f"certain_{s}": n for s, n in counts.items()},
        "wrong_claims": wrong,
    }


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
        Number of games; they are games ``start .. start + games - 1`` of the root ``seed``.
    seed : int
        Root seed (see the module notes: results never depend on the worker count).
    first_click : {"none", "safe", "zero"}
    mode : {"classic", "score"}
    noise : (kind, p), optional
        Clue noise of report 004.
    first_move : "corner", "centre", "random" or (row, col), optional
        Overrides the agent's opening move.
    progress : bool
        Show a tqdm progress bar.
    **agent_options
        Passed to the agent (for example ``use_total=False``).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`RESULT_COLUMNS`: the parameters, ``seed`` and ``game``
        index, ``won`` (every safe cell opened without stepping on a mine),
        ``score`` (share of mines not stepped on), ``revealed`` (share of safe
        cells opened), moves, guesses, certain moves by method, wrong claims,
        seconds.

    Examples
    --------
    >>> df = play("trivial", level="beginner", games=3, seed=1)
    >>> df[["game", "won"]].shape
    (3, 2)
    """
    if first_move is not None:
        agent_options["first_move"] = first_move
    player = make_agent(agent, **agent_options)
    (h, w), n_mines = resolve_board(level, shape=shape, mines=mines, density=density)
    if isinstance(games, bool) or int(games) != games or games < 0:
        raise ValueError(f"games must be a non-negative integer, got {games!r}")
    if int(seed) != seed or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    player = player.for_rules(first_click=first_click, shape=(h, w))
    if level is None:
        level = next((n for n, lv in LEVELS.items() if lv.shape == (h, w) and lv.mines == n_mines), None)
    fm = player.first_move
    params = {
        "agent": player.name, "level": level, "height": h, "width": w, "mines": n_mines,
        "first_click": first_click, "mode": mode,
        "noise": None if noise is None else str(noise[0]),
        "noise_p": 0.0 if noise is None else float(noise[1]),
        "first_move": fm if isinstance(fm, str) else f"{fm[0]},{fm[1]}", "seed": int(seed),
    }
    indices = range(int(start), int(start) + int(games))
    if progress:
        from tqdm.auto import tqdm

        indices = tqdm(indices, desc=f"{player.name} {level or f'{h}x{w}/{n_mines}'}", unit="game")
    rows = []
    for i in indices:
        board_ss, agent_ss = game_seeds(int(seed), i)
        t0 = time.perf_counter()
        game = new_game(shape=(h, w), mines=n_mines, first_click=first_click, mode=mode, noise=noise,
                        seed=board_ss)
        outcome = play_game(player, game, np.random.default_rng(agent_ss))
        rows.append({**params, "game": i, **outcome, "seconds": time.perf_counter() - t0})
    return pd.DataFrame(rows, columns=list(RESULT_COLUMNS))
