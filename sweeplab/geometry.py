"""The geometry of a position's solution space (issue 11 item 4; notebook 14, report section 014).

Report 002 speaks of "a space of dimension 68": the clue matrix ``A`` of a
position leaves ``nullity = variables - rank`` free directions, and the mine
layouts that fit are the 0/1 points of that affine space.  This module measures
it for any position:

* ``rank`` and ``nullity`` of the frontier's clue matrix (clues only, no total
  row: the total couples every cell and would hide the local structure);
* ``log10_layouts``: log10 of the number of mine layouts of the covered cells
  that fit the clues (and the total, when used), counted exactly per block
  (:mod:`sweeplab.methods.enumerate`'s counts by number of mines) and combined
  through the binomial weights of the interior;
* the independent blocks (components) of the frontier and their sizes.

Examples
--------
>>> from sweeplab import Observation
>>> g = geometry(Observation.from_text("???\\n121", mines=2))
>>> g.rank, g.nullity, g.components, round(g.log10_layouts, 6)
(3, 0, (3,), 0.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .clue_system import clue_system
from .errors import ComponentTooLargeError, InconsistentPositionError
from .positions import Observation, as_observation

__all__ = ["Geometry", "geometry", "log10_layouts", "block_counts"]


@dataclass(frozen=True)
class Geometry:
    """The solution-space geometry of one position.

    Attributes
    ----------
    n_frontier : int
        Covered cells next to a clue (the variables of ``A``).
    n_interior : int
        Covered cells next to no clue.
    n_equations : int
        Clue rows touching the frontier.
    rank, nullity : int
        Rank of the frontier's clue matrix and ``n_frontier - rank``.
    log10_layouts : float
        log10 of the number of layouts of the covered cells that fit (with the
        total when ``use_total``); ``nan`` when a block is too large to count.
    components : tuple of int
        Frontier cells per independent block, largest first.
    """

    n_frontier: int
    n_interior: int
    n_equations: int
    rank: int
    nullity: int
    log10_layouts: float
    components: tuple[int, ...]

    @property
    def n_components(self) -> int:
        return len(self.components)

    @property
    def largest_component(self) -> int:
        return self.components[0] if self.components else 0


def _rank(A: np.ndarray) -> int:
    """Rank of a small 0/1 matrix (SVD; the entries are small integers, so it is exact in practice)."""
    if A.size == 0:
        return 0
    return int(np.linalg.matrix_rank(A.astype(float)))


def block_counts(obs: Observation, *, use_total: bool = True):
    """Exact layout counts of each frontier block by number of mines, and the interior.

    Returns ``(counts, interior, remaining)``: ``counts`` a list with, for each
    block, a float array whose entry ``k`` is the number of layouts of the
    block's cells with ``k`` mines; ``interior`` the number of covered cells in
    no informative clue; ``remaining`` the mines left among the covered cells
    (``None`` without the total).  Counted by dynamic programming over the
    clue system's groups of exchangeable cells (:meth:`sweeplab.ClueSystem.grouped`),
    taken in breadth-first order: layouts that leave the same partial sums on
    the clues still open are counted together.

    Raises
    ------
    InconsistentPositionError
        When a block has no layout.
    ComponentTooLargeError
        When a block has more than :data:`MAX_STATES` partial states.

    Examples
    --------
    >>> counts, interior, remaining = block_counts(Observation.from_text("??\\n1?", mines=1))
    >>> [c.tolist() for c in counts], interior, remaining
    ([[0.0, 3.0, 0.0, 0.0]], 0, 1)
    """
    p = clue_system(obs, use_total=use_total).grouped()
    sizes = p.group_size.tolist()
    lo, hi = p.lo.tolist(), p.hi.tolist()
    row_groups = [p.row_groups[p.row_ptr[r]: p.row_ptr[r + 1]].tolist() for r in range(len(lo))]
    rows_of: list[list[int]] = [[] for _ in sizes]
    for r, groups in enumerate(row_groups):
        for g in groups:
            rows_of[g].append(r)
    seen = [False] * len(sizes)
    out = []
    for first in range(len(sizes)):
        if seen[first]:
            continue
        seen[first] = True
        order = [first]
        for g in order:  # breadth-first along shared clues
            for r in rows_of[g]:
                for v in row_groups[r]:
                    if not seen[v]:
                        seen[v] = True
                        order.append(v)
        out.append(_count_block(order, sizes, rows_of, row_groups, lo, hi))
    return out, int(p.interior.size), p.remaining


#: Cap on the partial states of one step of :func:`block_counts`.
MAX_STATES = 200_000


def _count_block(order, sizes, rows_of, row_groups, lo, hi) -> np.ndarray:
    level = {g: i for i, g in enumerate(order)}
    last = {r: max(level[g] for g in row_groups[r]) for g in order for r in rows_of[g]}
    left = {r: sum(sizes[g] for g in row_groups[r]) for r in last}  # capacity not yet assigned
    binom = [[float(math.comb(n, m)) for m in range(n + 1)] for n in range(max(sizes[g] for g in order) + 1)]
    states: dict[tuple[tuple[int, int], ...], np.ndarray] = {(): np.ones(1)}
    for i, g in enumerate(order):
        size = sizes[g]
        for r in rows_of[g]:
            left[r] -= size
        new: dict[tuple[tuple[int, int], ...], np.ndarray] = {}
        for key, poly in states.items():
            cur = dict(key)
            for m in range(size + 1):
                nxt = dict(cur)
                ok = True
                for r in rows_of[g]:
                    v = cur.get(r, 0) + m
                    if v > hi[r] or v + left[r] < lo[r]:
                        ok = False
                        break
                    if last[r] == i:
                        nxt.pop(r, None)  # closed: lo <= v <= hi holds
                    else:
                        nxt[r] = v
                if not ok:
                    continue
                k2 = tuple(sorted(nxt.items()))
                shifted = np.zeros(poly.size + m)
                shifted[m:] = poly * binom[size][m]
                old = new.get(k2)
                if old is None:
                    new[k2] = shifted
                elif old.size >= shifted.size:
                    old[: shifted.size] += shifted
                else:
                    shifted[: old.size] += old
                    new[k2] = shifted
        if len(new) > MAX_STATES:
            raise ComponentTooLargeError(f"a block of {sum(sizes[h] for h in order)} frontier cells has "
                                         f"more than MAX_STATES={MAX_STATES} partial clue states")
        states = new
    total = np.zeros(sum(sizes[g] for g in order) + 1)
    poly = states.get((), np.zeros(0))
    total[: poly.size] = poly
    if not (total > 0).any():
        raise InconsistentPositionError("a block of the frontier has no layout that fits its clues")
    return total


def _log_sum(logs: np.ndarray) -> float:
    finite = logs[np.isfinite(logs)]
    if finite.size == 0:
        return -math.inf
    top = float(finite.max())
    return top + math.log(float(np.exp(finite - top).sum()))


def log10_layouts(obs: Observation | str, *, use_total: bool = True) -> float:
    """log10 of the number of mine layouts of the covered cells that fit the position.

    With the total (``use_total`` and a known total) a layout places exactly
    the remaining mines; without it any number of mines may lie among the
    covered cells, so the interior contributes ``2 ** interior``.

    Raises
    ------
    InconsistentPositionError
        When no layout fits.

    Examples
    --------
    >>> round(log10_layouts("??\\n1?", use_total=False), 6)  # 3 ways for the 1
    0.477121
    >>> round(log10_layouts(Observation.from_text("???\\n???", mines=2)), 6)  # C(6, 2) = 15
    1.176091
    """
    obs = as_observation(obs)
    blocks, interior, remaining = block_counts(obs, use_total=use_total)
    if remaining is None:
        total = sum(math.log(float(b.sum())) for b in blocks) + interior * math.log(2.0)
        return total / math.log(10.0)
    # log-space convolution of the blocks' counts by number of mines
    dist = np.zeros(1)  # log count of frontier layouts with S mines
    for b in blocks:
        with np.errstate(divide="ignore"):
            lb = np.log(b)
        new = np.full(dist.size + b.size - 1, -np.inf)
        for k in np.flatnonzero(np.isfinite(lb)):
            seg = new[k: k + dist.size]
            both = np.logaddexp(seg, dist + lb[k])
            new[k: k + dist.size] = both
        dist = new
    S = np.arange(dist.size)
    left = remaining - S
    ok = (left >= 0) & (left <= interior) & np.isfinite(dist)
    if not ok.any():
        raise InconsistentPositionError(
            f"no layout fits the clues with {remaining} mines left among {interior} interior cells")
    lgamma = np.vectorize(math.lgamma)
    log_binom = (math.lgamma(interior + 1) - lgamma(left[ok] + 1.0) - lgamma(interior - left[ok] + 1.0))
    return _log_sum(dist[ok] + log_binom) / math.log(10.0)


def geometry(obs: Observation | str, *, use_total: bool = True) -> Geometry:
    """Rank, nullity, number of layouts and blocks of a position (report 002's "space of dimension 68").

    Parameters
    ----------
    obs : Observation or str
    use_total : bool, default True
        Count layouts with the total (rank, nullity and blocks never use it).

    Examples
    --------
    >>> g = geometry("??????\\n?1122?", use_total=False)
    >>> g.n_frontier, g.rank, g.nullity, g.components
    (8, 4, 4, (8,))
    """
    obs = as_observation(obs)
    system = clue_system(obs, use_total=False)
    nf = system.n_frontier
    sizes: list[int] = []
    rank = 0
    for comp in system.components():
        A = comp.A
        sizes.append(int(A.shape[1]))
        rank += _rank(A)
    try:
        layouts = log10_layouts(obs, use_total=use_total)
    except ComponentTooLargeError:
        layouts = math.nan
    covered = int(np.count_nonzero(obs.grid == -1))
    return Geometry(n_frontier=nf, n_interior=covered - nf, n_equations=int(system.A_sparse.shape[0]),
                    rank=rank, nullity=nf - rank, log10_layouts=float(layouts),
                    components=tuple(sorted(sizes, reverse=True)))
