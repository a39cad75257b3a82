"""The one shared layer of the methods: machinery over views of the clue system (SPEC §2).

Every method reads :func:`sweeplab.clue_system`; this module adds what more
than one method does with it:

* :class:`Board`, the state of the player-style rules (``trivial``, ``subset``)
  on the clue system's grid view: found cells are applied in place, as a player
  would, with the single-clue and total-mines rules (report 000 §2.2, report 001
  "Global Information") as a compiled worklist;
* exact and modular RREF of the merged view (python-flint), one independent
  block at a time, and the row bound rule of report 002 Algorithm 1 / report
  003 Algorithm B, for the algebraic methods (``rref``, ``bounded``,
  ``lstsq-certified``, ``gf2``, ``gfp``);
* :class:`Relaxation`, the LP relaxation of the cell bounds, block by block
  (``lp``, and ``milp``'s first pass);
* :class:`Budget`, the work budget every method takes (``time_limit`` seconds,
  and ``max_bytes`` for the dense blocks of the algebraic methods): past it a
  method raises :class:`~sweeplab.MethodRefused` naming the budget, instead of
  hanging or running out of memory.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction
from functools import lru_cache
from typing import Any, NamedTuple

import numba
import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from ..clue_system import PAD, CellBounds, ClueSystem, MergedSystem, clue_system
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
# the work budget (every method)

#: Default wall-clock budget of one method call, in seconds (option ``time_limit``; ``None``: no limit).
TIME_LIMIT = 20.0
#: Default size budget of one dense block of the algebraic methods, in bytes (option ``max_bytes``):
#: ``[A | b]`` of the block as ``int64``.  32 MiB is a block of about 2,000 x 2,000 cells, which
#: python-flint reduces exactly in a few seconds (and in a few hundred MB).
MAX_BLOCK_BYTES = 32 << 20


class Budget:
    """The work budget of one method call: wall-clock seconds, and bytes of one dense structure.

    Time is checked between units of work (a block, a pass, a solver call, a
    level of a dynamic programme; solvers get the time left), so a call can
    overrun ``time_limit`` by one unit; sizes are checked before anything
    dense is built.  Past either, :class:`~sweeplab.MethodRefused` names the
    budget and the option that raises it.

    Parameters
    ----------
    method : str
        The method's name, for messages.
    time_limit : float or None
        Seconds (``None``: no limit).
    max_bytes : int or None
        Bytes of one dense structure (``None``: no limit).

    Raises
    ------
    ValueError
        For a budget that is not a positive number or ``None``.

    Examples
    --------
    >>> budget = Budget("rref", time_limit=None, max_bytes=1_000)
    >>> budget.dense(10, 10, "a block")
    >>> budget.dense(100, 100, "a block")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sweeplab.errors.MethodRefused: method 'rref' would need a block of 100 x 100 ... max_bytes=1000 ...
    """

    def __init__(self, method: str, *, time_limit: float | None = TIME_LIMIT, max_bytes: int | None = None):
        self.method = method
        self.time_limit = _option(method, "time_limit", time_limit, "a positive number of seconds")
        self.max_bytes = _option(method, "max_bytes", max_bytes, "a positive integer")
        self.deadline = math.inf if self.time_limit is None else time.perf_counter() + self.time_limit

    def left(self) -> float:
        """Seconds left (``inf`` without a limit)."""
        return self.deadline - time.perf_counter()

    def check(self, doing: str) -> None:
        """Raise :class:`~sweeplab.MethodRefused` when the time is up."""
        if time.perf_counter() > self.deadline:
            raise self.out_of_time(doing)

    def out_of_time(self, doing: str) -> MethodRefused:
        return MethodRefused(
            f"method {self.method!r} ran past its time budget time_limit={self.time_limit:g} s "
            f"while {doing}; raise the option time_limit (seconds, or None for no limit)"
        )

    def dense(self, rows: int, cols: int, what: str, *, itemsize: int = 8) -> None:
        """Raise :class:`~sweeplab.MethodRefused` when a dense ``rows x cols`` array is over ``max_bytes``."""
        need = int(rows) * int(cols) * itemsize
        if self.max_bytes is not None and need > self.max_bytes:
            raise MethodRefused(
                f"method {self.method!r} would need {what} of {rows} x {cols} entries ({size_text(need)}), "
                f"over its size budget max_bytes={self.max_bytes} ({size_text(self.max_bytes)}); "
                "raise the option max_bytes (bytes, or None for no limit)"
            )


def _option(method: str, name: str, value, what: str):
    """``value`` of a budget option, checked: ``None``, or positive (an integer for ``max_bytes``)."""
    if value is None:
        return None
    integer = name == "max_bytes"
    kinds = (int, np.integer) if integer else (int, float, np.integer, np.floating)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, kinds) or not value > 0 or value != value:
        raise ValueError(f"option {name} of method {method!r} must be {what} or None, got {value!r}")
    return int(value) if integer else float(value)


def size_text(n: int) -> str:
    """Bytes in MiB, or GiB from 1 GiB on."""
    return f"{n / 2**30:,.1f} GiB" if n >= 2**30 else f"{n / 2**20:,.1f} MiB"


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
        rule = _NOISE_RULE.get(noise or "", 0)
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


class Rows(NamedTuple):
    """Reduced rows over some columns of a merged system: ``R @ x[cols] = rhs``."""

    cols: np.ndarray
    R: np.ndarray
    rhs: np.ndarray


def reduce_blocks(
    system: MergedSystem, *, p: int | None = None, engine: str = "flint", budget: Budget | None = None
) -> list[Rows]:
    """The RREF of ``[A | b]``, exact (``p=None``) or over GF(p), as groups of rows over few columns.

    RREF of a block-diagonal matrix is the union of the blocks' RREFs, so each
    independent block of clue rows (:meth:`~sweeplab.clue_system.MergedSystem.blocks`)
    is made dense and reduced on its own (python-flint, or ``galois`` with
    ``engine="galois"`` over GF(p)): memory follows the largest block, never the
    board.  The total row links every block; it is brought in afterwards by one
    more elimination step (:func:`_join_total`), which gives the RREF of the
    whole system: the rows it changes, and the total row itself, form one more
    group over the columns they touch.

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
        R = exact_rref(M)[0] if p is None else rref_mod_p(M, p, engine)
        groups.append(Rows(cols, R[:, :-1], R[:, -1]))
    if system.has_total and all(g.R.any(axis=1).all() for g in groups):  # (0 = c shows inconsistency already)
        groups = _join_total(groups, system, p, budget)
    return groups


