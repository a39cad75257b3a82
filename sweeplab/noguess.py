"""Players that stop where a guess would be needed, and the cascade of methods (issue 11).

:class:`ReachAgent` runs a chain of methods and never guesses: where its
methods prove nothing it returns no move, so the referee ends the game as
``"stuck"`` at the first forced guess.  :class:`CascadeAgent` tries the
methods of :data:`CASCADE`, weakest first, then guesses.  :func:`solve_layout`
plays a ReachAgent on a fixed layout from an opening cell.  Used by
:mod:`sweeplab.reach` (reach, cascade shares) and :mod:`sweeplab.boards`
(generation and grading).

Examples
--------
>>> import numpy as np
>>> layout = np.zeros((3, 4), dtype=bool); layout[0, 3] = True
>>> solve_layout(layout, (2, 0), "trivial").status
'won'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .agents import Agent, Move
from .errors import InconsistentPositionError, MethodBugError, MethodRefused
from .game import Game
from .positions import Observation, layout_fits
from .referee import referee

__all__ = ["CASCADE", "CONVENTIONS", "MONOTONE", "Progress", "ReachAgent", "CascadeAgent",
           "play_without_guessing", "solve_layout"]

#: The cascade of issue 11 item 2, weakest first; a guess follows when all fail.
CASCADE = ("trivial", "subset", "rref", "bounded", "lp", "enumerate")


@dataclass(frozen=True)
class ReachAgent(Agent):
    """A chain of methods that never guesses (issue 11 item 1).

    Where its methods prove nothing it returns no move, and the referee ends
    the game as ``"stuck"``: the position of the first forced guess.  A method
    refusing a position raises :class:`~sweeplab.MethodRefused` instead: that
    is not a forced guess (:attr:`Progress.refused`).

    Examples
    --------
    >>> agent = ReachAgent(methods=("trivial",), use_total=True)
    >>> agent.next_moves(Observation.from_text("1?\\n??", mines=1), np.random.default_rng(0))
    []
    """

    methods: tuple[str, ...] = ("rref",)
    use_total: bool = True
    first_move: Any = "auto"
    name = "reach"
    refusals_stop = True

    def guess(self, obs: Observation, rng: np.random.Generator) -> None:
        return None


@dataclass(frozen=True)
class CascadeAgent(Agent):
    """The cascade :data:`CASCADE` with the total, then a uniformly random guess (issue 11 item 2)."""

    methods: tuple[str, ...] = CASCADE
    use_total: bool = True
    first_move: Any = "auto"
    name = "cascade"


#: How a solver applies a method's answer (:func:`solve_layout`): ``"all"`` reveals every proved safe
#: cell and flags every proved mine, then asks again (what :class:`ReachAgent` does); ``"reveal"``
#: reveals the safe cells and never flags; ``"single"`` plays one move per question (the first proved
#: safe cell in row-major order, else the first proved mine, flagged).
CONVENTIONS = ("all", "reveal", "single")
#: Methods whose answers only grow with what the position shows, so the three conventions agree on
#: whether they solve a board: propagation to a fixpoint (trivial, subset), the LP relaxation (a smaller
#: polytope) and the complete methods.  One RREF pass (and bounds propagation, which reads RREF rows,
#: and the finite fields) depends on the reduced basis, hence on the order in which cells were learned.
MONOTONE = ("trivial", "subset", "lp", "milp", "enumerate", "brute")


@dataclass(frozen=True)
class Progress:
    """How far a player that never guesses got (:func:`play_without_guessing`).

    Attributes
    ----------
    opened_first : int
        Safe cells the opening click opened (0 when it hit a mine, under the "none" rule).
    turns : int
        Questions asked of the method (answers applied).
    reveals, flags : int
        Cells revealed and flagged after the opening.
    refused : bool
        The game stopped because the method refused a position (past its
        budget, such as ``brute`` past 20 frontier cells), not because it
        proved nothing: no forced guess was reached.
    """

    opened_first: int
    turns: int
    reveals: int
    flags: int
    refused: bool = False


def play_without_guessing(game: Game, method: str, opening: tuple[int, int], *, use_total: bool = True,
                          convention: str = "all") -> Progress:
    """Click ``opening`` on a fresh game, then play ``method`` alone until it proves nothing new.

    The game is left won, or at the first position where a guess would be
    needed.  ``convention`` says how each answer is applied (:data:`CONVENTIONS`).

    Examples
    --------
    >>> game = Game.from_layout(np.array([[0, 0, 0, 1, 0]], dtype=bool))
    >>> play_without_guessing(game, "trivial", (0, 0)), game.status  # the 1 and the total
    (Progress(opened_first=3, turns=1, reveals=1, flags=0, refused=False), 'won')
    """
    if convention not in CONVENTIONS:
        raise ValueError(f"convention must be one of {CONVENTIONS}, got {convention!r}")
    if not isinstance(use_total, bool | np.bool_):
        raise ValueError(f"use_total must be True or False, got {use_total!r}")
    from .methods import METHODS, deduce, no_layout_claims, untimed

    sound = method in METHODS and METHODS[method].sound
    opened_first = turns = reveals = flags = 0
    if convention == "all":
        agent = ReachAgent(methods=(method,), use_total=use_total, first_move=opening)

        def check_claims(turn: int, moves: list[Move]) -> None:  # every claim, one a flood makes moot too
            for move in moves:
                if move.claimed:
                    _check_claim(game, method, move.kind, (move.row, move.col))

        try:
            with no_layout_claims() as no_layout:
                for played in referee(agent, game, np.random.default_rng(0),
                                      on_moves=check_claims if sound else None):
                    if played.move.source == "first":
                        opened_first = 0 if played.hit_mine else played.opened
                        continue
                    turns = played.turn
                    if played.move.kind == "reveal":
                        reveals += 1
                    else:
                        flags += 1
            if sound and no_layout:  # the agent found no move there and the game ended
                _, obs, total = no_layout[0]
                _check_no_layout(game, method, obs, total)
        except MethodRefused:
            return Progress(opened_first, turns, reveals, flags, refused=True)
        return Progress(opened_first, turns, reveals, flags)
    from .positions import COVERED

    opened_first = game.reveal(*opening)
    if game.mines_hit:  # the reveal counts the mine it showed
        opened_first = 0
    while game.status == "playing":
        obs = game.observation
        try:
            d = deduce(obs, method, use_total=use_total, check_consistency=False, **untimed(method))
        except MethodRefused:
            return Progress(opened_first, turns, reveals, flags, refused=True)
        except InconsistentPositionError:
            if sound:
                _check_no_layout(game, method, obs, use_total)
            break
        if sound:  # every claim, also those the convention does not apply
            for kind, cells in (("reveal", d.safe), ("flag", d.mines)):
                for cell in sorted(cells):
                    _check_claim(game, method, kind, cell)
        grid = obs.grid
        safe = [c for c in sorted(d.safe) if grid[c] == COVERED]
        if convention == "single":
            mines = [c for c in sorted(d.mines) if grid[c] == COVERED]
            safe, mines = (safe[:1], []) if safe else ([], mines[:1])
        else:
            mines = []
        if not safe and not mines:
            break
        turns += 1
        for cell in safe:
            if game.status == "playing" and game.observation.grid[cell] == COVERED:
                game.reveal(*cell)
                reveals += 1
        for cell in mines:
            game.flag(*cell)
            flags += 1
    return Progress(opened_first, turns, reveals, flags)


def _check_claim(game: Game, method: str, kind: str, cell: tuple[int, int]) -> None:
    """The layout is known here: a sound method's wrong claim is its bug, said, never a lost game."""
    assert game.layout is not None  # placed by the opening click
    if bool(game.layout[cell]) == (kind == "flag"):
        return
    claim, truth = ("safe", "a mine") if kind == "reveal" else ("a mine", "safe")
    raise MethodBugError(f"method {method!r}, registered sound, claimed {cell} {claim}, but it is {truth} "
                         f"in this layout: a bug in the method; fix it, or register it with sound=False")


