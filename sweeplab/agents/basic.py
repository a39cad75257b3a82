"""The reports' agents built from one chain of methods and a uniform random guess.

Each class says which report section it reproduces; the guess is a uniformly
random covered cell, as in reports 000 and 003.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..positions import COVERED, Observation
from .base import Agent, Move

__all__ = ["RandomAgent", "TrivialAgent", "CspAgent", "LstsqAgent", "RrefAgent", "ChainAgent"]


@dataclass(frozen=True)
class RandomAgent(Agent):
    """Report 000 §2.1: reveal a uniformly random covered cell, every move.

    Examples
    --------
    >>> from sweeplab import Observation
    >>> agent = RandomAgent()
    >>> [m.source for m in agent.next_moves(Observation.from_text("1?\\n??"), np.random.default_rng(0))]
    ['guess']
    """

    name = "random"
    unused_options = frozenset({"use_total", "noise_aware", "methods", "max_nodes"})  # it deduces nothing

    def next_moves(self, obs: Observation, rng: np.random.Generator) -> list[Move]:
        if self.first_move != "random" and not np.count_nonzero(obs.grid != COVERED):
            return super().next_moves(obs, rng)  # the opening cell asked for (it was ignored)
        cell = self.guess(obs, rng)
        # the opening is "first" as for every agent, though it is drawn as any other random cell
        source = "guess" if np.count_nonzero(obs.grid != COVERED) else "first"
        return [] if cell is None else [Move("reveal", cell[0], cell[1], source)]


@dataclass(frozen=True)
class TrivialAgent(Agent):
    """Report 000 §2.2 ("simple logic"): single-clue rules, else a random guess.

    Every clue whose number equals its covered neighbours flags them; every clue
    whose number equals its known mines opens the rest.  With a fixed
    ``first_move`` it is report 000 §2.3's "fixed initial cell".

    Examples
    --------
    >>> from sweeplab import Observation
    >>> TrivialAgent().next_moves(Observation.from_text("?1\\n11"), np.random.default_rng(0))
    [Move(kind='flag', row=0, col=0, source='trivial')]
    """

    methods: tuple[str, ...] = ("trivial",)
    name = "trivial"


@dataclass(frozen=True)
class CspAgent(Agent):
    """Report 000 §2.5 ("logic and CSP"): simple logic, then exact constraint
    solving (every solution of the frontier CSP), then a random guess.

    It uses the exact mine total, interior included (``use_total=False`` drops
    it); the report is ambiguous about its own (an equality over all cells in
    §2.4.1, an upper bound on the frontier in §3.1 and §4.4.1) and time-limits
    its OR-Tools solver (§4.4.2), so it may prove fewer cells.
    ``methods=("trivial", "milp")`` uses integer programming, as the report's
    solver did; within their time limits both prove the same cells (both are complete).
    """

    methods: tuple[str, ...] = ("trivial", "enumerate")
    use_total: bool = True
    name = "csp"


@dataclass(frozen=True)
class LstsqAgent(Agent):
    """Report 000 §3.1: simple logic, then minimum-norm least squares, claiming
    the values near 0 or 1, then a random guess.  The claims are not proved; the
    simulator counts the wrong ones.  As in the report it ignores the total.
    """

    methods: tuple[str, ...] = ("trivial", "lstsq")
    name = "lstsq"


@dataclass(frozen=True)
class RrefAgent(Agent):
    """Report 003 Algorithm B: row-reduce ``[A|b]`` every move, open the cells
    the reduced rows fix, flag the fixed mines, else open a random cell.
    """

    methods: tuple[str, ...] = ("rref",)
    name = "rref"


@dataclass(frozen=True)
class ChainAgent(Agent):
    """Any chain of methods (``methods=("trivial", "subset", "bounded")``...) with
    a random guess: for comparing methods inside the same player."""

    methods: tuple[str, ...] = ("trivial",)
    name = "chain"
