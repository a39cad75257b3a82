"""Report 004's improved agent: exact mine probabilities, lowest-probability guess.

Report 004 enumerates every assignment of each border (backtracking, borders
split into independent parts), opens the cells with probability 0, flags those
with probability 1, and otherwise opens the border cell with the lowest
probability; knowing the number of mines, it compares that with the interior
estimate and opens a random interior cell when the interior is safer.  Here the
probabilities are exact, combined with the total by binomial weights
(:func:`sweeplab.probabilities`), so the interior probability is exact too.
Under "under"/"over" clue noise the clues are inequalities (report 004 §4).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InconsistentPositionError, MethodRefused
from ..methods import deduce
from ..positions import COVERED, Observation
from .base import Agent, Move, frontier_mask, moves_from, random_covered, read_as_exact
from .reductio import local_estimates

__all__ = ["ProbabilityAgent"]


@dataclass(frozen=True)
class ProbabilityAgent(Agent):
    """Report 004's improved agent.

    Parameters
    ----------
    use_total : bool, default True
        Report 004's ``knowN``: weight the border assignments by the ways to
        place the remaining mines in the interior, and compare with the interior.
    methods : tuple of str, default ("trivial", "enumerate")
        The forced cells (probability 0 or 1).  ``trivial`` first is only a
        shortcut: the guesses happen in the same positions.
    """

    methods: tuple[str, ...] = ("trivial", "enumerate")
    use_total: bool = True
    name = "probability"

    def __post_init__(self) -> None:
        super().__post_init__()
        if "enumerate" not in self.methods:  # without it every guess would be uniformly random
            raise ValueError(f"{self.name}: option methods must include 'enumerate' (its probabilities "
                             f"choose the guesses), got {self.methods!r}; "
                             f"e.g. methods=('trivial', 'enumerate')")

    def next_moves(self, obs: Observation, rng: np.random.Generator) -> list[Move]:
        if not np.count_nonzero(obs.grid != COVERED):
            return super().next_moves(obs, rng)
        if not self.noise_aware and obs.noise is not None:
            obs = read_as_exact(obs)
        chain = self.chain(obs)
        cheap = tuple(m for m in chain if m != "enumerate")
        moves = self.moves_proved_by(obs, cheap)
        if moves or "enumerate" not in chain:
            return moves or self._guess_moves(obs, rng, None)
        try:
            e = deduce(obs, "enumerate", use_total=self.use_total, max_nodes=self.max_nodes,
                       probabilities=True, time_limit=None)
        except InconsistentPositionError:
            return self._guess_moves(obs, rng, None)
        except MethodRefused:  # a block too large to enumerate (noisy bounds): local estimates
            return self._guess_moves(obs, rng, local_estimates(obs.grid))
        if e.safe or e.mines:
            return moves_from(e.safe, e.mines, "enumerate")
        p = np.array(e.probabilities, dtype=float)
        p[obs.grid != COVERED] = np.nan
        return self._guess_moves(obs, rng, p)

    def _guess_moves(self, obs, rng, p) -> list[Move]:
        if not np.count_nonzero(obs.grid == COVERED):  # nothing to guess (a position with every cell shown)
            return []
        cell = self.guess(obs, rng, p)
        return [] if cell is None else [Move("reveal", cell[0], cell[1], "guess")]

    def guess(self, obs: Observation, rng: np.random.Generator, p: np.ndarray | None = None):
        """Report 004: the safest border cell, or a random interior cell when the interior is safer."""
        grid = obs.grid
        if p is None:
            return random_covered(grid, rng)
        border = frontier_mask(grid)
        interior = (grid == COVERED) & ~border
        if not border.any():
            return random_covered(grid, rng)
        low = np.nanmin(np.where(border, p, np.nan))
        p_int = np.where(interior, p, np.nan)
        if self.use_total and obs.mines is not None and np.isfinite(p_int).any():
            if np.nanmin(p_int) < low:
                return random_covered(grid, rng, mask=interior)
        return random_covered(grid, rng, mask=border & (p == low))