def _check_no_layout(game: Game, method: str, obs: Observation, use_total: bool) -> None:
    """A sound method's "no layout fits" on a position the game's layout fits is its bug, said."""
    assert game.layout is not None  # placed by the opening click
    if layout_fits(obs, game.layout, use_total=use_total):
        raise MethodBugError(f"method {method!r}, registered sound, said no layout fits this position, but "
                             f"the game's layout does: a bug in the method; fix it, or register it with "
                             f"sound=False\n{obs.to_text()}")


def solve_layout(layout, opening: tuple[int, int], method: str, *, use_total: bool = True,
                 convention: str = "all") -> Game:
    """Play ``method`` alone from ``opening`` on a fixed layout, without guessing; the game at its end.

    The game's status is ``"won"`` when the method opened every safe cell, else
    ``"playing"``, left at the first position where the method proved nothing
    new.  ``convention`` says how each answer is applied (:data:`CONVENTIONS`).

    Examples
    --------
    >>> layout = np.zeros((3, 4), dtype=bool); layout[0, 3] = True
    >>> [solve_layout(layout, (2, 0), "trivial", convention=c).status for c in CONVENTIONS]
    ['won', 'won', 'won']
    """
    game = Game.from_layout(layout)
    play_without_guessing(game, method, opening, use_total=use_total, convention=convention)
    return game
