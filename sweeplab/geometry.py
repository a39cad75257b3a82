"""The geometry of a position's solution space (issue 11 item 4; notebook 14, report section 014).

Report 002 illustrates the idea with a hypothetical case, "if we can conclude from
100 equations that now the space of possible solutions has dimension 68" (an
example, not a measurement): the clue matrix ``A`` of a position leaves
``nullity = variables - rank`` free directions, and the mine layouts that fit
are the 0/1 points of that affine space.  This module measures it for any
position:

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
from .errors import ComponentTooLargeError, MethodRefused
from .methods.enumerate import analyse, block_counts
from .positions import Observation, as_observation

__all__ = ["Geometry", "geometry", "log10_layouts", "block_counts"]  # block_counts: from methods.enumerate


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


#: Largest block whose rank :func:`geometry` computes, as the bytes of its dense matrix: the SVD reads a
#: dense copy (a 300x300 board's block of 36,000 cells is 10 GiB; 100x100's of 4,000 cells, 127 MB, 70 s).
MAX_RANK_BYTES = 256 << 20


def _rank(A: np.ndarray) -> int:
    """Rank of a small 0/1 matrix (SVD; the entries are small integers, so it is exact in practice)."""
    if A.size == 0:
        return 0
    return int(np.linalg.matrix_rank(A.astype(float)))


def log10_layouts(obs: Observation | str, *, use_total: bool = True) -> float:
    """log10 of the number of mine layouts of the covered cells that fit the position.

    With the total (``use_total`` and a known total) a layout places exactly
    the remaining mines; without it any number of mines may lie among the
    covered cells, so the interior contributes ``2 ** interior``.  Counted by
    exact enumeration (:func:`sweeplab.methods.enumerate.analyse` with
    ``count=True``: the blocks' counts by number of mines, combined through the
    total).

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
    # no wall-clock budget: the same count on any machine (node and memory caps still apply)
    e = analyse(as_observation(obs), use_total=use_total, probabilities=False, count=True, time_limit=None)
    return e.log_layouts / math.log(10.0)


def geometry(obs: Observation | str, *, use_total: bool = True) -> Geometry:
    """Rank, nullity, number of layouts and blocks of a position (report 002's example "dimension 68").

    Parameters
    ----------
    obs : Observation or str
    use_total : bool, default True
        Count layouts with the total (rank, nullity and blocks never use it).

    Raises
    ------
    sweeplab.errors.ComponentTooLargeError
        A block whose dense matrix is past :data:`MAX_RANK_BYTES` (its rank is not computed).

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
        rows, cols = comp.A_sparse.shape
        if rows * cols * 8 > MAX_RANK_BYTES:
            raise ComponentTooLargeError(
                f"geometry: a block of {cols:,} frontier cells and {rows:,} clues is "
                f"{rows * cols * 8 / 2**30:.1f} GiB as the dense matrix its rank reads, over MAX_RANK_BYTES "
                f"({MAX_RANK_BYTES >> 20} MiB); give a smaller position")
        sizes.append(int(cols))
        rank += _rank(comp.A)
    try:
        layouts = log10_layouts(obs, use_total=use_total)
    except MethodRefused:  # past enumeration's budget (a huge block): not counted
        layouts = math.nan
    covered = int(np.count_nonzero(obs.grid == -1))
    return Geometry(n_frontier=nf, n_interior=covered - nf, n_equations=int(system.A_sparse.shape[0]),
                    rank=rank, nullity=nf - rank, log10_layouts=float(layouts),
                    components=tuple(sorted(sizes, reverse=True)))
