"""Row reduction over GF(p) with the mod-p bound rule (report 002, "change the fields ... like F_2 or F_7").

Report 002 ends Algorithm 1 by proposing to reduce the clue system over a
finite field instead of the rationals.  Every mine layout solves ``A x = b``
over the integers, hence modulo any prime ``p``, so each row of the RREF of
``[A | b]`` over GF(p) is a congruence the layout satisfies:

* a row with a single cell, ``c x = r (mod p)``, fixes ``x = r / c (mod p)``:
  0 is safe, 1 a mine, anything else is a contradiction;
* the mod-p bound rule: read each coefficient as its residue nearest 0; the
  row's integer total over 0/1 cells lies between the sum of its negative and
  the sum of its positive coefficients, and is congruent to ``r``.  If no
  integer in that range is, the position is inconsistent; if the only one is
  an end of the range, that end fixes every cell of the row.

The reduction runs on python-flint's ``nmod_mat`` by default (C, fast); the
``galois`` package, the one the user chose, is available as ``engine="galois"``
(slow to import and pure Python row reduction; the tests cross-check the two).
Sound, not complete.  Needs exact clues.  Budget as :mod:`~sweeplab.methods.rref`
(``time_limit`` checked between blocks, ``max_bytes`` for the largest dense block).
"""

from __future__ import annotations

import numbers

import numpy as np

from ..positions import InconsistentPositionError, Observation
from ._algebra import MAX_INT64_MODULUS, check_columns, reduce_blocks, rref_mod_p
from ._common import MAX_BLOCK_BYTES, TIME_LIMIT, Budget, CellSets, exact_system, merge_claims

__all__ = ["ENGINES", "forced_cells", "rank_mod_p"]

ENGINES = ("flint", "galois")


def forced_cells(
    obs: Observation,
    *,
    use_total: bool = True,
    p: int = 7,
    engine: str = "flint",
    time_limit: float | None = TIME_LIMIT,
    max_bytes: int | None = MAX_BLOCK_BYTES,
) -> CellSets:
    """Cells fixed by the RREF of the clue system over GF(p).

    Parameters
    ----------
    obs : Observation
    use_total : bool, default True
        Add the total-mines row when the total is known.
    p : int, default 7
        A prime below ``2**63`` (rows are exact Python integers past ``2**21``).
    engine : {"flint", "galois"}, default "flint"
        Which library row-reduces.
    time_limit : float or None, default 20
        Seconds (``None``: no limit).
    max_bytes : int or None, default 32 MiB
        Largest dense block (``[A | b]`` of one independent block as ``int64``).

    Returns
    -------
    (set, set)
        Safe cells and mines.

    Raises
    ------
    InconsistentPositionError
        When a reduced row has no 0/1 solution.
    ValueError
        For ``p`` not a prime, an unknown engine, or a bad budget.
    MethodRefused
        Under ``"under"``/``"over"`` noise, or past the budget.

    Examples
    --------
    Report 002's second board over GF(7): ``v2 - v5 = -1`` becomes ``v2 + 6 v5 = 6``,
    read with residues nearest 0 as ``v2 - v5 = -1 (mod 7)``; the only total in
    ``[-1, 1]`` congruent to -1 is -1, an end:

    >>> from sweeplab import Observation
    >>> safe, mines = forced_cells(Observation.from_text("??????\\n?1122?"))
    >>> sorted(safe), sorted(mines)
    ([(0, 1)], [(0, 4)])
    """
    return reduced_cells(obs, "gfp", use_total=use_total, p=p, engine=engine, time_limit=time_limit,
                         max_bytes=max_bytes)


def reduced_cells(obs: Observation, name: str, *, use_total: bool, p: int, engine: str,
                  time_limit: float | None, max_bytes: int | None) -> CellSets:
    """:func:`forced_cells` of the method ``name`` (``gfp``, or ``gf2`` for ``p = 2``): its messages
    name the method called."""
    _check_prime(p, f"option p of method {name!r}")
    if engine not in ENGINES:
        raise ValueError(f"option engine of method {name!r} must be one of {ENGINES}, got {engine!r}")
    budget = Budget(name, time_limit=time_limit, max_bytes=max_bytes)
    system = exact_system(obs, name, use_total=use_total).merged()
    if system.n_rows == 0:
        return set(), set()
    ones: set[int] = set()
    zeros: set[int] = set()
    for g in reduce_blocks(system, p=int(p), engine=engine, budget=budget):
        o, z = _read_rows(g.R, g.rhs, int(p), system.weights[g.cols])
        ones.update(g.cols[sorted(o)].tolist())
        zeros.update(g.cols[sorted(z)].tolist())
    ones, zeros = check_columns(ones, zeros)
    return merge_claims(system.cells(zeros), system.cells(ones))


