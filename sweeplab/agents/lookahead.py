"""Layout counts of a position, and the exact distribution of the number a covered cell will show.

The ``best`` agent (issue 13) values a guess by what its number will tell.
The number a safe cell ``i`` shows is the count of mines around it; its
distribution is *not* that of independent neighbours: the clues and the total
tie the neighbours together.  It is exact by conditioning: the layouts in
which ``i`` is safe and shows ``k`` are exactly the layouts of the position
with ``i`` revealed as ``k``, so

    P(i safe and shows k) = W(position with i showing k) / W(position),

where ``W`` counts the layouts of the covered cells consistent with the clues
and the total.  :func:`analyse_weighted` returns ``log W`` with the exact
probabilities and forced cells, from one enumeration (the blocks'
counts per number of mines of :mod:`sweeplab.methods.enumerate`, combined with
the interior through ``C(I, R - S)`` in log space).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import gammaln

from ..clue_system import clue_system
from ..errors import ComponentTooLargeError, InconsistentPositionError
from ..methods.enumerate import MAX_NODES, MAX_STATES, _combine, _dp_counts, _search
from ..positions import COVERED, FLAG, MINE, Observation, neighbour_table

__all__ = ["Weighted", "analyse_weighted", "number_distribution"]


@dataclass(frozen=True)
class Weighted:
    """One exact analysis of a position (with the total).

    Attributes
    ----------
    log_weight : float
        Natural log of the number of layouts of the covered cells consistent with the clues and the total.
    safe, mines : numpy.ndarray
        Flat indices of the cells safe (mined) in every such layout.
    probabilities : numpy.ndarray
        Mine probability of every cell (``nan`` on revealed cells), shaped as the board.
    """

    log_weight: float
    safe: np.ndarray
    mines: np.ndarray
    probabilities: np.ndarray


def _log_total(counts: np.ndarray, coff: np.ndarray, R: int, I: int) -> float:
    """log of sum over frontier totals S of prod(block counts) * C(I, R - S)."""
    poly = np.ones(1)
    log_scale = 0.0
    for c in range(coff.size - 1):
        block = counts[coff[c]: coff[c + 1]]
        top = block.max()
        if top <= 0:
            return -np.inf
        poly = np.convolve(poly, block / top)
        peak = poly.max()
        poly /= peak
        log_scale += np.log(top) + np.log(peak)
    t = R - np.arange(poly.size)
    ok = (t >= 0) & (t <= I) & (poly > 0)
    if not ok.any():
        return -np.inf
    t = t[ok]
    terms = np.log(poly[ok]) + gammaln(I + 1) - gammaln(t + 1) - gammaln(I - t + 1)
    m = terms.max()
    return float(log_scale + m + np.log(np.exp(terms - m).sum()))


def analyse_weighted(obs: Observation, *, max_nodes: int = MAX_NODES) -> Weighted | None:
    """Exact layout count (log), forced cells and probabilities of a position with a known total.

    ``None`` when no layout fits.  Raises :class:`~sweeplab.MethodRefused`
    (:class:`~sweeplab.errors.ComponentTooLargeError`) past enumeration's size caps.

    Examples
    --------
    >>> a = analyse_weighted(Observation.from_text("1?\\n??", mines=1))
    >>> round(float(np.exp(a.log_weight)), 6), a.probabilities.round(3).tolist()
    (3.0, [[nan, 0.333], [0.333, 0.333]])
    """
    if obs.mines is None:
        raise ValueError("analyse_weighted needs the total number of mines")
    try:
        p = clue_system(obs, use_total=True).grouped()
    except InconsistentPositionError:
        return None
    G = p.group_size.size
    if G:
        comp, counts, coff, gmines, cansafe, goff, over, status = _search(
            p.group_size, p.row_ptr, p.row_groups, p.lo, p.hi, int(max_nodes))
        if status:
            _dp_counts(p, MAX_STATES, blocks=np.flatnonzero(over).tolist(), out=(counts, gmines, cansafe))
    else:
        comp = np.zeros(0, np.int64)
        counts = np.zeros(0)
        coff = np.zeros(1, np.int64)
        gmines = np.zeros(0)
        cansafe = np.zeros(0, np.bool_)
        goff = np.zeros(0, np.int64)
    I = int(p.interior.size)
    R = p.remaining
    assert R is not None  # use_total with a known total
    status, safe_g, mine_g, prob_g, int_safe, int_mine, int_prob = _combine(
        comp, counts, coff, gmines, cansafe, goff, p.group_size, R, I, True, True)
    if status in (1, 2):
        return None
    if status == 3:
        raise ComponentTooLargeError("too many independent blocks to combine")
    cells, cell_group = p.cells, p.cell_group
    safe = np.concatenate([cells[safe_g[cell_group]], p.interior if int_safe else p.interior[:0]])
    mines = np.concatenate([cells[mine_g[cell_group]], p.interior if int_mine else p.interior[:0]])
    flat = obs.grid.ravel()
    probs = np.full(flat.size, np.nan)
    probs[(flat == FLAG) | (flat == MINE)] = 1.0
    probs[cells] = prob_g[cell_group]
    probs[p.interior] = int_prob
    probs[safe] = 0.0
    probs[mines] = 1.0
    return Weighted(_log_total(counts, coff, R, I), safe, mines, probs.reshape(obs.shape))


def number_distribution(obs: Observation, cell: tuple[int, int], *, base: Weighted | None = None,
                        max_nodes: int = MAX_NODES, floor: float = 0.0) -> dict[int, tuple[float, Weighted]]:
    """``{k: (P(cell safe and shows k), analysis of the position with cell showing k)}``, exactly.

    The probabilities sum to ``P(cell safe)``.  Numbers with probability
    below ``floor`` are left out.  ``base`` is the analysis of ``obs`` if
    already done.

    Examples
    --------
    >>> obs = Observation.from_text("1??\\n???", mines=1)
    >>> d = number_distribution(obs, (0, 2))
    >>> {k: round(pk, 4) for k, (pk, _) in d.items()}
    {0: 0.3333, 1: 0.6667}
    """
    base = base or analyse_weighted(obs, max_nodes=max_nodes)
    if base is None:
        return {}
    grid = obs.grid
    r, c = cell
    i = r * grid.shape[1] + c
    nb = neighbour_table(obs.shape)[i]
    nb = nb[nb >= 0]
    flat = grid.ravel()
    known = int(np.count_nonzero((flat[nb] == FLAG) | (flat[nb] == MINE)))
    unknown = int(np.count_nonzero(flat[nb] == COVERED))
    out: dict[int, tuple[float, Weighted]] = {}
    for k in range(known, known + unknown + 1):
        g = grid.copy()
        g.flat[i] = k
        g.setflags(write=False)
        a = analyse_weighted(Observation._trusted(g, obs.mines), max_nodes=max_nodes)
        if a is None:
            continue
        pk = float(np.exp(a.log_weight - base.log_weight))
        if pk > floor:
            out[k] = (pk, a)
    return out
