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

from ..positions import COVERED, Observation
from .base import Agent, frontier_mask, random_covered

__all__ = ["ProbabilityAgent", "mine_probabilities"]


def mine_probabilities(obs: Observation, *, use_total: bool = True) -> np.ndarray:
    """Exact mine probabilities of the covered cells (``nan`` elsewhere)."""
    from .. import probabilities  # the library's exact method (imported lazily: heavy)

    if not use_total and obs.mines is not None:
        obs = obs.with_mines(None)
    p = np.asarray(probabilities(obs), dtype=float).copy()
    p[obs.grid != COVERED] = np.nan
    return p


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

    def guess(self, obs: Observation, rng: np.random.Generator):
        grid = obs.grid
        p = mine_probabilities(obs, use_total=self.use_total)
        border = frontier_mask(grid)
        interior = (grid == COVERED) & ~border
        if not border.any():
            return random_covered(grid, rng)
        low = np.nanmin(np.where(border, p, np.nan))
        if interior.any() and self.use_total and obs.mines is not None:
            p_int = np.nanmin(np.where(interior, p, np.nan))
            if p_int < low:
                return random_covered(grid, rng, mask=interior)
        return random_covered(grid, rng, mask=border & (p == low))
