"""The clue system ``lo <= A x <= hi`` of a position (SPEC §2): the one constraint layer.

Every revealed clue that touches a covered cell gives one linear equation over
0/1 variables: the sum of its covered neighbours equals the clue minus the
known mines around it (seed report 002, "the whole puzzle as a matrix";
report 000 §2.4, "all m of n constraints").  With a known total, one more row
sums every covered cell to the mines still unknown.  Under clue noise "under"
("over") a number is only a lower (upper) bound, so the row is ``lo <= a x <= hi``
with ``hi`` (``lo``) the trivial bound (report 004 §4).

This module is the only place that reads a grid into constraints.  Every method
reads a :class:`ClueSystem`, either directly (``A``, ``A_sparse``, ``b``,
``lo``, ``hi``) or through one of its documented views, each derived from the
same position and built only when asked for:

* :meth:`ClueSystem.grid_view` -- the clues on a padded flat grid, for the
  player-style rules (``trivial``, ``subset``: a compiled worklist);
* :meth:`ClueSystem.grouped` -- exchangeable frontier cells (same clues) as
  groups, for exact enumeration (report 004 §3);
* :meth:`ClueSystem.cell_bounds` -- single-cell bounds for ``brute``, ``lp``,
  ``milp``;
* :meth:`ClueSystem.merged` -- ``A x = b`` with the interior as one weighted
  column, for the algebraic methods (RREF, GF(p), least squares).

The interior (covered cells next to no clue) is one exchangeable group: only
the total row touches it.  No view is dense: ``cell_bounds`` and ``merged`` hold
sparse matrices, and the methods densify one independent block at a time
(:meth:`MergedSystem.blocks`, :meth:`CellBounds.blocks`), so memory follows the
largest block, not the board.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from types import ModuleType
from typing import Any, NamedTuple

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from .errors import InconsistentPositionError, check_flag, unmet_clue_text
from .positions import COVERED, FLAG, MINE, Observation, as_observation, neighbour_table

__all__ = ["CellBounds", "ClueSystem", "GridView", "GroupedSystem", "MergedSystem", "clue_system"]

Cell = tuple[int, int]

#: Rings of padding around the grid view: pairs of clues up to two cells apart never wrap around.
PAD = 2
#: Clue-noise kinds whose numbers are bounds, with the code the compiled kernels use.
BOUND_NOISE = {"under": 1, "over": 2}


@dataclass(frozen=True)
class _Rows:
    """The arrays behind a :class:`ClueSystem` (built once, on first use)."""

    cells: tuple[Cell, ...]
    A_sparse: sp.csr_array
    b: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    clues: tuple[Cell | None, ...]
    n_frontier: int


class ClueSystem:
    """The linear system ``lo <= A x <= hi`` (``A x = b`` for exact clues) of a position.

    Built by :func:`clue_system`; its arrays are computed on first use, so a
    method that only reads a view pays only for that view.

    Attributes
    ----------
    cells : tuple of (int, int)
        ``cells[j]`` is the ``(row, col)`` of variable ``j``.  Frontier cells
        (covered, touching a clue) come first in row-major order; with the
        total row, the interior cells follow, also in row-major order.
    A_sparse : scipy.sparse.csr_array
        ``(equations, variables)`` 0/1 coefficient matrix (``int64``, so
        products such as ``A.T @ A`` cannot overflow).  ``A`` is its dense form.
    b : numpy.ndarray
        Integer right-hand side: the clue minus the known mines around it; the
        mines still unknown on the total row.
    lo, hi : numpy.ndarray
        ``lo <= A x <= hi``.  Both equal ``b`` for exact clues; under noise
        ``"under"`` a clue row has ``lo = b`` and ``hi`` its number of cells,
        under ``"over"`` ``lo = 0`` and ``hi = b``.  The total row is exact.
    clues : tuple of (int, int) or None
        ``clues[i]`` is the clue cell of equation ``i``; ``None`` marks the
        total-mines row.
    n_frontier, n_interior : int
        Frontier variables (the first ``n_frontier`` of ``cells``); interior
        variables after them (only with the total row).
    shape : tuple of int
        Shape of the board.
    noise : str or None
        The position's clue-noise kind.
    known_mines : int
        Flags and revealed mines on the board.
    remaining : int or None
        Mines among the covered cells (the total minus the known mines), when
        the total is used and known.
    position : Observation or None
        The position the system was built from (``None`` for a component).

    Examples
    --------
    A 1 in the corner and one mine in all: the clue's row, then the total's
    (``None`` in ``clues``), over three frontier and two interior cells:

    >>> from sweeplab import Observation
    >>> s = clue_system(Observation.from_text("1??\\n???", mines=1))
    >>> s.cells, s.n_frontier, s.n_interior
    (((0, 1), (1, 0), (1, 1), (0, 2), (1, 2)), 3, 2)
    >>> s.A.tolist(), s.b.tolist(), s.clues
    ([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], [1, 1], ((0, 0), None))
    """

    def __init__(self, position: Observation | None, *, use_total: bool, shape: tuple[int, int],
                 noise: str | None, rows: _Rows | None = None) -> None:
        self.position = position
        self.use_total = bool(use_total)
        self.shape = shape
        self.noise = noise
        if rows is not None:
            self.__dict__["_rows"] = rows

    # -- the system itself -------------------------------------------------------------------
    @cached_property
    def _rows(self) -> _Rows:
        assert self.position is not None
        return _build_rows(self.position, use_total=self.use_total)

    @property
    def cells(self) -> tuple[Cell, ...]:
        return self._rows.cells

    @property
    def A_sparse(self) -> sp.csr_array:
        return self._rows.A_sparse

    @cached_property
    def A(self) -> np.ndarray:
        """Dense ``int64`` coefficient matrix (prefer ``A_sparse`` on large boards)."""
        return self.A_sparse.toarray()

    @property
    def b(self) -> np.ndarray:
        return self._rows.b

    @property
    def lo(self) -> np.ndarray:
        return self._rows.lo

    @property
    def hi(self) -> np.ndarray:
        return self._rows.hi

    @property
    def clues(self) -> tuple[Cell | None, ...]:
        return self._rows.clues

    @property
    def n_frontier(self) -> int:
        return self._rows.n_frontier

    @property
    def n_variables(self) -> int:
        return len(self.cells)

    @property
    def n_interior(self) -> int:
        return self.n_variables - self.n_frontier

    @property
    def n_equations(self) -> int:
        return len(self.clues)

    @property
    def has_total(self) -> bool:
        """Whether the last row is the total-mines row."""
        return bool(self.clues) and self.clues[-1] is None

    @property
    def exact(self) -> bool:
        """Whether every row is an equality (``lo == hi``): no "under"/"over" noise."""
        return self.noise not in BOUND_NOISE

    @cached_property
    def known_mines(self) -> int:
        assert self.position is not None
        return self.position.known_mines

    @property
    def remaining(self) -> int | None:
        if not self.use_total or self.position is None or self.position.mines is None:
            return None
        return self.position.mines - self.known_mines

    @cached_property
    def _lookup(self) -> dict[Cell, int]:
        return {cell: j for j, cell in enumerate(self.cells)}

    def variable(self, row: int, col: int) -> int:
        """Index of the variable at ``(row, col)``; ``KeyError`` if the cell is none."""
        h, w = self.shape
        if not (0 <= row < h and 0 <= col < w):
            raise KeyError(f"cell ({row}, {col}) is outside the {h}x{w} board")
        try:
            return self._lookup[(row, col)]
        except KeyError:
            raise KeyError(f"cell ({row}, {col}) is not a variable of this system") from None

    def components(self) -> list[ClueSystem]:
        """Independent blocks: frontier variables linked through shared clue equations.

        The total-mines row links everything, so it is left out here: each
        block holds only clue rows, and interior cells belong to no block.
        Blocks come in the order of their first variable; within a block,
        variables and equations keep their order in this system.

        Examples
        --------
        >>> from sweeplab import Observation
        >>> obs = Observation.from_text("?1.1?")
        >>> [c.cells for c in clue_system(obs).components()]
        [((0, 0),), ((0, 4),)]
        """
        nf = self.n_frontier
        if nf == 0:
            return []
        n_rows = self.n_equations - int(self.has_total)  # the total row, if any, is the last
        # clue rows hold frontier variables only, so their CSR arrays are a prefix of A's
        indptr = self.A_sparse.indptr[: n_rows + 1]
        indices = self.A_sparse.indices[: indptr[-1]]
        A = sp.csr_array((np.ones(indices.size, dtype=np.int64), indices, indptr), shape=(n_rows, nf))
        n, labels = connected_components((A.T @ A).tocsr(), directed=False)
        # every clue row touches a variable: label it by its first one
        row_label = labels[indices[indptr[:-1]]]
        var_order = np.argsort(labels, kind="stable")
        row_order = np.argsort(row_label, kind="stable")
        var_ptr = np.searchsorted(labels[var_order], np.arange(n + 1))
        row_ptr = np.searchsorted(row_label[row_order], np.arange(n + 1))
        # permute rows and columns once (block by block, keeping the order inside each
        # block, so column indices stay sorted), then cut contiguous blocks
        new_col = np.empty(nf, dtype=indices.dtype)
        new_col[var_order] = np.arange(nf, dtype=indices.dtype)
        lengths = np.diff(indptr)[row_order]
        p_indptr = np.concatenate([[0], np.cumsum(lengths)])
        source = np.repeat(indptr[:-1][row_order] - p_indptr[:-1], lengths) + np.arange(p_indptr[-1])
        p_indices = new_col[indices[source]]
        b, lo, hi = (v[:n_rows][row_order] for v in (self.b, self.lo, self.hi))
        cells = [self.cells[j] for j in var_order.tolist()]
        clues = [self.clues[i] for i in row_order.tolist()]
        out = []
        for k in range(n):
            r0, r1, c0, c1 = int(row_ptr[k]), int(row_ptr[k + 1]), int(var_ptr[k]), int(var_ptr[k + 1])
            ip = p_indptr[r0 : r1 + 1]
            block = sp.csr_array(
                (np.ones(ip[-1] - ip[0], dtype=np.int64), p_indices[ip[0] : ip[-1]] - c0, ip - ip[0]),
                shape=(r1 - r0, c1 - c0),
            )
            rows = _Rows(cells=tuple(cells[c0:c1]), A_sparse=block, b=b[r0:r1].copy(), lo=lo[r0:r1].copy(),
                         hi=hi[r0:r1].copy(), clues=tuple(clues[r0:r1]), n_frontier=c1 - c0)
            out.append(ClueSystem(None, use_total=False, shape=self.shape, noise=self.noise, rows=rows))
        return out

    # -- checks ------------------------------------------------------------------------------
    def check_counts(self) -> None:
        """Raise :class:`~sweeplab.errors.InconsistentPositionError` when a clue or the total cannot be met.

        A clue needs ``known <= clue <= known + covered`` around it (``known``:
        flags and revealed mines), and the total ``known <= mines <= known +
        covered``.  Under clue noise only the side each bound allows is checked.
        This also covers clues with no covered neighbour, which have no row.
        """
        obs = self._source("check_counts")
        grid = obs.grid
        flat = grid.ravel()
        clues = np.flatnonzero(flat >= 0)
        if clues.size:
            table = neighbour_table(grid.shape)[clues]
            ok = table >= 0
            idx = np.where(ok, table, 0)
            known = (((flat[idx] == FLAG) | (flat[idx] == MINE)) & ok).sum(axis=1)
            covered = ((flat[idx] == COVERED) & ok).sum(axis=1)
            value = flat[clues].astype(np.int64)
            low = value < known if obs.noise != "under" else np.zeros(value.shape, bool)
            high = value > known + covered if obs.noise != "over" else np.zeros(value.shape, bool)
            bad = np.flatnonzero(low | high)
            if bad.size:
                i = bad[0]
                cell = divmod(int(clues[i]), grid.shape[1])
                raise InconsistentPositionError(
                    unmet_clue_text(int(value[i]), cell, int(value[i] - known[i]), int(covered[i])))
        if self.remaining is not None:
            covered_all = int(np.count_nonzero(flat == COVERED))
            if not 0 <= self.remaining <= covered_all:
                raise InconsistentPositionError(
                    f"total of {obs.mines} mines cannot be met with {self.known_mines} known mines "
                    f"and {covered_all} covered cells"
                )

    # -- views -------------------------------------------------------------------------------
    def grid_view(self) -> GridView:
        """The clues on a flat grid padded by :data:`PAD` rings, for the player-style rules.

        Examples
        --------
        >>> from sweeplab import Observation
        >>> v = clue_system(Observation.from_text("?1", mines=1)).grid_view()
        >>> v.width, v.n_unknown, v.remaining, int(v.clue[v.watch[0]])
        (6, 1, 1, 1)
        """
        obs = self._source("grid_view")
        clue, unknown, mine, watch, n_unknown, known = _kernels().padded(obs.grid, PAD)
        remaining = obs.mines - int(known) if self.use_total and obs.mines is not None else None
        return GridView(self.shape[1] + 2 * PAD, clue, unknown, mine, watch, int(n_unknown),
                        remaining, obs.noise)

    def grouped(self) -> GroupedSystem:
        """The informative clue rows over groups of exchangeable frontier cells (report 004 §3).

        Frontier cells that touch exactly the same clues are one group; a clue
        row that any layout of its cells meets (possible under noise) is left
        out, and its cells count as interior.

        Raises
        ------
        InconsistentPositionError
            When a clue or the total is out of reach whatever the layout.

        Examples
        --------
        >>> from sweeplab import Observation
        >>> g = clue_system(Observation.from_text("???\\n121", mines=2)).grouped()
        >>> g.group_size.tolist(), g.lo.tolist(), g.remaining
        ([1, 1, 1], [1, 2, 1], 2)
        """
        obs = self._source("grouped")
        cells, cell_group, group_size, row_ptr, row_groups, lo, hi, interior, info = _kernels().grouped(
            obs.grid, BOUND_NOISE.get(obs.noise or "", 0))
        bad, need, n_cov, n_known, n_covered = info.tolist()
        if bad >= 0:
            r, c = divmod(bad, obs.shape[1])
            raise InconsistentPositionError(unmet_clue_text(int(obs.grid[r, c]), (r, c), need, n_cov))
        # the kernel counted the known mines: the same figure as self.remaining, without a second pass
        remaining = obs.mines - n_known if self.use_total and obs.mines is not None else None
        if remaining is not None and not 0 <= remaining <= n_covered:
            raise InconsistentPositionError(
                f"total of {obs.mines} mines cannot be met with {n_known} known mines "
                f"and {n_covered} covered cells"
            )
        return GroupedSystem(obs.shape, cells, cell_group, group_size, row_ptr, row_groups, lo, hi, interior,
                             remaining)

    def cell_bounds(self) -> CellBounds:
        """The rows of :meth:`grouped` over single frontier cells (no grouping), sparse.

        Examples
        --------
        >>> from sweeplab import Observation
        >>> s = clue_system(Observation.from_text("???\\n121")).cell_bounds()
        >>> s.A.tolist(), s.lo.tolist(), s.hi.tolist()
        ([[1, 1, 0], [1, 1, 1], [0, 1, 1]], [1, 2, 1], [1, 2, 1])
        """
        p = self.grouped()
        order = np.argsort(p.cells)
        cells = p.cells[order]
        G, n_rows = p.group_size.size, p.lo.size
        group_cell = sp.csr_array(
            (np.ones(cells.size, dtype=np.int64), (p.cell_group[order], np.arange(cells.size))),
            shape=(G, cells.size))
        row_group = sp.csr_array((np.ones(p.row_groups.size, dtype=np.int64),
                                  (np.repeat(np.arange(n_rows), np.diff(p.row_ptr)), p.row_groups)),
                                 shape=(n_rows, G))
        A = (row_group @ group_cell).tocsr()
        A.sort_indices()
        return CellBounds(p.shape, cells, A, p.lo, p.hi, p.interior, p.remaining)

    def merged(self) -> MergedSystem:
        """``A x = b`` with the interior cells merged into one weighted column, sparse.

        Checks every clue's count and the total first (:meth:`check_counts`).

        Examples
        --------
        >>> from sweeplab import Observation
        >>> s = clue_system(Observation.from_text("?1--\\n11--\\n---?\\n---?", mines=2)).merged()
        >>> s.A.tolist(), s.b.tolist(), s.weights.tolist(), s.columns
        ([[1, 0], [1, 0], [1, 0], [1, 1]], [1, 1, 1, 2], [1, 2], (((0, 0),), ((2, 3), (3, 3))))
        """
        self.check_counts()
        nf = self.n_frontier
        columns: list[tuple[Cell, ...]] = [(cell,) for cell in self.cells[:nf]]
        weights = [1] * nf
        kept = nf
        if self.n_variables > nf:
            kept += 1
            columns.append(tuple(self.cells[nf:]))
            weights.append(self.n_variables - nf)
        A = self.A_sparse
        if kept < self.n_variables:  # only the total row (the last) reaches past the first interior cell
            head = A.indptr[-2]
            data = np.concatenate([A.data[:head], A.data[head : head + kept]])
            indices = np.concatenate([A.indices[:head], A.indices[head : head + kept]])
            indptr = np.append(A.indptr[:-1], head + kept)
            A = sp.csr_array((data, indices, indptr), shape=(A.shape[0], kept))
        return MergedSystem(A, self.b.copy(), np.array(weights, dtype=np.int64), tuple(columns),
                            self.has_total)

    def _source(self, view: str) -> Observation:
        if self.position is None:
            raise ValueError(f"{view}() needs a system built from a position (clue_system(obs)), "
                             "not a component")
        return self.position

    def __repr__(self) -> str:
        kind = "A x = b" if self.exact else f"lo <= A x <= hi ({self.noise!r} noise)"
        return (
            f"ClueSystem({kind}: {self.n_equations} equations, {self.n_variables} variables, "
            f"{self.n_frontier} on the frontier, total row: {self.has_total})"
        )


@cache
def _kernels() -> ModuleType:
    """The compiled grid kernels, imported on first use (numba loads slowly; views are built per move)."""
    from . import _grid_kernels

    return _grid_kernels


def clue_system(obs: Observation | str | Any, *, use_total: bool = True) -> ClueSystem:
    """The clue system ``lo <= A x <= hi`` of a position (SPEC §2).

    Parameters
    ----------
    obs : Observation
        The position (its text form or a code array are accepted too).
    use_total : bool, default True
        Add the total-mines row (over every covered cell) when ``obs.mines``
        is known.

    Returns
    -------
    ClueSystem

    Examples
    --------
    Three clues under three covered cells (one equation per clue, one variable per cell):

    >>> from sweeplab import Observation
    >>> s = clue_system(Observation.from_text("???\\n121"), use_total=False)
    >>> s.cells
    ((0, 0), (0, 1), (0, 2))
    >>> s.A.tolist(), s.b.tolist()
    ([[1, 1, 0], [1, 1, 1], [0, 1, 1]], [1, 2, 1])

    Under "under" noise the numbers are lower bounds:

    >>> s = clue_system(Observation.from_text("???\\n121", noise="under"), use_total=False)
    >>> s.lo.tolist(), s.hi.tolist()
    ([1, 2, 1], [2, 3, 2])
    """
    obs = as_observation(obs)
    return ClueSystem(obs, use_total=check_flag("use_total", use_total), shape=obs.shape, noise=obs.noise)


def _build_rows(obs: Observation, *, use_total: bool) -> _Rows:
    grid = obs.grid
    h, w = grid.shape
    flat = grid.ravel()
    table = neighbour_table((h, w))
    valid = table >= 0
    safe_idx = np.where(valid, table, 0)

    covered = flat == COVERED
    known = (flat == FLAG) | (flat == MINE)
    clue_cells = np.flatnonzero(flat >= 0)

    nb = safe_idx[clue_cells]
    nb_valid = valid[clue_cells]
    nb_covered = covered[nb] & nb_valid
    touching = nb_covered.any(axis=1)
    clue_cells, nb, nb_covered = clue_cells[touching], nb[touching], nb_covered[touching]
    b_clues = flat[clue_cells].astype(np.int64) - (known[nb] & nb_valid[touching]).sum(axis=1)
    row_len = nb_covered.sum(axis=1).astype(np.int64)
    lo_clues, hi_clues = b_clues, b_clues
    if obs.noise == "under":  # shown <= truth: a x >= b (report 004 §4)
        hi_clues = row_len
    elif obs.noise == "over":  # shown >= truth: a x <= b
        lo_clues = np.zeros_like(b_clues)

    frontier_mask = np.zeros(h * w, dtype=bool)
    frontier_mask[nb[nb_covered]] = True
    frontier = np.flatnonzero(frontier_mask)
    var_index = np.full(h * w, -1, dtype=np.int64)
    var_index[frontier] = np.arange(frontier.size)
    variables = frontier

    rows = np.repeat(np.arange(clue_cells.size), row_len)
    cols = var_index[nb[nb_covered]]
    b_parts, lo_parts, hi_parts = [b_clues], [lo_clues], [hi_clues]
    cr, cc = np.divmod(clue_cells, w)
    clue_list: list[Cell | None] = list(zip(cr.tolist(), cc.tolist(), strict=True))

    if use_total and obs.mines is not None and covered.any():
        interior = np.flatnonzero(covered & ~frontier_mask)
        var_index[interior] = frontier.size + np.arange(interior.size)
        variables = np.concatenate([frontier, interior])
        rows = np.concatenate([rows, np.full(variables.size, clue_cells.size)])
        cols = np.concatenate([cols, np.arange(variables.size)])
        total = np.array([obs.mines - int(known.sum())], dtype=np.int64)
        b_parts.append(total)
        lo_parts.append(total)
        hi_parts.append(total)
        clue_list.append(None)

    A = sp.csr_array(
        (np.ones(rows.size, dtype=np.int64), (rows, cols)), shape=(len(clue_list), variables.size)
    )
    A.sort_indices()
    rr, cc = np.divmod(variables, w)
    return _Rows(
        cells=tuple(zip(rr.tolist(), cc.tolist(), strict=True)),
        A_sparse=A,
        b=np.concatenate(b_parts).astype(np.int64),
        lo=np.concatenate(lo_parts).astype(np.int64),
        hi=np.concatenate(hi_parts).astype(np.int64),
        clues=tuple(clue_list),
        n_frontier=int(frontier.size),
    )


# -- the views ---------------------------------------------------------------------------------


class GridView(NamedTuple):
    """The clues on a flat grid with :data:`PAD` rings of padding (:meth:`ClueSystem.grid_view`).

    Attributes
    ----------
    width : int
        Padded width (board width + ``2 * PAD``).
    clue : numpy.ndarray
        The cell codes: the clue value on clues, a negative code elsewhere (``-5`` on the padding).
    unknown, mine : numpy.ndarray of bool
        Covered cells; known mines (flags, revealed mines).
    watch : numpy.ndarray
        Padded indices of every clue cell.
    n_unknown : int
        Number of covered cells.
    remaining : int or None
        Mines among the covered cells, when the total is used.
    noise : str or None
    """

    width: int
    clue: np.ndarray
    unknown: np.ndarray
    mine: np.ndarray
    watch: np.ndarray
    n_unknown: int
    remaining: int | None
    noise: str | None


class GroupedSystem(NamedTuple):
    """The informative clue rows over groups of exchangeable frontier cells (:meth:`ClueSystem.grouped`).

    A named tuple, like :class:`GridView`: exact enumeration builds one per call.

    Attributes
    ----------
    shape : tuple of int
    cells : numpy.ndarray
        Flat indices of the frontier cells, group by group.
    cell_group : numpy.ndarray
        Group of each of ``cells``.
    group_size : numpy.ndarray
        Cells per group.
    row_ptr, row_groups : numpy.ndarray
        CSR lists of the groups in each informative clue.
    lo, hi : numpy.ndarray
        ``lo[r] <= sum of the mines of clue r's groups <= hi[r]``.
    interior : numpy.ndarray
        Flat indices of covered cells in no informative clue.
    remaining : int or None
        Mines among the covered cells (the total minus known mines) when used.
    """

    shape: tuple[int, int]
    cells: np.ndarray
    cell_group: np.ndarray
    group_size: np.ndarray
    row_ptr: np.ndarray
    row_groups: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    interior: np.ndarray
    remaining: int | None


@dataclass(frozen=True)
class CellBounds:
    """``lo <= A x <= hi`` over single frontier cells, sparse (:meth:`ClueSystem.cell_bounds`).

    Attributes
    ----------
    cells : numpy.ndarray
        Flat indices of the frontier cells (the columns of ``A``).
    A_sparse : scipy.sparse.csr_array
        ``(clues, cells)`` 0/1 ``int64`` matrix of the informative clues; ``A`` is its dense form.
    lo, hi : numpy.ndarray
    interior : numpy.ndarray
        Flat indices of the other covered cells.
    remaining : int or None
        Mines among all covered cells, when the total is used.
    """

    shape: tuple[int, int]
    cells: np.ndarray
    A_sparse: sp.csr_array
    lo: np.ndarray
    hi: np.ndarray
    interior: np.ndarray
    remaining: int | None

    @property
    def A(self) -> np.ndarray:
        """Dense ``A`` (small systems only: methods read ``A_sparse`` block by block)."""
        return self.A_sparse.toarray()

    def blocks(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """``(rows, columns)`` of the independent blocks (rows linked through shared cells), by first row."""
        return _blocks(self.A_sparse, self.A_sparse.shape[0])

    def block(self, rows: np.ndarray, cols: np.ndarray) -> sp.csr_array:
        """The sparse rows ``rows`` over the columns ``cols`` of a block (:meth:`blocks`)."""
        return _submatrix(self.A_sparse, rows, cols)

    def cell(self, j: int) -> Cell:
        """``(row, col)`` of column ``j``."""
        r, c = divmod(int(self.cells[j]), self.shape[1])
        return (r, c)

    def interior_cells(self) -> set[Cell]:
        w = self.shape[1]
        return {(int(i) // w, int(i) % w) for i in self.interior}

    def claims(self, decided: dict[int, int]) -> tuple[set[Cell], set[Cell]]:
        """``(safe, mines)`` from values of columns (``j == len(cells)``: the whole interior)."""
        n = self.cells.size
        safe = {self.cell(j) for j, v in decided.items() if v == 0 and j < n}
        mines = {self.cell(j) for j, v in decided.items() if v == 1 and j < n}
        if n in decided:
            (safe if decided[n] == 0 else mines).update(self.interior_cells())
        return safe, mines


@dataclass(frozen=True)
class MergedSystem:
    """``A x = b`` over 0/1 cells, the interior merged into one column (:meth:`ClueSystem.merged`).

    The interior cells (covered, touching no clue) appear only in the total
    row, so their columns are identical: they are merged into one column of
    weight ``len(columns[-1])``.  Every row operation treats identical columns
    alike, so the RREF and the bound rules read the merged column exactly as
    they would read its copies.  The matrix is sparse; methods densify one
    independent block of clue rows at a time (:meth:`blocks`).

    Attributes
    ----------
    A_sparse : scipy.sparse.csr_array
        0/1 ``int64`` coefficients, one row per clue (plus the total row); ``A`` is its dense form.
    b : numpy.ndarray
        ``int64`` right-hand side.
    weights : numpy.ndarray
        Cells behind each column.
    columns : tuple of tuple of (int, int)
        The cells of each column.
    has_total : bool
        Whether the last row is the total-mines row (1 on every column).
    """

    A_sparse: sp.csr_array
    b: np.ndarray
    weights: np.ndarray
    columns: tuple[tuple[Cell, ...], ...]
    has_total: bool = False

    @property
    def A(self) -> np.ndarray:
        """Dense ``A`` (small systems only: methods read ``A_sparse`` block by block)."""
        return self.A_sparse.toarray()

    @property
    def n_columns(self) -> int:
        return len(self.columns)

    @property
    def n_rows(self) -> int:
        return self.A_sparse.shape[0]

    def cells(self, cols) -> set[Cell]:
        return {cell for j in cols for cell in self.columns[j]}

    def blocks(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """``(rows, columns)`` of the independent blocks of the clue rows (without the total row).

        Examples
        --------
        >>> from sweeplab import Observation
        >>> s = clue_system(Observation.from_text("?1.1?", mines=2)).merged()
        >>> [(r.tolist(), c.tolist()) for r, c in s.blocks()]
        [([0], [0]), ([1], [1])]
        """
        return _blocks(self.A_sparse, self.n_rows - int(self.has_total))

    def dense_row(self, i: int) -> np.ndarray:
        """Row ``i`` of ``A``, dense ``int64``."""
        A = self.A_sparse
        out = np.zeros(self.n_columns, dtype=np.int64)
        out[A.indices[A.indptr[i] : A.indptr[i + 1]]] = A.data[A.indptr[i] : A.indptr[i + 1]]
        return out

    def dense_block(self, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """The rows ``rows`` over the columns ``cols`` of a block (:meth:`blocks`), dense ``int64``."""
        r, c, v = _gather(self.A_sparse, rows, cols)
        out = np.zeros((rows.size, cols.size), dtype=np.int64)
        out[r, c] = v
        return out

    def substitute(self, ones, zeros) -> MergedSystem:
        """The system left after fixing columns ``ones`` to 1 and ``zeros`` to 0."""
        A = self.A_sparse
        one = np.zeros(self.n_columns, dtype=bool)
        one[list(ones)] = True
        keep = ~one
        keep[list(zeros)] = False
        row = np.repeat(np.arange(self.n_rows), np.diff(A.indptr))
        col = A.indices
        b = self.b - np.bincount(row, weights=A.data * self.weights[col] * one[col],
                                 minlength=self.n_rows).astype(np.int64)
        kept = keep[col]
        live = np.bincount(row[kept], minlength=self.n_rows) > 0
        if np.any(b[~live] != 0):
            raise InconsistentPositionError("an equation is left with no cells and a nonzero right side")
        new_col = np.cumsum(keep) - 1
        indptr = np.concatenate([[0], np.cumsum(np.bincount(row[kept], minlength=self.n_rows)[live])])
        A = sp.csr_array((A.data[kept], new_col[col[kept]], indptr), shape=(int(live.sum()), int(keep.sum())))
        columns = tuple(c for c, k in zip(self.columns, keep, strict=True) if k)
        has_total = self.has_total and bool(live[-1])
        return MergedSystem(A, b[live], self.weights[keep], columns, has_total)


def _blocks(A: sp.csr_array, m: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """``(rows, columns)`` of the connected blocks of the first ``m`` rows of ``A`` and its columns,
    in the order of their first row (columns in no such row belong to no block)."""
    n = A.shape[1]
    # the bipartite graph rows -> columns, straight from A's CSR arrays (edges count both ways)
    nnz = A.indptr[m]
    indptr = np.concatenate([A.indptr[: m + 1], np.full(n, nnz, dtype=A.indptr.dtype)])
    graph = sp.csr_array((np.ones(nnz), A.indices[:nnz] + m, indptr), shape=(m + n, m + n))
    _, labels = connected_components(graph, directed=False)
    present, first = np.unique(labels[:m], return_index=True)
    rank = np.full(labels.max() + 1 if labels.size else 0, -1)
    rank[present[np.argsort(first)]] = np.arange(present.size)
    k = present.size
    ptrs = []
    for lab in (rank[labels[:m]], rank[labels[m:]]):
        order = np.argsort(lab, kind="stable")
        ptrs.append((order, np.searchsorted(lab[order], np.arange(k + 1))))
    (row_order, row_ptr), (col_order, col_ptr) = ptrs
    return [(row_order[row_ptr[i] : row_ptr[i + 1]], col_order[col_ptr[i] : col_ptr[i + 1]])
            for i in range(k)]


def _gather(A: sp.csr_array, rows: np.ndarray, cols: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(row, column, value)`` of the nonzeros of ``A[rows]``, numbered within ``rows`` and the
    sorted ``cols`` (which hold every column of those rows: a block), in time proportional to
    those nonzeros."""
    start, stop = A.indptr[rows], A.indptr[rows + 1]
    lengths = stop - start
    idx = np.repeat(start - np.cumsum(lengths) + lengths, lengths) + np.arange(int(lengths.sum()))
    return np.repeat(np.arange(rows.size), lengths), np.searchsorted(cols, A.indices[idx]), A.data[idx]


def _submatrix(A: sp.csr_array, rows: np.ndarray, cols: np.ndarray) -> sp.csr_array:
    """``A[rows][:, cols]`` of a block (:func:`_gather`), sparse."""
    r, c, v = _gather(A, rows, cols)
    return sp.csr_array((v, (r, c)), shape=(rows.size, cols.size))
