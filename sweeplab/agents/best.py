"""The strongest agent here: exact probabilities, exact two-step guesses, endgame search (issue 13).

- Forced cells: the single-clue rules, then exact enumeration with the total
  (complete: a cell is opened or flagged exactly when every layout agrees).
- Endgame: when few layouts remain (at most ``endgame_layouts`` over at most
  ``endgame_cells`` covered cells), every sequence of reveals is searched over
  the layouts themselves (:func:`~sweeplab.agents.best_v1.endgame_choice`)
  and the cell with the highest win probability is opened.
- Guess: the covered cells whose exact mine probability is within
  ``tolerance`` of the lowest are candidates.  A "dead" candidate of lowest
  probability (no covered neighbour: nothing later can inform it) is taken at
  once.  Otherwise the ``lookahead`` best candidates by a cheap score
  (safety times the chance its number settles its neighbours, neighbours taken
  as independent) are valued exactly two moves deep:

      value(i) = sum over k of P(i safe and shows k) * next(i, k)

  where ``P(i safe and shows k)`` is exact (:func:`~sweeplab.agents.lookahead.number_distribution`:
  the layouts of the position with ``i`` revealed as ``k`` counted against
  those of the position), and ``next(i, k)`` is 1 when that position has a
  certainly safe cell, else the safety of its safest cell.  ``best-v1`` drew
  ``k`` from independent neighbours instead.
- First move ``"auto"``: the corner, or (2, 2) when the first click is a zero.

Measured while tuning (issue 13; expert, root seed 1000, games 0..999, the
same games for every setting; ``+a/-b``: games won only with the setting /
only without it; ``sweeplab.play("best", level="expert", games=1000, seed=1000, **options)``):

- the exact distributions against ``best-v1``: 40.8% both (safe corner), only
  14 games of 1,000 end differently (+7/-7); 38-42 games per CPU second
  against ``best-v1``'s ~47;
- ``tolerance`` 0.01: +20/-17; 0.05: +13/-19; ``lookahead`` 10: +17/-16
  (31 games/CPU s); ``progress_bonus`` 0.05: +6/-9 -- all within noise, so
  the defaults stay;
- a larger endgame (``endgame_cells=48, endgame_layouts=2000,
  endgame_budget=200_000``): +3/-0 but 7 games/CPU s; (40, 1000, 50_000):
  +2/-0 at 24 games/CPU s -- options, not defaults (under 30 games/CPU s);
- first cell under the zero rule, against (2, 2): (3, 3) +42/-35, (2, 3)
  +34/-27, centre (8, 15) +81/-91, (1, 1) +29/-57: (2, 2) stays.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import MethodRefused
from ..positions import Observation
from .best_v1 import BestV1Agent, endgame_choice, endgame_layouts
from .lookahead import analyse_weighted, number_distribution

__all__ = ["BestAgent", "endgame_layouts", "endgame_choice"]


@dataclass(frozen=True)
class BestAgent(BestV1Agent):
    """Exact probabilities, exact two-step guessing and an exhaustive endgame.

    ``best-v1``'s rules (:class:`~sweeplab.agents.best_v1.BestV1Agent`) with the
    exact distribution of a candidate's number in the two-step value.

    Parameters
    ----------
    first_move : default "auto"
        The corner (where published rates start), or (2, 2) under the "zero"
        first-click rule (see :meth:`Agent.for_rules`).
    tolerance : float, default 0.03
        Cells whose mine probability is within this of the lowest are candidates.
    progress_weight : float, default 0.5
        Weight, in the cheap score that picks the ``lookahead`` candidates, of
        the chance that a guess settles its neighbours.
    lookahead : int, default 5
        How many candidates get the exact two-step value (0 or 1: the cheap score decides).
    progress_bonus : float, default 0.0
        Added to the two-step value: this times the exact chance that the
        candidate's number makes some cell certainly safe.
    endgame_cells, endgame_layouts : int, default 32, 400
        Size limits under which the endgame is searched exhaustively.
    endgame_budget : int, default 20_000
        Search nodes of the endgame search before it gives up (the guess rules then decide).

    Examples
    --------
    >>> agent = BestAgent()
    >>> obs = Observation.from_text("??\\n11\\n..", mines=1)
    >>> [m.source for m in agent.next_moves(obs, np.random.default_rng(0))]
    ['guess']
    """

    progress_bonus: float = 0.0
    name = "best"

    def _two_step(self, obs: Observation, p: np.ndarray, score: np.ndarray) -> np.ndarray:
        """Exact two-step value of the ``lookahead`` best-scored candidates (``-inf`` elsewhere)."""
        if obs.mines is None or not self.use_total:  # layouts are counted with the total
            return score
        try:
            base = analyse_weighted(obs, max_nodes=self.max_nodes)
        except MethodRefused:
            return score
        if base is None:
            return score
        order = np.argsort(-score.ravel(), kind="stable")[: self.lookahead]
        out = np.full(score.shape, -np.inf)
        w = obs.shape[1]
        for i in order:
            if not np.isfinite(score.flat[i]):
                break
            try:
                dist = number_distribution(obs, divmod(int(i), w), base=base, max_nodes=self.max_nodes)
            except MethodRefused:
                continue
            value = progress = 0.0
            for pk, a in dist.values():
                if a.safe:
                    nxt = 1.0
                    progress += pk
                else:
                    assert a.probabilities is not None  # asked for
                    cov = np.isfinite(a.probabilities) & (a.probabilities < 1.0)
                    nxt = 1.0 - float(a.probabilities[cov].min()) if cov.any() else 1.0
                value += pk * nxt
            out.flat[i] = value + self.progress_bonus * progress
        return out
