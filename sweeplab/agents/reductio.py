"""Report 001's advanced agent, "reductio ad absurdum".

Its knowledge base first yields what single rules give (the basic agent's
inference: a rule with value 0 opens its cells, a rule with value equal to its
size flags them).  When that is empty it queries the knowledge base cell by
cell, assuming mine and then safe and looking for a contradiction: that is a
complete, sound test, which the library's exact methods (``enumerate``, or
``milp`` one integer program per assumption) carry out.  Two of its bonus
features are options:

- *global information*: the rule "all cells sum to the total" (``use_total``);
- *better decisions*: guess the cell with the lowest local mine estimate,
  (clue - identified mines) / (unidentified cells) around each revealed
  neighbour, the maximum over those neighbours.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..positions import COVERED, FLAG, MINE, Observation, neighbour_counts
from .base import Agent, random_covered

__all__ = ["ReductioAgent", "local_estimates"]

_OFFSETS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]


def local_estimates(grid: np.ndarray) -> np.ndarray:
    """Report 001 "Better Decisions": each covered cell's local mine estimate.

    For each revealed clue, (clue - known mines around) / (covered cells around);
    a covered cell takes the maximum over its revealed neighbours; ``nan`` where
    no revealed clue touches it.

    Examples
    --------
    >>> from sweeplab import Observation
    >>> est = local_estimates(Observation.from_text("1??\\n???").grid)
    >>> est[0, 1], np.isnan(est[0, 2])
    (np.float64(0.3333333333333333), np.True_)
    """
    h, w = grid.shape
    covered = grid == COVERED
    known = (grid == FLAG) | (grid == MINE)
    n_cov = neighbour_counts(covered)
    n_known = neighbour_counts(known)
    clue = grid >= 0
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(clue & (n_cov > 0), (grid - n_known) / np.maximum(n_cov, 1), np.nan)
    padded = np.pad(ratio, 1, constant_values=np.nan)
    best = np.full((h, w), -np.inf)
    for dr, dc in _OFFSETS:
        best = np.fmax(best, padded[1 + dr : 1 + dr + h, 1 + dc : 1 + dc + w])
    best[~np.isfinite(best)] = np.nan
    best[~covered] = np.nan
    return best


@dataclass(frozen=True)
class ReductioAgent(Agent):
    """Report 001's advanced ("reductio ad absurdum") agent.

    Parameters
    ----------
    methods : tuple of str, default ("trivial", "enumerate")
        Single-rule inference, then proof by contradiction on every cell
        (``"milp"`` gives the same cells, slower).
    use_total : bool, default True
        Report 001 "Global Information": the total-mines rule.
    better_decisions : bool, default True
        Report 001 "Better Decisions": guess the lowest local estimate among
        cells next to a revealed clue; otherwise (or when no cell has an
        estimate) a uniformly random covered cell.

    Examples
    --------
    >>> from sweeplab import Observation
    >>> obs = Observation.from_text("2??\\n1??\\n???", mines=3)
    >>> ReductioAgent().guess(obs, np.random.default_rng(0)) in {(2, 0), (2, 1)}
    True
    """

    methods: tuple[str, ...] = ("trivial", "enumerate")
    use_total: bool = True
    better_decisions: bool = True
    name = "reductio"

    def guess(self, obs: Observation, rng: np.random.Generator):
        if not self.better_decisions:
            return random_covered(obs.grid, rng)
        est = local_estimates(obs.grid)
        if np.isnan(est).all():
            return random_covered(obs.grid, rng)
        low = np.nanmin(est)
        return random_covered(obs.grid, rng, mask=est == low)