def rref_rows(
    system: MergedSystem, *, p: int | None = None, engine: str = "flint"
) -> tuple[np.ndarray, np.ndarray]:
    """The rows of :func:`reduce_blocks` as one dense ``(R, rhs)`` over all columns (small systems).

    Examples
    --------
    >>> from sweeplab import Observation
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


def read_rows(groups: list[Rows], weights: np.ndarray, rule) -> tuple[set[int], set[int]]:
    """Columns ``(ones, zeros)`` a row rule (:func:`row_bound_rule`, :func:`bound_propagation`)
    fixes in any group of reduced rows.

    Groups whose row sums fit ``int64`` are read together, as one sparse matrix
    over all columns; the others one by one, in Python integers.
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
        rows, cols, vals, offset = [], [], [], 0
        for g in small:
            r, c = np.nonzero(g.R)
            rows.append(r + offset)
            cols.append(g.cols[c])
            vals.append(g.R[r, c])
            offset += g.rhs.size
        R = sp.csr_array((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                         shape=(offset, weights.size))
        o, z = rule(R, np.concatenate([g.rhs for g in small]).astype(np.int64), weights)
        ones |= o
        zeros |= z
    return check_columns(ones, zeros)


def _join_total(groups: list[Rows], system: MergedSystem, p: int | None, budget: Budget) -> list[Rows]:
    """The RREF of the reduced blocks with the total row ``t`` added.

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
            coef = np.array([D // di * int(t[g.cols[j]]) for di, j in zip(d, piv.tolist(), strict=True)],
                            dtype=object)
            parts.append((g.cols, _exact(lambda X, c, v, D=D: D * v - c @ X, [g.R, coef, t[g.cols]],
                                         extra=D, primitive=False), D))
            rhs -= Fraction(int(coef @ g.rhs.astype(object)), D)
            L = math.lcm(L, D)
        row = t.astype(object) * L
        for cols, u, D in parts:
            row[cols] = u.astype(object) * (L // D)
        row = _primitive(np.append(row, int(rhs * L)))
        if _max_abs(row) < 2**62:
            row = row.astype(np.int64)
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
    groups[k] = Rows(g.cols, g.R[~hit], g.rhs[~hit])
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


def check_columns(ones: set[int], zeros: set[int]) -> tuple[set[int], set[int]]:
    """Raise when a column is forced both ways."""
    if ones & zeros:
        raise InconsistentPositionError("a cell is forced both safe and a mine")
    return ones, zeros


# ---------------------------------------------------------------------------------------------
# the LP relaxation (lp, milp)

#: Largest relaxed optimum read as 0 (a claim).
_CLAIM = 1e-6


#: LPs with at most this many matrix entries are handed to HiGHS as dense arrays (2 MB of floats).
DENSE_LP_ENTRIES = 250_000


class Relaxation:
    """The LP relaxation of a clue system's cell bounds (``lp``, and ``milp``'s first pass).

    :meth:`by_block` and :meth:`whole` return the cells whose relaxed maximum
    is 0 (safe) or minimum 1 (mines) -- proved for every 0/1 layout, since a
    layout is a point of the relaxation -- as ``{column: value}``, the interior
    as column ``n``; see :mod:`sweeplab.methods.lp` for the batching and for
    when the blocks may be solved apart.
    """

    def __init__(self, s: CellBounds, budget: Budget) -> None:
        self.s, self.budget = s, budget
        self.n = s.cells.size
        self.blocks = s.blocks()
        self.col_block = np.zeros(self.n, dtype=np.int64)
        for k, (_, cols) in enumerate(self.blocks):
            self.col_block[cols] = k
        self._matrix: tuple[tuple[bytes, bytes], sp.csr_array] | None = None

    def solve(self, rows: np.ndarray, cols: np.ndarray, c: np.ndarray, total: bool) -> np.ndarray:
        """The optimum of ``c . x`` over the rows ``rows`` and cells ``cols`` (and ``y`` with ``total``)."""
        s = self.s
        key = (rows.tobytes(), cols.tobytes())
        if self._matrix is None or self._matrix[0] != key:  # the iterations of a loop share the matrix
            block = s.block(rows, cols).astype(float) if self.blocks else sp.csr_array((0, cols.size))
            self._matrix = key, block
        # a small LP goes to HiGHS dense: building sparse blocks costs more than it saves there
        # (benchmarks/methods_speed.py, 100 expert positions: lp 2.9 -> 2.0 s in all)
        dense = (rows.size + 1) * (cols.size + 1) <= DENSE_LP_ENTRIES
        A: Any = self._matrix[1].toarray() if dense else self._matrix[1]
        stack, join = (np.vstack, np.hstack) if dense else (sp.vstack, sp.hstack)
        zeros = np.zeros if dense else sp.csr_array
        lo, hi = s.lo[rows].astype(float), s.hi[rows].astype(float)
        bounds = np.zeros((cols.size, 2))
        bounds[:, 1] = 1.0
        eq = lo == hi
        A_eq: Any = A[np.flatnonzero(eq)]
        b_eq = lo[eq]
        A_ub: Any = stack([A[np.flatnonzero(~eq)], -A[np.flatnonzero(~eq)]])
        b_ub = np.concatenate([hi[~eq], -lo[~eq]])
        if total:
            assert s.remaining is not None  # callers pass total only with the total row
            if s.interior.size:  # the interior's share y
                A_eq = join([A_eq, zeros((A_eq.shape[0], 1))])
                A_ub = join([A_ub, zeros((A_ub.shape[0], 1))])
                bounds = np.vstack([bounds, [0.0, float(s.interior.size)]])
            ones = np.ones((1, bounds.shape[0]))
            A_eq = stack([A_eq, ones if dense else sp.csr_array(ones)])
            b_eq = np.append(b_eq, float(s.remaining))
        if not dense:
            A_eq, A_ub = A_eq.tocsr(), A_ub.tocsr()
        self.budget.check("solving LP relaxations")
        options = {} if self.budget.time_limit is None else {"time_limit": max(self.budget.left(), 0.01)}
        res = linprog(c, A_ub=A_ub if A_ub.shape[0] else None, b_ub=b_ub if A_ub.shape[0] else None,
                      A_eq=A_eq if A_eq.shape[0] else None, b_eq=b_eq if A_eq.shape[0] else None,
                      bounds=bounds, method="highs", options=options)
        if res.status == 2:
            raise InconsistentPositionError("the LP relaxation of the clues is infeasible")
        if res.status == 1:
            raise self.budget.out_of_time(f"solving an LP relaxation over {bounds.shape[0]} variables")
        if res.status != 0:
            raise RuntimeError(f"HiGHS failed on the LP relaxation: {res.message}")
        return res.x

    def by_block(self) -> dict[int, int] | None:
        """Decided cells from separable LPs over the blocks; ``None`` when the total row may cut them."""
        s, n = self.s, self.n
        if s.remaining is not None and (n == 0 or s.interior.size == 0):
            return None
        decided: dict[int, int] = {}
        sizes = np.bincount(self.col_block, minlength=len(self.blocks))
        for value in (0, 1):
            undecided = np.ones(n, dtype=bool)
            while undecided.any():
                active = np.unique(self.col_block[undecided])
                rows = np.sort(np.concatenate([self.blocks[k][0] for k in active]))
                cols = np.sort(np.concatenate([self.blocks[k][1] for k in active]))
                und = undecided[cols]
                c = np.where(und, -1.0 if value == 0 else 1.0, 0.0)
                x = self.solve(rows, cols, c, total=False)
                if s.remaining is not None and value == 0 and active.size == len(self.blocks):
                    y0 = s.remaining - x.sum()
                    sums = np.bincount(self.col_block, weights=x, minlength=len(self.blocks))
                    if not (np.all(y0 + sums - sizes >= 1) and np.all(y0 + sums <= s.interior.size - 1)):
                        return None
                dist = (x if value == 0 else 1.0 - x)[und]
                owner = self.col_block[cols[und]]
                opt = np.bincount(owner, weights=dist, minlength=len(self.blocks))
                count = np.bincount(owner, minlength=len(self.blocks))
                done = opt[owner] <= _CLAIM
                decided.update((int(j), value) for j in cols[und][done])
                keep = ~done & (dist <= opt[owner] / (2 * count[owner]))
                undecided[cols[und]] = keep
        return decided

    def whole(self) -> dict[int, int]:
        """Decided cells (``n``: the interior) from LPs over the whole board, total row included."""
        s, n = self.s, self.n
        total = s.remaining is not None
        with_y = total and s.interior.size > 0
        nv = n + int(with_y)
        rows, cols = np.arange(s.lo.size), np.arange(n)
        scale = np.ones(nv)
        if with_y:
            scale[-1] = 1.0 / s.interior.size  # the interior variable counts as one cell's share
        top = np.ones(nv)
        if with_y:
            top[-1] = s.interior.size
        decided: dict[int, int] = {}
        for value in (0, 1):
            undecided = np.arange(nv)
            while undecided.size:
                c = np.zeros(nv)
                # value 0: maximise sum x_j (minimise -x_j); value 1: maximise sum (1 - x_j)
                c[undecided] = (-1.0 if value == 0 else 1.0) * scale[undecided]
                x = self.solve(rows, cols, c, total=total)
                # distance to the claimed value, in cells (the interior: mines above 0, or below I)
                dist = x[undecided] if value == 0 else top[undecided] - x[undecided]
                opt = float(dist.sum())
                if opt <= _CLAIM:
                    decided.update((int(j), value) for j in undecided)
                    break
                undecided = undecided[dist * scale[undecided] <= (dist * scale[undecided]).sum()
                                      / (2 * undecided.size)]
        return decided
