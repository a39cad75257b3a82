"""The clue system ``A x = b`` of a position (SPEC §2).

Every revealed clue that touches a covered cell gives one linear equation over
0/1 variables: the sum of its covered neighbours equals the clue minus the
known mines around it (seed report 002, "the whole puzzle as a matrix";
report 000 §2.4, "all m of n constraints").  With a known total, one more row
sums every covered cell to the mines still unknown.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from .positions import COVERED, FLAG, MINE, Observation, neighbour_table

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
    _var_index: np.ndarray = field(repr=False)

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

    def variable(self, row: int, col: int) -> int:
        """Index of the variable at ``(row, col)``; ``KeyError`` if the cell is none."""
        h, w = self.shape
        if not (0 <= row < h and 0 <= col < w):
            raise KeyError(f"cell ({row}, {col}) is outside the {h}x{w} board")
        j = int(self._var_index[row * w + col])
        if j < 0:
            raise KeyError(f"cell ({row}, {col}) is not a variable of this system")
        return j

    def components(self) -> list[ClueSystem]:
        """Independent blocks: frontier variables linked through shared clue equations.

        The total-mines row links everything, so it is left out here: each
        block holds only clue rows, and interior cells belong to no block.

        Examples
        --------
        >>> from sweeplab import Observation
        >>> obs = Observation.from_text("?1.1?")
        >>> [c.cells for c in clue_system(obs).components()]
        [((0, 0),), ((0, 4),)]
        """
        rows = [i for i, c in enumerate(self.clues) if c is not None]
        nf = self.n_frontier
        if nf == 0:
            return []
        A = self.A_sparse[rows][:, :nf]
        adjacency = (A.T @ A).tocsr()
        n, labels = connected_components(adjacency, directed=False)
        row_label = labels[A.indices[A.indptr[:-1]]] if len(rows) else np.array([], int)
        out = []
        for k in range(n):
            var = np.flatnonzero(labels == k)
            eqs = np.flatnonzero(row_label == k)
            out.append(self._subsystem([rows[i] for i in eqs], var))
        return out

    def _subsystem(self, rows: list[int], variables: np.ndarray) -> ClueSystem:
        A = self.A_sparse[rows][:, variables].tocsr()
        var_index = np.full(self._var_index.shape, -1, dtype=np.int64)
        cells = tuple(self.cells[j] for j in variables)
        w = self.shape[1]
        for j, (r, c) in enumerate(cells):
            var_index[r * w + c] = j
        return ClueSystem(
            cells=cells,
            A_sparse=A,
            b=self.b[rows].copy(),
            clues=tuple(self.clues[i] for i in rows),
            n_frontier=len(cells),
            shape=self.shape,
            _var_index=var_index,
        )

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
        The position.
    use_total : bool, default True
        Add the total-mines row (over every covered cell) when ``obs.mines``
        is known.

    Returns
    -------
    ClueSystem

    Examples
    --------
    Report 001's example ``A+B+C = 1``, ``A+C+D = 2`` shape, in miniature:

    >>> from sweeplab import Observation
    >>> s = clue_system(Observation.from_text("???\\n121"), use_total=False)
    >>> s.cells
    ((0, 0), (0, 1), (0, 2))
    >>> s.A.tolist(), s.b.tolist()
    ([[1, 1, 0], [1, 1, 1], [0, 1, 1]], [1, 2, 1])
    """
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
    clue_list: list[tuple[int, int] | None] = [(int(i // w), int(i % w)) for i in clue_cells]

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
    var_index.setflags(write=False)
    return ClueSystem(
        cells=tuple((int(i // w), int(i % w)) for i in variables),
        A_sparse=A,
        b=np.concatenate(b_parts).astype(np.int64),
        clues=tuple(clue_list),
        n_frontier=int(frontier.size),
        shape=(h, w),
        _var_index=var_index,
    )