def rank_mod_p(M, *, p: int) -> int:
    """Rank of an integer matrix over GF(p), by the row reduction ``gfp`` uses.

    Over GF(p) a clue system can lose rank (a row becomes a combination of
    others mod p) and with it the cells only that row determined (notebook 4).

    Parameters
    ----------
    M : array_like of int
        For example ``clue_system(obs).A``.
    p : int
        A prime below ``2**63``.

    Examples
    --------
    >>> A = [[1, 1, 0], [0, 1, 1], [1, 0, 1]]  # determinant 2: rank 3 over Q, 2 over GF(2)
    >>> rank_mod_p(A, p=2), rank_mod_p(A, p=3)
    (2, 3)
    """
    _check_prime(p, "p")
    given = np.asarray(M)
    kind = given.dtype.kind
    whole = kind == "f" and bool(np.isfinite(given).all()) and np.array_equal(given, np.round(given))
    values = given.ravel().tolist()  # Python ints (exact) for integer kinds
    if whole and not all(abs(v) < 2**53 for v in values):  # larger floats are not exact integers
        big = next(v for v in values if abs(v) >= 2**53)
        raise ValueError(f"M holds the float {big!r}, past 2**53 where floats stop being exact integers; "
                         "pass such entries as Python ints or an integer dtype")
    if not (kind in "iub" or (kind == "O" and all(isinstance(v, numbers.Integral) for v in values)) or whole):
        raise ValueError(f"M must be a matrix of integers, got {given.dtype} values such as "
                         f"{values[:3]}; round or convert them first")
    # reduced mod p exactly before the int64 cast (2**64 - 1 as uint64 must not wrap around)
    M = np.array([int(v) % int(p) for v in values], dtype=np.int64).reshape(given.shape)
    if M.ndim != 2:
        raise ValueError(f"M must be a 2-d integer matrix, got shape {M.shape}")
    return int(rref_mod_p(M, int(p)).shape[0]) if M.size else 0


def _check_prime(p, what: str = "option p of method 'gfp'") -> None:
    if isinstance(p, bool) or not isinstance(p, (int, np.integer)) or not _is_prime(int(p)):
        raise ValueError(f"{what} must be a prime below 2**63, got {p!r}")


def _read_rows(A: np.ndarray, r: np.ndarray, p: int, w: np.ndarray) -> tuple[set[int], set[int]]:
    """The single-cell and mod-p bound rules on each reduced row ``A x = r`` (``w``: cells per column)."""
    if p > MAX_INT64_MODULUS:  # row ranges (residues times cell counts) could overflow int64
        A, r = A.astype(object), r.astype(object)
    c = np.where(A > p // 2, A - p, A)  # residue nearest 0
    hi = np.where(c > 0, c, 0) @ w
    lo = np.where(c < 0, c, 0) @ w
    first = lo + (r - lo) % p  # smallest total >= lo congruent to r
    if np.any(first > hi):
        raise InconsistentPositionError(f"a row reduced modulo {p} has no 0/1 solution")
    ones: set[int] = set()
    zeros: set[int] = set()
    for i in np.flatnonzero(A.any(axis=1)):
        cols = np.flatnonzero(A[i])
        if cols.size == 1 and w[cols[0]] == 1:
            value = int(r[i]) * pow(int(A[i, cols[0]]), -1, p) % p
            if value > 1:
                raise InconsistentPositionError(f"a cell is fixed to {value} modulo {p}, not 0 or 1")
            (ones if value else zeros).add(int(cols[0]))
        if first[i] + p > hi[i] and first[i] in (lo[i], hi[i]):  # the only admissible total is an end
            positive, negative = cols[c[i, cols] > 0].tolist(), cols[c[i, cols] < 0].tolist()
            if first[i] == hi[i]:
                ones.update(positive)
                zeros.update(negative)
            if first[i] == lo[i]:
                ones.update(negative)
                zeros.update(positive)
    return check_columns(ones, zeros)


def _is_prime(n: int) -> bool:
    """Deterministic primality of ``2 <= n < 2**63`` (FLINT's proven test, microseconds).

    The bound is the word size of FLINT's ``nmod_mat``, which reduces the rows.
    """
    import flint

    return 2 <= n < 2**63 and bool(flint.fmpz(n).is_prime())
