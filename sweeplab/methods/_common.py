"""The one shared layer of the methods: machinery over views of the clue system (SPEC §2).

Every method reads :func:`sweeplab.clue_system`; this module adds what more
than one method does with it:

* :class:`Board`, the state of the player-style rules (``trivial``, ``subset``)
  on the clue system's grid view: found cells are applied in place, as a player
  would, with the single-clue and total-mines rules (report 000 §2.2, report 001
  "Global Information") as a compiled worklist;
* exact and modular RREF of the merged view (python-flint), and the row bound
  rule of report 002 Algorithm 1 / report 003 Algorithm B, for the algebraic
  methods (``rref``, ``bounded``, ``lstsq-certified``, ``gf2``, ``gfp``).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numba
import numpy as np
from scipy.sparse import csr_array
from scipy.sparse.csgraph import connected_components

from ..clue_system import PAD, ClueSystem, MergedSystem, clue_system
from ..errors import InconsistentPositionError, MethodRefused
from ..positions import Observation

Cell = tuple[int, int]
CellSets = tuple[set[Cell], set[Cell]]


def exact_system(obs: Observation, method: str, *, use_total: bool) -> ClueSystem:
    """The clue system of ``obs`` for a method that reads rows as equalities.

    Raises :class:`MethodRefused` under ``"under"``/``"over"`` noise (numbers are only
    bounds); ``"lost"`` clues are simply absent (``NOCLUE`` gives no equation), so they are fine.
    """
    system = clue_system(obs, use_total=use_total)
    if not system.exact:
        bound = "lower" if obs.noise == "under" else "upper"
        raise MethodRefused(
            f"method {method!r} needs exact clues, but this position has noise {obs.noise!r} "
            f"(its numbers are only {bound} bounds); use 'trivial', 'lp' or 'enumerate', "
            "which read them as inequalities"
        )
    return system


def merge_claims(safe: set[Cell], mines: set[Cell]) -> CellSets:
    """Return the claims, or raise when a cell was proved both safe and a mine."""
    both = safe & mines
    if both:
        raise InconsistentPositionError(f"cell {min(both)} is forced both safe and a mine")
    return safe, mines


# ---------------------------------------------------------------------------------------------
# the grid view (trivial, subset)


class Board:
    """A position on a padded flat grid that found cells are applied to in place.

    Attributes
    ----------
    width : int
        Padded width (board width + 4).
    unknown, mine : numpy.ndarray of bool
        Covered cells not yet decided; known or deduced mines.
    n_unknown : int
        Number of undecided cells.
    clue : numpy.ndarray of int
        The cell codes: the clue value on clues, a negative code elsewhere (``-5`` on the padding).
    offsets : numpy.ndarray
        The 8 neighbour offsets in the padded flat array.
    remaining : int or None
        Mines still to place among the unknown cells (``None`` without the total).
    watch : numpy.ndarray
        Clues that may still change: at first every clue (the first
        :meth:`single_clue_rule` checks them all, as :meth:`~sweeplab.clue_system.ClueSystem.check_counts`
        would), then those with an undecided neighbour.
    """

    def __init__(self, system: ClueSystem) -> None:
        view = system.grid_view()
        self.shape = system.shape
        self.width = view.width
        self.clue, self.unknown, self.mine, self.watch = view.clue, view.unknown, view.mine, view.watch
        self.offsets = _offsets(self.width)
        self.remaining = view.remaining
        self.n_unknown = view.n_unknown
        self.found_safe: list[int] = []
        self.found_mines: list[int] = []

    def neighbours(self, cells: np.ndarray) -> np.ndarray:
        """``(len(cells), 8)`` padded indices of the neighbours."""
        return cells[:, None] + self.offsets

    def single_clue_rule(self, noise: str | None = None) -> bool:
        """The single-clue rule and the total rule, applied to a fixpoint (report 000 §2.2).

        Runs :func:`_single_clue_fixpoint` from the watched clues; returns whether
        anything was found.  Raises :class:`InconsistentPositionError` when a
        clue or the total cannot be met.
        """
        rule = _NOISE_RULE.get(noise, 0)
        has_total = self.remaining is not None
        status, at, need, unk, safe, mines, watch = _single_clue_fixpoint(
            self.clue, self.unknown, self.mine, self.offsets, self.watch, has_total,
            self.remaining if has_total else 0, self.n_unknown, rule,
        )
        if status == 1:
            raise InconsistentPositionError(
                f"clue at {self.cell(at)} needs {need} more mines among {unk} covered cells"
            )
        if status == 2:
            raise InconsistentPositionError(f"{need} mines left for {unk} undecided cells")
        self.watch = watch
        self.found_safe.extend(safe.tolist())
        self.found_mines.extend(mines.tolist())
        self.n_unknown -= safe.size + mines.size
        if self.remaining is not None:
            self.remaining -= mines.size
        return bool(safe.size or mines.size)

    def apply(self, safe: np.ndarray, mines: np.ndarray) -> bool:
        """Record newly found cells; return whether anything new was found."""
        if not (safe.size or mines.size):
            return False
        new_safe = np.zeros(self.unknown.size, dtype=bool)
        new_mine = np.zeros(self.unknown.size, dtype=bool)
        new_safe[safe] = True
        new_mine[mines] = True
        new_safe &= self.unknown
        new_mine &= self.unknown
        if np.any(new_safe & new_mine):
            cell = self.cell(int(np.flatnonzero(new_safe & new_mine)[0]))
            raise InconsistentPositionError(f"cell {cell} is forced both safe and a mine")
        safe, mines = np.flatnonzero(new_safe), np.flatnonzero(new_mine)
        if not (safe.size or mines.size):
            return False
        self.unknown[safe] = False
        self.unknown[mines] = False
        self.mine[mines] = True
        self.found_safe.extend(safe.tolist())
        self.found_mines.extend(mines.tolist())
        self.n_unknown -= safe.size + mines.size
        if self.remaining is not None:
            self.remaining -= mines.size
        return True

    def cell(self, i: int) -> Cell:
        r, c = divmod(i, self.width)
        return (r - PAD, c - PAD)

    def claims(self) -> CellSets:
        return self._cells(self.found_safe), self._cells(self.found_mines)

    def _cells(self, found: list[int]) -> set[Cell]:
        w = self.width
        return {(i // w - PAD, i % w - PAD) for i in found}


#: Which rules of the single-clue fixpoint apply under each clue-noise kind (report 004):
#: 0 both, 1 only "all mines" (numbers are lower bounds), 2 only "all safe" (upper bounds).
_NOISE_RULE = {"under": 1, "over": 2}


@lru_cache(maxsize=16)
def _offsets(width: int) -> np.ndarray:
    return np.array([dr * width + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc], dtype=np.int64)


@numba.njit(cache=True)
def _single_clue_fixpoint(clue, unknown, mine, offsets, watch, has_total, total, n_unknown, rule):
    """Worklist form of the single-clue and total rules (report 000 §2.2, report 001 "Global
    Information"), updating ``unknown`` and ``mine`` in place.

    Each clue of ``watch`` is checked; a decided cell puts its neighbouring clues back on the
    stack; when the stack is empty the total rule (with ``has_total``; ``total`` mines left) is tried.  The
    rules are monotone, so the fixpoint (or the contradiction) does not depend on the order.

    Returns ``(status, cell, need, unk, safe, mines, watch)``: status 0, or 1 for a clue that
    cannot be met (at ``cell``, needing ``need`` among ``unk``), 2 for the total (``need`` mines
    left for ``unk`` cells); the cells found; the watched clues with an undecided neighbour.
    """
    n = clue.size
    queued = np.zeros(n, dtype=np.bool_)
    stack = np.empty(n, dtype=np.int64)
    found = np.empty(n, dtype=np.int64)
    is_mine = np.zeros(n, dtype=np.bool_)
    n_found = 0
    top = 0
    for c in watch:
        queued[c] = True
        stack[top] = c
        top += 1
    while True:
        while top:
            top -= 1
            c = stack[top]
            queued[c] = False
            unk = 0
            need = clue[c]
            for o in offsets:
                unk += unknown[c + o]
                need -= mine[c + o]
            if (rule != 1 and need < 0) or (rule != 2 and need > unk):
                return 1, c, need, unk, found[:0], found[:0], watch[:0]
            if unk == 0:
                continue
            to_mine = rule != 2 and need == unk
            if not (to_mine or (rule != 1 and need == 0)):
                continue
            for o in offsets:
                x = c + o
                if unknown[x]:
                    unknown[x] = False
                    n_unknown -= 1
                    if to_mine:
                        mine[x] = True
                        is_mine[n_found] = True
                        total -= 1
                    found[n_found] = x
                    n_found += 1
                    for p in offsets:
                        y = x + p
                        if clue[y] >= 0 and not queued[y]:
                            queued[y] = True
                            stack[top] = y
                            top += 1
        if not has_total:
            break
        if total < 0 or total > n_unknown:
            return 2, 0, total, n_unknown, found[:0], found[:0], watch[:0]
        if n_unknown == 0 or 0 < total < n_unknown:
            break
        # the total row fires: every undecided cell is safe (no mine left) or a mine
        to_mine = total > 0
        for x in range(n):
            if unknown[x]:
                unknown[x] = False
                if to_mine:
                    mine[x] = True
                    is_mine[n_found] = True
                found[n_found] = x
                n_found += 1
                for p in offsets:
                    y = x + p
                    if clue[y] >= 0 and not queued[y]:
                        queued[y] = True
                        stack[top] = y
                        top += 1
        total -= n_unknown if to_mine else 0
        n_unknown = 0
    keep = np.zeros(watch.size, dtype=np.bool_)
    for k in range(watch.size):
        for o in offsets:
            keep[k] |= unknown[watch[k] + o]
    found = found[:n_found]
    kinds = is_mine[:n_found]
    return 0, 0, 0, 0, found[~kinds], found[kinds], watch[keep]


# ---------------------------------------------------------------------------------------------
# the algebraic view (rref, bounded, lstsq, lstsq-certified, gf2, gfp)


def blocks(A: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """``(rows, columns)`` of the independent blocks of ``A`` (rows linked through shared columns)."""
    m, n = A.shape
    rows, cols = np.nonzero(A)
    graph = csr_array((np.ones(rows.size), (rows, m + cols)), shape=(m + n, m + n))
    _, labels = connected_components(graph, directed=False)
    out = []
    for k in np.unique(labels[:m]):
        out.append((np.flatnonzero(labels[:m] == k), np.flatnonzero(labels[m:] == k)))
    return out


def _flint_matrix(M: np.ndarray, make):
    """A python-flint matrix with the entries of ``M``, set one nonzero at a time (fast on sparse ``M``)."""
    Z = make(*M.shape)
    rows, cols = np.nonzero(M)
    for i, j, v in zip(rows.tolist(), cols.tolist(), M[rows, cols].tolist(), strict=True):
        Z[i, j] = v
    return Z


def exact_rref(M: np.ndarray) -> tuple[np.ndarray, int]:
    """Exact RREF of an integer matrix with python-flint (fraction-free).

    Returns ``(R, den)`` with ``R`` the nonzero rows as integers (``int64``,
    or ``object`` holding Python ints if they do not fit) such that ``R / den``
    are the rows of the rational RREF.

    Examples
    --------
    >>> R, den = exact_rref(np.array([[1, 1, 0, 1], [0, 1, 1, 1]]))
    >>> (R // den).tolist()
    [[1, 0, -1, 0], [0, 1, 1, 1]]
    """
    import flint

    R, den, rank = _flint_matrix(M, flint.fmpz_mat).rref()
    values = [int(x) for x in R.entries()[: rank * M.shape[1]]]
    try:
        out = np.array(values, dtype=np.int64)
    except OverflowError:
        out = np.array(values, dtype=object)
    return out.reshape(rank, M.shape[1]), int(den)


#: Largest modulus for which reduced rows stay in ``int64`` arithmetic: a residue times a
#: residue times a row length (up to 2**20 columns) stays below 2**63.  Past it, rows are
#: Python ints (issue 14: ``p = 4294967311`` overflowed and claimed mines as safe).
MAX_INT64_MODULUS = 2**21


def rref_mod_p(M: np.ndarray, p: int, engine: str = "flint") -> np.ndarray:
    """Nonzero rows of the RREF of ``M`` over GF(p): python-flint's ``nmod_mat`` or ``galois``.

    Examples
    --------
    >>> rref_mod_p(np.array([[1, 1, 0], [0, 1, 1]]), 2).tolist()
    [[1, 0, 1], [0, 1, 1]]
    """
    M = np.asarray(M, dtype=np.int64) % p
    if engine == "galois":
        import galois

        R = np.asarray(galois.GF(p)(M).row_reduce(), dtype=np.int64 if p <= MAX_INT64_MODULUS else object)
        return R[R.any(axis=1)]
    import flint

    R, rank = _flint_matrix(M, lambda m, n: flint.nmod_mat(m, n, p)).rref()
    dtype = np.int64 if p <= MAX_INT64_MODULUS else object
    return np.array([int(x) for x in R.entries()[: rank * M.shape[1]]], dtype=dtype).reshape(rank, -1)


def rref_rows(
    system: MergedSystem, *, p: int | None = None, engine: str = "flint"
) -> tuple[np.ndarray, np.ndarray]:
    """The rows of the RREF of ``[A | b]``, exact (``p=None``) or over GF(p).

    RREF of a block-diagonal matrix is the union of the blocks' RREFs, so each
    independent block of clue rows is reduced on its own (python-flint, or
    ``galois`` with ``engine="galois"`` over GF(p)).  The total row links every
    block; it is brought in afterwards by one more elimination step
    (:func:`_add_row`), which gives the RREF of the whole system.

    Returns ``(R, rhs)`` over all columns.  Exact rows are integer multiples of
    the rational RREF rows (``int64``, or ``object`` if they do not fit); rows
    over GF(p) have entries in ``0..p-1`` and pivots 1.
    """
    n = system.n_columns
    clue_rows = system.A.shape[0] - int(system.has_total)
    A, b = system.A[:clue_rows], system.b[:clue_rows]
    parts: list[np.ndarray] = []
    for rows, cols in blocks(A):
        M = np.hstack([A[np.ix_(rows, cols)], b[rows, None]])
        R = exact_rref(M)[0] if p is None else rref_mod_p(M, p, engine)
        full = np.zeros((R.shape[0], n + 1), dtype=R.dtype)
        full[:, cols] = R[:, :-1]
        full[:, n] = R[:, -1]
        parts.append(full)
    dtype = object if any(part.dtype == object for part in parts) else np.int64
    R = np.vstack(parts).astype(dtype) if parts else np.zeros((0, n + 1), dtype=np.int64)
    if system.has_total and R[:, :n].any(axis=1).all():  # (a row 0 = c already shows inconsistency)
        R = _add_row(R, np.append(system.A[-1], system.b[-1]), p)
    return R[:, :n], R[:, n]


def _add_row(R: np.ndarray, t: np.ndarray, p: int | None) -> np.ndarray:
    """RREF of ``R`` (the rows of an RREF, augmented) with one more row ``t``.

    ``t`` is reduced against every pivot; if anything is left, its first
    nonzero column becomes a new pivot and is cleared from the other rows.
    Exact rows stay integers, each row scaled as needed (the bound rules do not
    depend on a row's scale); Python ints take over when ``int64`` could overflow.
    """
    n = R.shape[1] - 1
    rows = np.arange(R.shape[0])
    pivots = np.argmax(R[:, :n] != 0, axis=1)
    if p is not None:
        if p > MAX_INT64_MODULUS:  # products of residues (times n) would overflow int64
            R, t = R.astype(object), np.asarray(t).astype(object)
        t = (t - t[pivots] @ R) % p
    elif R.shape[0]:
        d = [int(v) for v in R[rows, pivots]]
        D = math.lcm(*d)
        coef = np.array([D // di * int(ti) for di, ti in zip(d, t[pivots], strict=True)], dtype=object)
        t = _exact(lambda X, c, v: D * v - c @ X, [R, coef, t], extra=D)
    t = _primitive(np.asarray(t)) if p is None else t
    nonzero = np.flatnonzero(t[:n] != 0)
    if nonzero.size == 0:
        return np.vstack([R, t[None, :]]) if t[n] != 0 else R
    q = int(nonzero[0])
    hit = np.flatnonzero(R[:, q] != 0)
    if p is not None:
        t = t * pow(int(t[q]), -1, p) % p
        R = R.copy()
        R[hit] = (R[hit] - R[hit, q : q + 1] * t) % p
        return np.vstack([R, t[None, :]])
    new = _exact(lambda X, v: X * v[q] - X[:, q : q + 1] * v, [R[hit], t])
    R = R.astype(new.dtype)
    R[hit] = new
    return np.vstack([R, t[None, :].astype(R.dtype)])


def _exact(f, arrays: list[np.ndarray], extra: int = 0) -> np.ndarray:
    """``f(*arrays)`` on integer arrays: in ``int64`` when no intermediate can reach 2**62
    (a sum of products of entries, or of ``extra``, over at most ``len(arrays[0]) + 2``
    terms), else in Python ints.  The result is made primitive row by row and returned as
    ``int64`` if it fits."""
    big = max([extra] + [_max_abs(a) for a in arrays])
    if (big * big + 1) * (len(arrays[0]) + 2) < 2**62:
        return _primitive(f(*(a.astype(np.int64) for a in arrays)))
    out = _primitive(f(*(a.astype(object) for a in arrays)))
    return out.astype(np.int64) if _max_abs(out) < 2**62 else out


def _max_abs(a: np.ndarray) -> int:
    if a.size == 0:
        return 0
    if a.dtype == object:
        return max(abs(int(x)) for x in a.ravel())
    return int(np.abs(a).max())


def _primitive(a: np.ndarray) -> np.ndarray:
    """Each row (or the vector) of an integer array divided by the gcd of its entries."""
    if a.dtype == object:
        rows = a.reshape(-1, a.shape[-1]) if a.size else a.reshape(0, 1)
        g = np.array([math.gcd(*(int(x) for x in row)) for row in rows], dtype=object)
        g[g == 0] = 1
        return (rows // g[:, None]).reshape(a.shape)
    g = np.gcd.reduce(a, axis=-1, keepdims=True)
    return a // np.where(g == 0, 1, g)


def row_bound_rule(R: np.ndarray, rhs: np.ndarray, weights: np.ndarray) -> tuple[set[int], set[int]]:
    """The row bound rule of report 002 Algorithm 1 / report 003 Algorithm B.

    Over 0/1 cells a row ``sum_j c_j x_j = r`` lies between the sum of its
    negative and the sum of its positive coefficients (each column counted
    ``weights[j]`` times).  When ``r`` equals the positive sum, every positive
    cell is 1 and every negative one 0; when it equals the negative sum, the
    other way round.  ``r`` outside the range is a contradiction.

    Returns the column sets ``(ones, zeros)``.

    Examples
    --------
    Report 002's second board, row 2 of its RREF: ``v2 - v5 = -1``:

    >>> row_bound_rule(np.array([[1, -1, 0]]), np.array([-1]), np.ones(3, dtype=np.int64))
    ({1}, {0})
    """
    pos_part = np.where(R > 0, R, 0)
    neg_part = np.where(R < 0, R, 0)
    pos = pos_part @ weights
    neg = neg_part @ weights
    bad = np.flatnonzero((rhs > pos) | (rhs < neg))
    if bad.size:
        raise InconsistentPositionError(
            f"a reduced equation cannot be met by 0/1 cells (right side {rhs[bad[0]]}, "
            f"range [{neg[bad[0]]}, {pos[bad[0]]}])"
        )
    at_pos = (rhs == pos)[:, None]
    at_neg = (rhs == neg)[:, None]
    positive, negative = R > 0, R < 0
    ones = np.flatnonzero(((positive & at_pos) | (negative & at_neg)).any(axis=0))
    zeros = np.flatnonzero(((negative & at_pos) | (positive & at_neg)).any(axis=0))
    return check_columns(set(ones.tolist()), set(zeros.tolist()))


def bound_propagation(R: np.ndarray, rhs: np.ndarray, weights: np.ndarray) -> tuple[set[int], set[int]]:
    """Bounds propagation of 0/1 cells through each row, one cell at a time.

    For a cell with coefficient ``c`` in ``sum c_j x_j = r``, the other cells
    of the row sum to somewhere in ``[neg - min(c, 0), pos - max(c, 0)]``; the
    cell can be 1 only if ``r - c`` lies in that range and 0 only if ``r`` does.
    This contains :func:`row_bound_rule` (the case where every cell of the row
    is fixed) and fixes single cells with large coefficients too (``x + y + 2z
    = 3`` gives ``z = 1``).

    Returns the column sets ``(ones, zeros)``.

    Examples
    --------
    >>> bound_propagation(np.array([[1, 1, 2]]), np.array([3]), np.ones(3, dtype=np.int64))
    ({2}, set())
    """
    pos = np.where(R > 0, R, 0) @ weights
    neg = np.where(R < 0, R, 0) @ weights
    rows, cols = np.nonzero(R)
    c = R[rows, cols]
    low = neg[rows] - np.where(c < 0, c, 0)
    high = pos[rows] - np.where(c > 0, c, 0)
    r = rhs[rows]
    can_one = (r - c >= low) & (r - c <= high)
    can_zero = (r >= low) & (r <= high)
    bad = ~(can_one | can_zero)
    if bad.any() or np.any((rhs > pos) | (rhs < neg)):
        raise InconsistentPositionError("a reduced equation cannot be met by 0/1 cells")
    return check_columns(set(cols[~can_zero].tolist()), set(cols[~can_one].tolist()))


def check_columns(ones: set[int], zeros: set[int]) -> tuple[set[int], set[int]]:
    """Raise when a column is forced both ways."""
    if ones & zeros:
        raise InconsistentPositionError("a cell is forced both safe and a mine")
    return ones, zeros
