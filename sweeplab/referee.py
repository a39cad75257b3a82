"""The referee: one loop that plays an agent's moves on a game (SPEC §5).

The referee owns the :class:`~sweeplab.game.Game`, hands the agent only
``game.observation`` and a random generator, and applies the moves it gets
back.  :func:`sweeplab.play`, the corpus, the experiments and the explorer all
play through :func:`referee`, so a move means the same everywhere: a reveal of
a cell the agent flagged itself, or a move on a cell no longer covered, changes
nothing and is skipped (an earlier move of the same turn may have opened it); a
turn in which the agent returns no move ends the game as ``"stuck"`` (for the
reports' agents, possible only after wrong flags: every covered cell is
flagged), and one in which it returns moves but none changes the board is an
error naming the agent, as is a move off the board.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import NamedTuple

import numpy as np

from .agents import AGENTS, Agent, Move
from .errors import AgentBugError, InconsistentPositionError, MethodBugError, MethodRefused, interrupted
from .game import FlaggedCellError, Game
from .methods import METHODS, RESERVED_SOURCES
from .positions import Observation, cell_pair

__all__ = ["Played", "referee"]

#: ``_new(Played, fields)`` builds a Played without the Python-level constructor (once per move).
_new = tuple.__new__


class Played(NamedTuple):
    """One move that changed the board.

    Attributes
    ----------
    turn : int
        The agent call that returned it (0 for the first).
    move : Move
        ``kind, row, col, source`` as the agent returned it.
    opened : int
        Cells the reveal opened (0 for a flag).
    hit_mine : bool
        The reveal stepped on a mine.
    """

    turn: int
    move: Move
    opened: int
    hit_mine: bool


def referee(
    agent: Agent,
    game: Game,
    rng: np.random.Generator,
    *,
    max_turns: int | None = None,
    on_turn: Callable[[int, Observation], None] | None = None,
    on_moves: Callable[[int, list[Move]], None] | None = None,
) -> Generator[Played, None, str]:
    """Play ``agent`` on ``game``, yielding every move that changed the board.

    Parameters
    ----------
    agent : Agent
    game : Game
        Played in place.
    rng : numpy.random.Generator
        The agent's random choices.
    max_turns : int, optional
        Stop after this many agent calls (default: enough for any game,
        ``4 * cells + 10``, past which the game is ``"stuck"``).
    on_turn : callable, optional
        ``on_turn(turn, observation)`` before each agent call.
    on_moves : callable, optional
        ``on_moves(turn, moves)`` with every move the agent returned, before
        any is applied: the claims a move of the same turn makes moot (a cell
        opened by a zero's flood before its flag) are claims all the same.

    Returns
    -------
    str
        The generator's return value: the game's status, ``"stuck"`` when the
        agent could not move or ran out of turns, ``"playing"`` after
        ``max_turns``.

    Examples
    --------
    >>> from sweeplab import Game
    >>> from sweeplab.agents import make_agent
    >>> game = Game.from_layout(np.array([[0, 1, 0, 0]], dtype=bool))
    >>> played = list(referee(make_agent("trivial", first_move=(0, 3)), game, np.random.default_rng(0)))
    >>> [(p.move.kind, p.move.col, p.move.source) for p in played], game.status
    ([('reveal', 3, 'first'), ('flag', 1, 'trivial'), ('reveal', 0, 'guess')], 'won')
    """
    h, w = game.shape
    limit = 4 * h * w + 10 if max_turns is None else max_turns
    for turn in range(limit):
        if game.status != "playing":
            return game.status
        obs = game.observation
        if on_turn is not None:
            on_turn(turn, obs)
        changed = False
        given = _next_moves(agent, obs, rng)
        if given is None:
            raise AgentBugError(f"agent {agent.name!r} returned None from next_moves; it returns a list "
                                f"of sweeplab.agents.Move (empty when it has no move: the game is stuck)")
        moves = list(given)
        for move in moves:
            if type(move) is not Move and not isinstance(move, Move):
                raise AgentBugError(f"agent {agent.name!r} returned {move!r} among its moves; next_moves "
                                    f"returns a list of sweeplab.agents.Move(kind, row, col, source)")
        if on_moves is not None:
            on_moves(turn, moves)
        for move in moves:
            if game.status != "playing":
                break
            kind, r, c, source = move
            if source not in RESERVED_SOURCES and source not in METHODS:  # its guesses would count as claims
                raise AgentBugError(f"agent {agent.name!r} returned the move {kind} at {(r, c)} with source "
                                    f"{source!r}; a move's source is 'first', 'guess' (not proved) or the "
                                    f"name of the registered method that proved the cell")
            # a bug in the agent too (a flag at such a cell was skipped as if the cell were revealed)
            if (type(r) is not int or type(c) is not int) and cell_pair((r, c)) is None:
                raise AgentBugError(f"agent {agent.name!r} returned the move {kind} at {(r, c)!r}: row "
                                    f"and column must be integers")
            if not (0 <= r < h and 0 <= c < w):  # a bug in the agent: not a move the game may skip
                raise AgentBugError(f"agent {agent.name!r} returned the move {kind} at {(r, c)}, outside "
                                    f"the {h}x{w} board")
            if kind == "reveal":
                hit_before = game.mines_hit
                try:
                    opened = game.reveal(r, c)
                except FlaggedCellError:  # a cell the agent flagged itself
                    continue
                if not opened:
                    continue
                played = _new(Played, (turn, move, opened, game.mines_hit > hit_before))
            elif kind == "flag":
                before = len(game.moves)
                try:
                    game.flag(r, c)
                except ValueError:  # already revealed
                    continue
                if len(game.moves) == before:
                    continue
                played = _new(Played, (turn, move, 0, False))
            else:
                raise AgentBugError(f"agent {agent.name!r} returned the move kind {kind!r}; "
                                    "allowed: 'reveal', 'flag'")
            changed = True
            yield played
        if not changed and moves:  # a bug in the agent, as a move off the board: not a game it lost
            shown = ", ".join(f"{kind} {(r, c)} [{source}]" for kind, r, c, source in moves[:3])
            raise AgentBugError(f"agent {agent.name!r} returned only moves that change nothing ({shown}"
                                f"{', ...' if len(moves) > 3 else ''}): cells already revealed, or flagged; "
                                f"an agent's moves are on covered, unflagged cells")
        if not changed:
            return "stuck"
    if game.status != "playing":
        return game.status
    return "stuck" if max_turns is None else "playing"


def _next_moves(agent: Agent, obs: Observation, rng: np.random.Generator):
    """``agent.next_moves(obs, rng)``; what it raises names the agent and the position.  A ``ValueError`` of
    an agent that is not built in is :class:`~sweeplab.errors.AgentBugError` (the command line's exit 1):
    raised mid-game, by code of the agent's own, not by the checks of the input; so is a method's refusal
    (or "no layout fits") a registered agent lets through, which leaves its game without a move."""
    try:
        return agent.next_moves(obs, rng)
    except (AgentBugError, MethodBugError):
        raise  # named already
    except Exception as exc:
        if interrupted(exc):
            raise
        info = AGENTS.get(agent.name)
        builtin, plugin = info is not None and info.builtin, info is not None and not info.builtin
        if isinstance(exc, (MethodRefused, InconsistentPositionError)) and not plugin:
            raise  # an answer the caller reads (reach counts a refused game), of sweeplab's own agents
        where = (f"raised by agent {agent.name!r} on this position (mines={obs.mines}, noise={obs.noise}):\n"
                 f"{obs.to_text()}")
        if isinstance(exc, ValueError) and not builtin:
            bug = AgentBugError(f"agent {agent.name!r} raised {type(exc).__name__}: {exc} (a bug in the "
                                f"agent, or an option value it cannot use: sweeplab agents {agent.name} "
                                f"lists its options)")
            for note in [*getattr(exc, "__notes__", ()), where]:  # the agent's own hints, then where
                bug.add_note(note)
            raise bug from exc
        exc.add_note(where)
        raise
