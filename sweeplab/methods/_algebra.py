"""Exact and modular RREF of the merged view, and reading rows with bounds (the algebraic methods).

One independent block at a time (exact rows in compiled ``int64`` arithmetic,
python-flint when they could overflow), so memory follows the largest block:
:func:`reduce_blocks`, :func:`rref_rows` and :func:`read_rows`, with the row
bound rule of report 002 Algorithm 1 / report 003 Algorithm B
(:func:`row_bound_rule`) and bounds propagation (:func:`bound_propagation`,
:func:`bound_fixpoint`), for ``rref``, ``bounded``, ``lstsq-certified``, ``gf2``
and ``gfp``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, NamedTuple

import numba
import numpy as np
import scipy.sparse as sp

from ..clue_system import MergedSystem
from ..errors import InconsistentPositionError
from ._common import Budget


def _flint_matrix(M: np.ndarray, make):
    """A python-flint matrix with the entries of ``M``, set one nonzero at a time (fast on sparse ``M``)."""
    Z = make(*M.shape)
    rows, cols = np.nonzero(M)
    for i, j, v in zip(rows.tolist(), cols.tolist(), M[rows, cols].tolist(), strict=True):
        Z[i, j] = v
    return Z


def exact_rref(M: np.ndarray) -> np.ndarray:
    """The nonzero rows of the exact (rational) RREF of an integer matrix, as primitive integer rows.

    Each returned row is the RREF row times the positive integer that makes its
    entries coprime (its pivot is positive); ``int64``, or ``object`` holding
    Python ints if they do not fit.  Gauss-Jordan elimination in ``int64``
    (compiled, each row divided by the gcd of its entries after every step)
    when no product can overflow, else python-flint's fraction-free RREF; both
    give the same rows.

    Examples
    --------
    >>> exact_rref(np.array([[1, 1, 0, 1], [0, 1, 1, 1]])).tolist()
    [[1, 0, -1, 0], [0, 1, 1, 1]]
    >>> exact_rref(np.array([[2, 1, 1], [1, 1, 1]])).tolist()
    [[1, 0, 0], [0, 1, 1]]
    """
    if M.dtype != object and M.size and int(np.abs(M).max()) <= _INT64_ENTRY:
        R, rank, ok = _rref_int64(np.ascontiguousarray(M, dtype=np.int64))
        if ok:
            return R
    import flint

    R, den, rank = _flint_matrix(M, flint.fmpz_mat).rref()
    values = [int(x) for x in R.entries()[: rank * M.shape[1]]]
    try:
        out = np.array(values, dtype=np.int64)
    except OverflowError:
        out = np.array(values, dtype=object)
    out = _primitive(out.reshape(rank, M.shape[1]))
    return out if int(den) > 0 else -out  # (R / den is the RREF: the sign of den is the rows' sign)


#: Largest entry magnitude :func:`_rref_int64` multiplies: a product of two stays below 2**62.
_INT64_ENTRY = 2**31 - 1


@numba.njit(cache=True)
def _gcd(a, b):  # pragma: no cover - compiled
    while b:
        a, b = b, a % b
    return a


@numba.njit(cache=True)
def _pivot_row(A, r, j):  # pragma: no cover - compiled
    """Swap the first row ``>= r`` with a nonzero in column ``j`` into row ``r``; whether there is one."""
    for i in range(r, A.shape[0]):
        if A[i, j] != 0:
            if i != r:
                for k in range(A.shape[1]):
                    t = A[r, k]
                    A[r, k] = A[i, k]
                    A[i, k] = t
            return True
    return False


@numba.njit(cache=True)
def _rref_int64(M):  # pragma: no cover - compiled
    """Gauss-Jordan elimination of ``M`` in ``int64``: ``(rows, rank, ok)``.

    Column by column, the first row with a nonzero entry becomes the pivot row
    (divided by the gcd of its entries, positive at its pivot) and is eliminated from every other row by
    ``row = pivot * row - entry * pivot_row``, which is then divided by the gcd
    of its entries.  The result is the rational RREF with each row scaled to
    coprime integers.  ``ok`` is false (and the rows empty) when an entry about
    to be multiplied exceeds :data:`_INT64_ENTRY` in magnitude.
    """
    A = M.copy()
    m, n = A.shape
    r = 0
    for j in range(n):
        if r == m:
            break
        if not _pivot_row(A, r, j):
            continue
        g = 0
        for k in range(n):
            g = _gcd(g, abs(A[r, k]))
        if A[r, j] < 0:
            g = -g
        for k in range(n):
            A[r, k] //= g
        a = A[r, j]
        for i in range(m):
            c = A[i, j]
            if i == r or c == 0:
                continue
            if a > _INT64_ENTRY or abs(c) > _INT64_ENTRY:
                return A[:0].copy(), 0, False
            g = 0
            for k in range(n):
                x = A[i, k]
                y = A[r, k]
                if abs(x) > _INT64_ENTRY or abs(y) > _INT64_ENTRY:
                    return A[:0].copy(), 0, False
                v = a * x - c * y
                A[i, k] = v
                g = _gcd(g, abs(v))
            if g > 1:
                for k in range(n):
                    A[i, k] //= g
        r += 1
    return A[:r].copy(), r, True


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
    if engine == "flint" and p <= _INT64_ENTRY:  # residues below 2**31: compiled, as flint computes it
        R = _rref_mod_p_int64(M, p)
        return R if p <= MAX_INT64_MODULUS else R.astype(object)
    if engine == "galois":
        import galois

        R = np.asarray(galois.GF(p)(M).row_reduce(), dtype=np.int64 if p <= MAX_INT64_MODULUS else object)
        return R[R.any(axis=1)]
    import flint

    R, rank = _flint_matrix(M, lambda m, n: flint.nmod_mat(m, n, p)).rref()
    dtype = np.int64 if p <= MAX_INT64_MODULUS else object
    return np.array([int(x) for x in R.entries()[: rank * M.shape[1]]], dtype=dtype).reshape(rank, -1)


@numba.njit(cache=True)
def _inverse_mod(a, p):  # pragma: no cover - compiled
    """``a ** -1 mod p`` for ``0 < a < p``, ``p`` prime (extended Euclid)."""
    t, new_t, r, new_r = 0, 1, p, a
    while new_r:
        q = r // new_r
        t, new_t = new_t, t - q * new_t
        r, new_r = new_r, r - q * new_r
    return t % p


@numba.njit(cache=True)
def _rref_mod_p_int64(M, p):  # pragma: no cover - compiled
    """Nonzero rows of the RREF of ``M`` (entries in ``0..p-1``) over GF(p), ``p`` prime below 2**31.

    Gauss-Jordan elimination with pivots scaled to 1: the unique RREF, the rows
    python-flint's ``nmod_mat.rref`` gives.  Every product is of two residues
    (below 2**62), every intermediate non-negative.
    """
    A = M.copy()
    m, n = A.shape
    r = 0
    for j in range(n):
        if r == m:
            break
        if not _pivot_row(A, r, j):
            continue
        inv = _inverse_mod(A[r, j], p)
        for k in range(n):
            A[r, k] = A[r, k] * inv % p
        for i in range(m):
            c = A[i, j]
            if i == r or c == 0:
                continue
            for k in range(n):
                A[i, k] = (A[i, k] + (p - c) * A[r, k]) % p
        r += 1
    return A[:r].copy()


class Rows(NamedTuple):
    """Reduced rows over some columns of a merged system: ``R @ x[cols] = rhs``."""

    cols: np.ndarray
    R: np.ndarray
    rhs: np.ndarray


def reduce_blocks(
    system: MergedSystem, *, p: int | None = None, engine: str = "flint", budget: Budget | None = None,
    keep_replaced: bool = False,
) -> list[Rows]:
    """The RREF of ``[A | b]``, exact (``p=None``) or over GF(p), as groups of rows over few columns.

    RREF of a block-diagonal matrix is the union of the blocks' RREFs, so each
    independent block of clue rows (:meth:`~sweeplab.clue_system.MergedSystem.blocks`)
    is made dense and reduced on its own (python-flint, or ``galois`` with
    ``engine="galois"`` over GF(p)): memory follows the largest block, never the
    board.  The total row links every block; it is brought in afterwards by one
    more elimination step (:func:`_join_total`), which gives the RREF of the
    whole system: the rows it changes, and the total row itself, form one more
    group over the columns they touch.  With ``keep_replaced`` the rows it
    changed are returned too, as they were: then the groups hold the RREF rows
    both with and without the total row (what ``bounded`` reads).

    Exact rows are integer multiples of the rational RREF rows (``int64``, or
    ``object`` if they do not fit); rows over GF(p) have entries in ``0..p-1``
    and pivots 1.

    Raises
    ------
    MethodRefused
        When a dense block is over ``budget.max_bytes`` (checked before any is
        built), or the time is up between blocks.
    """
    budget = budget or Budget("rref", time_limit=None)
    blocks = system.blocks()
    if blocks:
        rows, cols = max(blocks, key=lambda rc: rc[0].size * (rc[1].size + 1))
        budget.dense(rows.size, cols.size + 1, "a block of clue rows")
    groups = []
    for rows, cols in blocks:
        budget.check(f"reducing {len(blocks)} independent blocks")
        M = np.hstack([system.dense_block(rows, cols), system.b[rows, None]])
        R = exact_rref(M) if p is None else rref_mod_p(M, p, engine)
        groups.append(Rows(cols, R[:, :-1], R[:, -1]))
    if system.has_total and all(g.R.any(axis=1).all() for g in groups):  # (0 = c shows inconsistency already)
        groups = _join_total(groups, system, p, budget, keep_replaced)
    return groups


def rref_rows(
    system: MergedSystem, *, p: int | None = None, engine: str = "flint"
) -> tuple[np.ndarray, np.ndarray]:
    """The rows of :func:`reduce_blocks` as one dense ``(R, rhs)`` over all columns (small systems).

    Examples
    --------
    >>> from sweeplab import Observation, clue_system
    >>> R, rhs = rref_rows(clue_system(Observation.from_text("???\\n121")).merged())
    >>> R.tolist(), rhs.tolist()
    ([[1, 0, 0], [0, 1, 0], [0, 0, 1]], [1, 0, 1])
    """
    groups = reduce_blocks(system, p=p, engine=engine)
    dtype = object if any(g.R.dtype == object for g in groups) else np.int64
    R = np.zeros((sum(g.rhs.size for g in groups), system.n_columns), dtype=dtype)
    rhs = np.zeros(R.shape[0], dtype=dtype)
    i = 0
    for g in groups:
        R[i : i + g.rhs.size, g.cols] = g.R
        rhs[i : i + g.rhs.size] = g.rhs
        i += g.rhs.size
    return R, rhs


#: Reduced rows over at most this many entries are read as one dense matrix (0.5 MB of int64).
DENSE_READ_ENTRIES = 65_536


def read_rows(groups: list[Rows], weights: np.ndarray, rule) -> tuple[set[int], set[int]]:
    """Columns ``(ones, zeros)`` a row rule (:func:`row_bound_rule`, :func:`bound_propagation`)
    fixes in any group of reduced rows.

    Groups whose row sums fit ``int64`` are read together, as one matrix over
    all columns (dense up to :data:`DENSE_READ_ENTRIES` entries, else sparse);
    the others one by one, in Python integers.
    """
    ones: set[int] = set()
    zeros: set[int] = set()
    small = []
    for g in groups:
        if g.R.dtype != object and (_max_abs(g.R) + 1) * (int(weights[g.cols].sum()) + 1) < 2**62:
            small.append(g)
            continue
        o, z = rule(g.R.astype(object), g.rhs.astype(object), weights[g.cols])
        ones.update(g.cols[sorted(o)].tolist())
        zeros.update(g.cols[sorted(z)].tolist())
    if small:
        n_rows = sum(g.rhs.size for g in small)
        rhs = np.concatenate([g.rhs for g in small]).astype(np.int64)
        R: Any
        if n_rows * weights.size <= DENSE_READ_ENTRIES:  # small: one dense matrix (no sparse build)
            R = np.zeros((n_rows, weights.size), dtype=np.int64)
            offset = 0
            for g in small:
                R[offset : offset + g.rhs.size, g.cols] = g.R
                offset += g.rhs.size
        else:
            rows, cols, vals, offset = [], [], [], 0
            for g in small:
                r, c = np.nonzero(g.R)
                rows.append(r + offset)
                cols.append(g.cols[c])
                vals.append(g.R[r, c])
                offset += g.rhs.size
            R = sp.csr_array((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                             shape=(offset, weights.size))
        o, z = rule(R, rhs, weights)
        ones |= o
        zeros |= z
    return check_columns(ones, zeros)


def _join_total(groups: list[Rows], system: MergedSystem, p: int | None, budget: Budget,
                keep_replaced: bool = False) -> list[Rows]:
    """The RREF of the reduced blocks with the total row ``t`` added (and, with
    ``keep_replaced``, the block rows it changed as they were).

    ``t`` is reduced against every pivot, block by block; if anything is left,
    its first nonzero column ``q`` becomes a new pivot and is cleared from the
    rows of the one block that holds ``q`` (only those change).  Exact rows
    stay integers, each row scaled as needed (the bound rules do not depend on
    a row's scale); Python ints take over when ``int64`` could overflow.
    """
    n = system.n_columns
    t = system.dense_row(system.n_rows - 1)
    big = p is not None and p > MAX_INT64_MODULUS  # products of residues (times n) would overflow int64
    owner = np.full(n, -1)
    for k, g in enumerate(groups):
        owner[g.cols] = k
    if p is None:
        # t reduced is t - sum_i t[piv_i] / d_i R_i: on each block a vector over the lcm D of its pivots
        parts, rhs, L = [], Fraction(int(system.b[-1])), 1
        for g in groups:
            piv = np.argmax(g.R != 0, axis=1)
            d = [int(v) for v in g.R[np.arange(piv.size), piv]]
            D = math.lcm(*d)
            values = [D // di * int(t[g.cols[j]]) for di, j in zip(d, piv.tolist(), strict=True)]
            # int64 when it fits, so that _exact need not scan Python ints (its own check decides the
            # arithmetic); the right side in Python ints
            coef = np.array(values, dtype=np.int64 if max(map(abs, values), default=0) < 2**62 else object)
            parts.append((g.cols, _exact(lambda X, c, v, D=D: D * v - c @ X, [g.R, coef, t[g.cols]],
                                         extra=D, primitive=False), D))
            rhs -= Fraction(int(coef.astype(object) @ g.rhs.astype(object)), D)
            L = math.lcm(L, D)
        row = t.astype(object) * L
        for cols, u, D in parts:
            row[cols] = u.astype(object) * (L // D)
        row = np.append(row, int(rhs * L))
        if _max_abs(row) < 2**62:  # made primitive in int64 (numpy's gcd) when it fits
            row = row.astype(np.int64)
        row = _primitive(row)
    else:
        row = np.append(t, system.b[-1]).astype(object if big else np.int64) % p
        for g in groups:
            piv = np.argmax(g.R != 0, axis=1)
            R = g.R.astype(object) if big else g.R
            coef = row[g.cols[piv]]
            row[g.cols] = (row[g.cols] - coef @ R) % p
            row[n] = (row[n] - coef @ (g.rhs.astype(object) if big else g.rhs)) % p
    nonzero = np.flatnonzero(row[:n] != 0)
    if nonzero.size == 0:
        if row[n] != 0:
            groups.append(Rows(nonzero, row[None, :0], row[n:]))
        return groups
    q = int(nonzero[0])
    if p is not None:
        row = row * pow(int(row[q]), -1, p) % p
    k = int(owner[q])
    if k < 0:  # a column of the total row alone (the interior): no other row holds it
        groups.append(Rows(nonzero, row[None, nonzero], row[n:]))
        return groups
    g = groups[k]
    hit = g.R[:, np.searchsorted(g.cols, q)] != 0
    cols = np.union1d(g.cols, nonzero)
    budget.dense(int(hit.sum()) + 1, cols.size + 1, "the total row joined to a block")
    X = np.zeros((int(hit.sum()), cols.size + 1), dtype=object if big or g.R.dtype == object else g.R.dtype)
    X[:, np.searchsorted(cols, g.cols)] = g.R[hit]
    X[:, -1] = g.rhs[hit]
    v = np.append(row[cols], row[n])
    j = int(np.searchsorted(cols, q))
    if p is None:
        new = _exact(lambda X, v: X * v[j] - X[:, j : j + 1] * v, [X, v])
    else:
        new = (X - X[:, j : j + 1] * v) % p
    dtype = object if new.dtype == object or v.dtype == object else np.int64
    joined = np.vstack([new.astype(dtype), v[None, :].astype(dtype)])
    groups[k] = g if keep_replaced else Rows(g.cols, g.R[~hit], g.rhs[~hit])
    groups.append(Rows(cols, joined[:, :-1], joined[:, -1]))
    return groups


def _exact(f, arrays: list[np.ndarray], extra: int = 0, primitive: bool = True) -> np.ndarray:
    """``f(*arrays)`` on integer arrays: in ``int64`` when no intermediate can reach 2**62
    (a sum of products of entries, or of ``extra``, over at most ``len(arrays[0]) + 2``
    terms), else in Python ints.  The result is made primitive row by row (with
    ``primitive``) and returned as ``int64`` if it fits."""
    big = max([extra] + [_max_abs(a) for a in arrays])
    keep = _primitive if primitive else np.asarray
    if (big * big + 1) * (len(arrays[0]) + 2) < 2**62:
        return keep(f(*(a.astype(np.int64) for a in arrays)))
    out = keep(f(*(a.astype(object) for a in arrays)))
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


def _entries(R, weights: np.ndarray):
    """``(rows, cols, values, pos, neg)``: the nonzeros of ``R`` (dense, or a ``scipy.sparse``
    CSR matrix) and each row's sums of its positive and of its negative coefficients, each
    column counted ``weights[j]`` times."""
    if sp.issparse(R):
        rows = np.repeat(np.arange(R.shape[0]), np.diff(R.indptr))
        cols, c = R.indices, R.data
        # per-row sums of the CSR entries, exact in int64: differences of a running sum
        run_pos = np.concatenate([[0], np.cumsum(np.where(c > 0, c, 0) * weights[cols])])
        run_neg = np.concatenate([[0], np.cumsum(np.where(c < 0, c, 0) * weights[cols])])
        return rows, cols, c, run_pos[R.indptr[1:]] - run_pos[R.indptr[:-1]], \
            run_neg[R.indptr[1:]] - run_neg[R.indptr[:-1]]
    rows, cols = np.nonzero(R)
    return rows, cols, R[rows, cols], np.where(R > 0, R, 0) @ weights, np.where(R < 0, R, 0) @ weights


def row_bound_rule(R, rhs: np.ndarray, weights: np.ndarray) -> tuple[set[int], set[int]]:
    """The row bound rule of report 002 Algorithm 1 / report 003 Algorithm B.

    Over 0/1 cells a row ``sum_j c_j x_j = r`` lies between the sum of its
    negative and the sum of its positive coefficients (each column counted
    ``weights[j]`` times).  When ``r`` equals the positive sum, every positive
    cell is 1 and every negative one 0; when it equals the negative sum, the
    other way round.  ``r`` outside the range is a contradiction.  ``R`` is
    dense or a ``scipy.sparse`` CSR matrix.

    Returns the column sets ``(ones, zeros)``.

    Examples
    --------
    Report 002's second board, row 2 of its RREF: ``v2 - v5 = -1``:

    >>> row_bound_rule(np.array([[1, -1, 0]]), np.array([-1]), np.ones(3, dtype=np.int64))
    ({1}, {0})
    """
    rows, cols, c, pos, neg = _entries(R, weights)
    bad = np.flatnonzero((rhs > pos) | (rhs < neg))
    if bad.size:
        raise InconsistentPositionError(
            f"a reduced equation cannot be met by 0/1 cells (right side {rhs[bad[0]]}, "
            f"range [{neg[bad[0]]}, {pos[bad[0]]}])"
        )
    at_pos = (rhs == pos)[rows]
    at_neg = (rhs == neg)[rows]
    positive, negative = c > 0, c < 0
    ones = cols[(positive & at_pos) | (negative & at_neg)]
    zeros = cols[(negative & at_pos) | (positive & at_neg)]
    return check_columns(set(ones.tolist()), set(zeros.tolist()))


def bound_propagation(R, rhs: np.ndarray, weights: np.ndarray) -> tuple[set[int], set[int]]:
    """Bounds propagation of 0/1 cells through each row, one cell at a time.

    For a cell with coefficient ``c`` in ``sum c_j x_j = r``, the other cells
    of the row sum to somewhere in ``[neg - min(c, 0), pos - max(c, 0)]``; the
    cell can be 1 only if ``r - c`` lies in that range and 0 only if ``r`` does.
    This contains :func:`row_bound_rule` (the case where every cell of the row
    is fixed) and fixes single cells with large coefficients too (``x + y + 2z
    = 3`` gives ``z = 1``).  ``R`` is dense or a ``scipy.sparse`` CSR matrix.

    Returns the column sets ``(ones, zeros)``.

    Examples
    --------
    >>> bound_propagation(np.array([[1, 1, 2]]), np.array([3]), np.ones(3, dtype=np.int64))
    ({2}, set())
    """
    rows, cols, c, pos, neg = _entries(R, weights)
    low = neg[rows] - np.where(c < 0, c, 0)
    high = pos[rows] - np.where(c > 0, c, 0)
    r = rhs[rows]
    can_one = (r - c >= low) & (r - c <= high)
    can_zero = (r >= low) & (r <= high)
    bad = ~(can_one | can_zero)
    if bad.any() or np.any((rhs > pos) | (rhs < neg)):
        raise InconsistentPositionError("a reduced equation cannot be met by 0/1 cells")
    return check_columns(set(cols[~can_zero].tolist()), set(cols[~can_one].tolist()))


def bound_fixpoint(R: sp.csr_array, rhs: np.ndarray, weights: np.ndarray) -> tuple[set[int], set[int]]:
    """:func:`bound_propagation` repeated until it finds nothing more, on 0/1 rows of ``R``.

    The cells found are fixed as constants of their rows (their coefficients
    leave the row sums, the fixed mines leave the right sides) and the rule is
    run again: the cells :func:`bound_propagation` followed by
    :meth:`~sweeplab.clue_system.MergedSystem.substitute` would find, round after
    round, without building a matrix per round.  ``R`` is a ``scipy.sparse``
    CSR matrix with ``int64`` sums (the clue rows).

    Examples
    --------
    ``x0 + x1 = 1`` and ``x1 + x2 = 2``: the second row fixes ``x1`` and ``x2``,
    then the first, with ``x1`` known, fixes ``x0``.

    >>> R = sp.csr_array(np.array([[1, 1, 0], [0, 1, 1]]))
    >>> bound_fixpoint(R, np.array([1, 2]), np.ones(3, dtype=np.int64))
    ({1, 2}, {0})
    """
    indptr, cols, c = R.indptr, R.indices, R.data
    rows = np.repeat(np.arange(R.shape[0]), np.diff(indptr))
    cw = c * weights[cols]
    starts, ends = indptr[:-1], indptr[1:]

    def row_sums(x: np.ndarray) -> np.ndarray:  # exact int64 sums of CSR entries, per row
        run = np.concatenate([[0], np.cumsum(x)])
        return run[ends] - run[starts]

    value = np.full(R.shape[1], -1, dtype=np.int64)  # -1 undecided, else the cell's value
    ones: set[int] = set()
    zeros: set[int] = set()
    while True:
        v = value[cols]
        free = v < 0
        r = rhs - row_sums(np.where(v == 1, cw, 0))
        pos = row_sums(np.where(free & (c > 0), cw, 0))
        neg = row_sums(np.where(free & (c < 0), cw, 0))
        if np.any((r > pos) | (r < neg)):
            raise InconsistentPositionError("a reduced equation cannot be met by 0/1 cells")
        fc, fr, fv = c[free], rows[free], cols[free]
        low = neg[fr] - np.where(fc < 0, fc, 0)
        high = pos[fr] - np.where(fc > 0, fc, 0)
        rr = r[fr]
        can_one = (rr - fc >= low) & (rr - fc <= high)
        can_zero = (rr >= low) & (rr <= high)
        if not (can_one | can_zero).all():
            raise InconsistentPositionError("a reduced equation cannot be met by 0/1 cells")
        new_ones, new_zeros = check_columns(set(fv[~can_zero].tolist()), set(fv[~can_one].tolist()))
        if not (new_ones or new_zeros):
            return ones, zeros
        value[list(new_ones)] = 1
        value[list(new_zeros)] = 0
        ones |= new_ones
        zeros |= new_zeros


def check_columns(ones: set[int], zeros: set[int]) -> tuple[set[int], set[int]]:
    """Raise when a column is forced both ways."""
    if ones & zeros:
        raise InconsistentPositionError("a cell is forced both safe and a mine")
    return ones, zeros

