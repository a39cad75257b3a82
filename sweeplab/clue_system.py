"""The clue system ``A x = b`` of a position (SPEC §2).

Every revealed clue that touches a covered cell gives one linear equation over
0/1 variables: the sum of its covered neighbours equals the clue minus the
known mines around it (seed report 002, "the whole puzzle as a matrix";
report 000 §2.4, "all m of n constraints").  With a known total, one more row
sums every covered cell to the mines still unknown.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from .positions import COVERED, FLAG, MINE, Observation, as_observation, neighbour_table

__all__ = ["ClueSystem", "clue_system"]


@dataclass(frozen=True, eq=False)
class ClueSystem:
    """A linear system ``A x = b`` over the unknown cells of a position.

    Attributes
    ----------
    cells : tuple of (int, int)
        ``cells[j]`` is the ``(row, col)`` of variable ``j``.  Frontier cells
        (covered, touching a clue) come first in row-major order; with the
        total row, the interior cells follow, also in row-major order.
    A_sparse : scipy.sparse.csr_array
        ``(equations, variables)`` 0/1 coefficient matrix (``int64``, so
        products such as ``A.T @ A`` cannot overflow).
    b : numpy.ndarray
        Integer right-hand side.
    clues : tuple of (int, int) or None
        ``clues[i]`` is the clue cell of equation ``i``; ``None`` marks the
        total-mines row.
    n_frontier : int
        Number of frontier variables (the first ``n_frontier`` of ``cells``).
    shape : tuple of int
        Shape of the board the system comes from.
    """

    cells: tuple[tuple[int, int], ...]
    A_sparse: sp.csr_array
    b: np.ndarray
    clues: tuple[tuple[int, int] | None, ...]
    n_frontier: int
    shape: tuple[int, int]

    @cached_property
    def A(self) -> np.ndarray:
        """Dense ``int64`` coefficient matrix."""
        return self.A_sparse.toarray()

    @property
    def n_variables(self) -> int:
        return len(self.cells)

    @property
    def n_equations(self) -> int:
        return len(self.clues)

    @property
    def has_total(self) -> bool:
        """Whether the last row is the total-mines row."""
        return bool(self.clues) and self.clues[-1] is None

    @cached_property
    def _lookup(self) -> dict[tuple[int, int], int]:
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
        b = self.b[:n_rows][row_order]
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
            out.append(ClueSystem(cells=tuple(cells[c0:c1]), A_sparse=block, b=b[r0:r1].copy(),
                                  clues=tuple(clues[r0:r1]), n_frontier=c1 - c0, shape=self.shape))
        return out

    def __repr__(self) -> str:
        return (
            f"ClueSystem({self.n_equations} equations, {self.n_variables} variables, "
            f"{self.n_frontier} on the frontier, total row: {self.has_total})"
        )


def clue_system(obs: Observation, *, use_total: bool = True) -> ClueSystem:
    """Build the clue system ``A x = b`` of a position (SPEC §2).

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
    """
    obs = as_observation(obs)
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

    frontier_mask = np.zeros(h * w, dtype=bool)
    frontier_mask[nb[nb_covered]] = True
    frontier = np.flatnonzero(frontier_mask)
    var_index = np.full(h * w, -1, dtype=np.int64)
    var_index[frontier] = np.arange(frontier.size)
    variables = frontier

    rows = np.repeat(np.arange(clue_cells.size), nb_covered.sum(axis=1))
    cols = var_index[nb[nb_covered]]
    b_parts = [b_clues]
    cr, cc = np.divmod(clue_cells, w)
    clue_list: list[tuple[int, int] | None] = list(zip(cr.tolist(), cc.tolist(), strict=True))

    if use_total and obs.mines is not None and covered.any():
        interior = np.flatnonzero(covered & ~frontier_mask)
        var_index[interior] = frontier.size + np.arange(interior.size)
        variables = np.concatenate([frontier, interior])
        rows = np.concatenate([rows, np.full(variables.size, clue_cells.size)])
        cols = np.concatenate([cols, np.arange(variables.size)])
        b_parts.append(np.array([obs.mines - int(known.sum())], dtype=np.int64))
        clue_list.append(None)

    n_eq = len(clue_list)
    A = sp.csr_array(
        (np.ones(rows.size, dtype=np.int64), (rows, cols)), shape=(n_eq, variables.size)
    )
    A.sort_indices()
    rr, cc = np.divmod(variables, w)
    return ClueSystem(
        cells=tuple(zip(rr.tolist(), cc.tolist(), strict=True)),
        A_sparse=A,
        b=np.concatenate(b_parts).astype(np.int64),
        clues=tuple(clue_list),
        n_frontier=int(frontier.size),
        shape=(h, w),
    )
