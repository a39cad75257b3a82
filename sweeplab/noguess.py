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

from .agents import Agent
from .game import Game
from .positions import Observation
from .referee import referee

__all__ = ["CASCADE", "ReachAgent", "CascadeAgent", "solve_layout"]

#: The cascade of issue 11 item 2, weakest first; a guess follows when all fail.
CASCADE = ("trivial", "subset", "rref", "bounded", "lp", "enumerate")


@dataclass(frozen=True)
class ReachAgent(Agent):
    """A chain of methods that never guesses (issue 11 item 1).

    Where its methods prove nothing it returns no move, and the referee ends
    the game as ``"stuck"``: the position of the first forced guess.

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

    def guess(self, obs: Observation, rng: np.random.Generator) -> None:
        return None


@dataclass(frozen=True)
class CascadeAgent(Agent):
    """The cascade :data:`CASCADE` with the total, then a uniformly random guess (issue 11 item 2)."""

    methods: tuple[str, ...] = CASCADE
    use_total: bool = True
    first_move: Any = "auto"
    name = "cascade"


def solve_layout(layout, opening: tuple[int, int], method: str, *, use_total: bool = True) -> Game:
    """Play ``method`` alone from ``opening`` on a fixed layout, without guessing; the game at its end.

    The game's status is ``"won"`` when the method opened every safe cell, else
    ``"playing"``, left at the first position where the method proved nothing.
    """
    game = Game.from_layout(layout)
    agent = ReachAgent(methods=(method,), use_total=use_total, first_move=opening)
    for _ in referee(agent, game, np.random.default_rng(0)):
        pass
    return game
