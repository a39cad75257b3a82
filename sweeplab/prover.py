"""Finding proofs (SPEC §6) for the cells a method claims.

:func:`prove` proves one cell, :func:`prove_all` every claim of a method, and
:func:`proofs_for` is what ``deduce(obs, method, proofs=True)`` calls: it picks
the proof *style* that follows how the method reasons (:data:`METHOD_STYLES`).

Styles (each falls back to the next more general one when it finds nothing, so
every claim of a sound method gets a proof unless it is over budget):

``"clue"``
    Single-clue steps with substitution (``trivial``): the single-clue rule is
    replayed from the grid; a cell deep in a chain gets the steps it depends on.
``"pair"``
    The same plus the difference of two rows (``subset``; the total minus a clue too).
``"linear"``
    One combining step over the original rows when one exists (``rref``,
    ``lstsq-certified``, ``lp``, ``bounded``): a single row or pair when it
    does, otherwise the dual certificate of the LP relaxation.  The LP is over
    the multipliers ``y``: with ``g = yᵀA``, ``β = yᵀb`` it asks for the
    target coefficient ``g_v >= 1`` (``<= -1`` for a mine) and ``β <= lo(g)``,
    the sum of the negative coefficients (so ``β == lo`` on a consistent
    position), minimising ``Σ|y|`` (few rows, small multipliers); HiGHS's
    answer is rationalised, scaled to integers and checked exactly.  When no
    single step exists, chains: steps with substitution, and ``assume`` steps
    whose single combining step is a contradiction (bounds propagation on
    reduced rows, as ``bounded`` does).
``"modular"``
    A combining step with a modulus ``p`` (``gfp``, ``gf2``): the RREF of
    ``[A | b | I]`` over GF(p) (python-flint) gives each reduced row with the
    multipliers that produce it; a row whose mod-p bound rule fixes the cell
    is the proof (multipliers as residues nearest 0).
``"case"``
    The shortest proof found for complete methods (``milp``, ``enumerate``,
    ``brute``): a single linear step when one exists, otherwise a chain or
    ``assume`` of the opposite value whose contradiction comes from
    propagation, an LP infeasibility certificate, or ``split`` s on the
    fractional cell of the LP relaxation in most rows (iterative deepening
    up to ``max_depth`` splits), whichever proof is smaller.

Every proof returned has been checked by :func:`sweeplab.check_proof`.

Budget: a proof with more than ``budget`` combining steps (default
:data:`DEFAULT_BUDGET`) is not returned; nor is one whose search would need
more than ``max_depth`` nested splits (default :data:`DEFAULT_MAX_DEPTH`) or
more than ``max_lps`` linear programs for its cell.  :func:`prove` then returns
``None`` and :func:`prove_all` lists the cell as *over budget*.

Proofs need exact clues (SPEC §6): under ``"under"`` or ``"over"`` clue noise
:func:`prove` returns ``None`` and :func:`prove_all` raises
:class:`sweeplab.MethodRefused`.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import math
import numbers
import time
from collections import defaultdict, deque
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np
import scipy.sparse as sp

from ._highs import solve as solve_program
from .errors import MethodRefused
from .methods._common import MAX_BLOCK_BYTES, TIME_LIMIT
from .methods._consistency import has_layout
from .positions import as_observation, cell_pair
from .proof_check import checker
from .proofs import Assume, Combine, Proof, Split

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_MAX_DEPTH",
    "METHOD_STYLES",
    "STYLES",
    "proofs_for",
    "prove",
    "prove_all",
]

Cell = tuple[int, int]

STYLES = ("clue", "pair", "linear", "modular", "case")

#: The proof style of each sound method of ``sweeplab.METHODS``.
METHOD_STYLES = {
    "trivial": "clue",
    "subset": "pair",
    "rref": "linear",
    "lstsq-certified": "linear",
    "bounded": "linear",
    "lp": "linear",
    "gf2": "modular",
    "gfp": "modular",
    "milp": "case",
    "enumerate": "case",
    "brute": "case",
}

#: Largest number of combining steps in a proof (SPEC §6's size); larger proofs are "over budget".
DEFAULT_BUDGET = 64
#: Deepest nesting of ``split`` steps the case search tries.
DEFAULT_MAX_DEPTH = 6
#: Linear programs the search may solve for one cell (chains and case analysis).
DEFAULT_MAX_LPS = 400
#: A chain longer than this is compared with a one-step proof of a more general style and with case
#: analysis, and the smaller proof kept (a propagation along a corridor of clues can take as many steps as
#: the corridor is long where two clues read together prove the cell at once).
LONG_CHAIN = 16
#: Most entries of the dense ``[A | b | I]`` the modular style reduces (the algebraic methods' block
#: budget, :data:`~sweeplab.methods._common.MAX_BLOCK_BYTES`, at 8 bytes an entry); past it those claims
#: are proved in the other styles, or are over budget.
MAX_MODULAR_ENTRIES = MAX_BLOCK_BYTES // 8
#: The styles more general than a chain's own, tried for one-step proofs of a long chain's cell.
_MORE_GENERAL = {"clue": ("pair", "linear"), "pair": ("linear",)}
#: Links from a cell within which a single combining step is looked for first (:meth:`_Prover.linear_step`).
NEAR_HOPS = 2
#: Branch-and-bound nodes of the integer programme tried when an LP certificate fails: a limit
#: on work, not seconds, so that a proof does not depend on the machine's speed.
MIP_NODES = 1_000

_EPS = 1e-7


# --------------------------------------------------------------------------------------------
# the rows (SPEC §6), built here from the grid


class _Rows:
    """The clue rows (and the total row) of a position, as cell lists."""

    def __init__(self, obs: Any, use_total: bool):
        grid = np.asarray(obs.grid)
        h, w = grid.shape
        self.shape = (h, w)
        covered = [(int(r), int(c)) for r, c in zip(*np.nonzero(grid == -1), strict=True)]
        known_mines = int(np.count_nonzero((grid == -2) | (grid == -3)))
        self.sources: list[Any] = []
        self.cells: list[tuple[Cell, ...]] = []
        self.rhs: list[int] = []
        for r, c in zip(*np.nonzero(grid >= 0), strict=True):
            r, c = int(r), int(c)
            nb, known = [], 0
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    rr, cc = r + dr, c + dc
                    if (dr or dc) and 0 <= rr < h and 0 <= cc < w:
                        code = grid[rr, cc]
                        if code == -1:
                            nb.append((rr, cc))
                        elif code in (-2, -3):
                            known += 1
            if nb:
                self.sources.append((r, c))
                self.cells.append(tuple(sorted(nb)))
                self.rhs.append(int(grid[r, c]) - known)
        self.n_clue_rows = len(self.sources)
        frontier = {c for cells in self.cells for c in cells}
        self.frontier = sorted(frontier)
        self.interior = [c for c in covered if c not in frontier]
        self.covered = covered
        self.total: int | None = None
        if use_total and obs.mines is not None and covered:
            self.total = len(self.sources)
            self.sources.append("total")
            self.cells.append(tuple(covered))
            self.rhs.append(int(obs.mines) - known_mines)
        self.cell_rows: dict[Cell, list[int]] = defaultdict(list)
        for i, cells in enumerate(self.cells):
            for c in cells:
                self.cell_rows[c].append(i)
        self.interior_set = set(self.interior)
        self.sets = [frozenset(cells) for cells in self.cells]

    def __len__(self) -> int:
        return len(self.sources)

    def evaluate(self, combo: list[tuple[int, int]], fixed: dict[Cell, int], modulus: int | None = None):
        """Exact reading of a combination: ``(contradiction, rule, uses)``.

        ``rule`` maps each cell the bound rule fixes to its value, ``uses`` is
        the set of fixed cells substituted.
        """
        g: dict[Cell, int] = defaultdict(int)
        beta = 0
        for i, m in combo:
            for c in self.cells[i]:
                g[c] += m
            beta += m * self.rhs[i]
        uses = set()
        for c in [c for c, a in g.items() if a]:
            if c in fixed:
                uses.add(c)
                beta -= g.pop(c) * fixed[c]
        if modulus is not None:
            p = modulus
            g = {c: (a % p) - p if a % p > p // 2 else a % p for c, a in g.items()}
        g = {c: a for c, a in g.items() if a}
        lo = sum(a for a in g.values() if a < 0)
        hi = sum(a for a in g.values() if a > 0)
        if modulus is None:
            if beta < lo or beta > hi:
                return True, {}, uses
            end = beta if beta in (lo, hi) else None
        else:
            first = lo + (beta - lo) % modulus
            if first > hi:
                return True, {}, uses
            end = first if first + modulus > hi and first in (lo, hi) else None
        rule = {}
        if end is not None:
            for c, a in g.items():
                rule[c] = int((a > 0) == (end == hi))
        return False, rule, uses

    def component(self, seeds: set[Cell], fixed: dict[Cell, int], *, hops: int | None = None) -> list[int]:
        """Clue rows linked to the rows of ``seeds`` through free cells (the total row left out), or
        only those at most ``hops`` links away (0: the rows of ``seeds`` themselves)."""
        rows: set[int] = set()
        level = {i for c in seeds for i in self.cell_rows.get(c, ()) if i != self.total}
        seen_cells = set(seeds)
        while level:
            rows |= level
            if hops is not None and hops <= 0:
                break
            hops = None if hops is None else hops - 1
            nxt: set[int] = set()
            for i in level:
                for c in self.cells[i]:
                    if c not in fixed and c not in seen_cells:
                        seen_cells.add(c)
                        nxt.update(j for j in self.cell_rows[c] if j != self.total and j not in rows)
            level = nxt
        return sorted(rows)


# --------------------------------------------------------------------------------------------
# steps during the search


@dataclass
class _S:
    """A step found by the search (rows by index); converted to :mod:`sweeplab.proofs` at the end."""

    kind: str  # "combine" | "assume" | "split"
    rows: tuple[tuple[int, int], ...] = ()
    modulus: int | None = None
    fixes: dict[Cell, int] = field(default_factory=dict)
    uses: frozenset[Cell] = frozenset()
    contradiction: bool = False
    cell: Cell | None = None
    value: int = 0
    inner: list[_S] = field(default_factory=list)
    branches: tuple[list[_S], list[_S]] = ((), ())  # type: ignore[assignment]


def _prune(steps: list[_S], need: set[Cell], closing: bool) -> tuple[list[_S], set[Cell]]:
    """Keep only the steps the end of ``steps`` needs.

    ``closing``: the last step is a contradiction that must stay.  Otherwise
    ``need`` names the cells that must be fixed.  Returns the kept steps (fixes
    cut to what is needed) and the cells they need from outside the list.
    """
    need = set(need)
    kept: list[_S] = []
    for k in range(len(steps) - 1, -1, -1):
        s = steps[k]
        if closing and k == len(steps) - 1:
            kept.append(s)
            need |= s.uses
            continue
        useful = {c: v for c, v in s.fixes.items() if c in need}
        if not useful:
            continue
        kept.append(replace(s, fixes=useful))
        need -= set(useful)
        need |= s.uses
    kept.reverse()
    return kept, need


def _size(steps: list[_S]) -> tuple[int, int]:
    n, rows = 0, set[int]()
    stack = list(steps)
    while stack:
        s = stack.pop()
        if s.kind == "combine":
            n += 1
            rows.update(i for i, _ in s.rows)
        elif s.kind == "assume":
            stack.extend(s.inner)
        else:
            stack.extend(s.branches[0])
            stack.extend(s.branches[1])
    return n, len(rows)


class _OverBudget(Exception):
    pass


class _Satisfiable(Exception):
    """A context has a mine layout: no refutation exists."""


# --------------------------------------------------------------------------------------------
# the prover


class _Prover:
    def __init__(self, obs: Any, use_total: bool, *, budget: int, max_depth: int, max_lps: int,
                 time_limit: float | None = None):
        self.start = time.perf_counter()
        self.deadline = None if time_limit is None else self.start + float(time_limit)
        self.obs = obs
        self.rows = _Rows(obs, use_total)
        self.budget = budget
        self.max_depth = max_depth
        self.max_lps = max_lps
        self.lps = 0
        self._total_partners: list[int] | None = None
        # what the last call of each cache saw of a ``fixed`` dict (:meth:`_fixed_since`), and the caches
        self._seen: dict[str, tuple[dict[Cell, int], int]] = {}
        self._total_left = (0, 0)
        self._quiet: set[int] = set()

    def out_of_time(self, share: float = 1.0) -> bool:
        """Past ``share`` of the search's time budget (``time_limit`` of :func:`prove_all`)."""
        if self.deadline is None:
            return False
        now = time.perf_counter()
        return now > self.deadline - (1.0 - share) * (self.deadline - self.start)

    def single_step_in_time(self, cell: Cell, value: int, style: str, p: int | None) -> _S | None:
        """:meth:`single_step`, or ``None`` when the time budget ends during it."""
        try:
            return self.single_step(cell, value, style, p)
        except _OverBudget:
            return None

    def count_lp(self) -> float | None:
        """One more linear program: :class:`_OverBudget` past ``max_lps`` or the time budget; else the
        seconds left for it (``None``: no limit).  One program on a large board can take longer than the
        whole budget: HiGHS is given what is left (a 150x150 board overran 20 s by one program)."""
        self.lps += 1
        if self.lps > self.max_lps or self.out_of_time():
            raise _OverBudget
        return None if self.deadline is None else max(self.deadline - time.perf_counter(), 1e-3)

    def run_program(self, *args: Any, **kwargs: Any) -> np.ndarray | None:
        """:func:`~sweeplab._highs.solve` counted (:meth:`count_lp`); its point, ``None`` when it has none,
        :class:`_OverBudget` when the time budget ends during it (no answer, which is not "infeasible")."""
        res = solve_program(*args, time_limit=self.count_lp(), **kwargs)
        if res.status == "time limit":
            raise _OverBudget
        return res.x

    # ---------------------------------------------------------------- cheap rules

    def unit(self, fixed: dict[Cell, int], record: list[_S], changed: set[int] | None = None) -> _S | None:
        """The single-row rule to a fixpoint; a contradiction step, or ``None``.

        Rows are read in order, then first in, first out as fixed cells touch them (short chains).
        ``changed``: the rows whose cells were fixed since the last fixpoint (``None``: any row may
        apply).  The others cannot apply until one of their cells is fixed, so they are skipped,
        and the steps are the same as reading every row.
        """
        R = self.rows
        total = -1 if R.total is None else R.total
        # first pass: the rows in order (a heap of those that may apply); then a queue
        first = list(range(len(R))) if changed is None else sorted(changed)
        in_first = set(first)
        # the total row holds every cell: read it only when nothing else is queued, or each fixed cell
        # would read it again (minutes on a 300x300 board); the same fixpoint either way
        total_due = total in in_first
        if total_due:
            first.remove(total)
            in_first.discard(total)
        later: deque[int] = deque()
        queued: set[int] = set()
        at = -1  # the row the first pass is at
        while first or later or total_due:
            if first:
                i = heapq.heappop(first)
                in_first.discard(i)
                at = i
            else:
                at = len(R)  # the first pass is over
                if not later:
                    later.append(total)
                    queued.add(total)
                    total_due = False
                i = later.popleft()
                queued.discard(i)
            if i == total:  # count first: the total row's cells are listed only when it applies
                n_free, left = self.total_counts(fixed)
                if 0 < left < n_free:
                    continue
            free, r, uses = [], R.rhs[i], []
            for c in R.cells[i]:
                if c in fixed:
                    r -= fixed[c]
                    uses.append(c)
                else:
                    free.append(c)
            if r < 0 or r > len(free):
                s = _S("combine", rows=((i, 1),), uses=frozenset(uses), contradiction=True)
                record.append(s)
                return s
            if free and r in (0, len(free)):
                v = int(r > 0)
                record.append(_S("combine", rows=((i, 1),), fixes=dict.fromkeys(free, v),
                                 uses=frozenset(uses)))
                for c in free:
                    fixed[c] = v
                    for j in R.cell_rows[c]:
                        if j == total:
                            total_due = j != i
                        elif j > at:  # still ahead in the first pass: read there
                            if j not in in_first:
                                in_first.add(j)
                                heapq.heappush(first, j)
                        elif j not in queued:
                            queued.add(j)
                            later.append(j)
        return None

    def _fixed_since(self, key: str, fixed: dict[Cell, int]) -> tuple[bool, Iterator[tuple[Cell, int]]]:
        """``(new, added)``: whether ``fixed`` is another dict than at the last call for ``key``, and
        the cells fixed in it since that call (all of them when new; read them before fixing more).
        A cell is fixed once and never unfixed, and dicts keep their order: what was added is what
        follows the length seen then."""
        last, seen = self._seen.get(key, (None, 0))
        self._seen[key] = (fixed, len(fixed))
        new = last is not fixed or seen > len(fixed)
        return new, itertools.islice(fixed.items(), 0 if new else seen, None)

    def total_counts(self, fixed: dict[Cell, int]) -> tuple[int, int]:
        """The total row's free cells and the mines left among them (fixed holds fewer cells)."""
        R = self.rows
        assert R.total is not None
        cells = R.sets[R.total]
        new, added = self._fixed_since("total", fixed)
        n_free, left = (len(cells), R.rhs[R.total]) if new else self._total_left
        for c, v in added:
            if c in cells:
                n_free -= 1
                left -= v
        self._total_left = (n_free, left)
        return n_free, left

    def quiet_rows(self, fixed: dict[Cell, int]) -> set[int]:
        """The rows whose pairs (the total row's aside) found nothing, and whose cells and partners'
        cells are as they were then: a cell fixed since wakes the rows it could change."""
        R = self.rows
        new, added = self._fixed_since("quiet", fixed)
        if new:
            self._quiet = set()
        else:
            for c, _ in added:
                for j in R.cell_rows.get(c, ()):
                    if j != R.total:
                        for d in R.cells[j]:
                            self._quiet.difference_update(R.cell_rows[d])
        return self._quiet

    def pairs(self, fixed: dict[Cell, int], record: list[_S]) -> tuple[bool, _S | None]:
        """The difference rule on pairs of rows sharing a free cell, up to its first find.

        Called at a fixpoint of :meth:`unit`.  Rows are read in order from the first after each
        find, as a player would; a row whose pairs found nothing is skipped until a cell of it or
        of a partner is fixed (:meth:`quiet_rows`): the same finds, without reading them again.
        """
        R = self.rows
        quiet = self.quiet_rows(fixed)
        total_live = False
        if R.total is not None:
            total_free, total_left = self.total_counts(fixed)
            # the total minus a row (at most 8 cells) applies only with at most 8 mines or 8 safe cells left
            total_live = not (8 < total_left and 8 < total_free - total_left)
        for i in range(len(R)):
            if not i % 256 and self.out_of_time():
                raise _OverBudget
            if i in quiet and not total_live:
                continue
            free_i = [c for c in R.cells[i] if c not in fixed]
            if not free_i:
                continue
            partners = sorted({j for c in free_i for j in R.cell_rows[c] if j > i})
            for j in partners:
                if j == R.total:  # the total minus row i: read it only when it fixes cells or contradicts
                    if not total_live:
                        continue
                    beta = total_left - (R.rhs[i] - sum(fixed.get(c, 0) for c in R.cells[i]))
                    outside = total_free - len(free_i)
                    if 0 <= beta <= outside and not (outside and beta in (0, outside)):
                        continue
                elif i in quiet:
                    continue
                fi = {c for c in R.cells[i] if c not in fixed}
                fj = {c for c in R.cells[j] if c not in fixed}
                if not fi or not fj:
                    continue
                combo = [(j, 1), (i, -1)] if len(fj - fi) >= len(fi - fj) else [(i, 1), (j, -1)]
                contra, rule, uses = R.evaluate(combo, fixed)
                if contra:
                    s = _S("combine", rows=tuple(combo), uses=frozenset(uses), contradiction=True)
                    record.append(s)
                    return False, s
                if rule:  # back to the single-row rule after each find, as a player would
                    record.append(_S("combine", rows=tuple(combo), fixes=rule, uses=frozenset(uses)))
                    fixed.update(rule)
                    return True, None
            quiet.add(i)
        return False, None

    def propagate(self, fixed: dict[Cell, int], record: list[_S], level: str,
                  stop: dict[Cell, int] | None = None) -> _S | None:
        """Cheap rules to a fixpoint (``level`` "clue": single rows; otherwise pairs too).

        :class:`_OverBudget` past the search's time budget."""
        rows: set[int] | None = None  # every row, the first time
        while True:
            if self.out_of_time():
                raise _OverBudget
            contra = self.unit(fixed, record, rows)
            if contra is not None:
                return contra
            if stop and all(fixed.get(c) == v for c, v in stop.items()):
                return None
            if level == "clue":
                return None
            changed, contra = self.pairs(fixed, record)
            if contra is not None:
                return contra
            if not changed:
                return None
            rows = {j for c in record[-1].fixes for j in self.rows.cell_rows[c]}  # the rows the find touched

    # ---------------------------------------------------------------- linear programs

    def _matrix(self, rows: list[int], fixed: dict[Cell, int]):
        """Residual system over the free cells of ``rows``: ``(A, b, weights, columns)``.

        Free cells that only the total row holds share one column (weight = their number).
        """
        R = self.rows
        cols: dict[Any, int] = {}
        columns: list[Any] = []
        weights: list[int] = []
        data_r, data_c = [], []
        b = np.zeros(len(rows))
        interior_free = [c for c in R.interior if c not in fixed]
        for k, i in enumerate(rows):
            rhs = R.rhs[i]
            interior_seen = False
            for c in R.cells[i]:
                if c in fixed:
                    rhs -= fixed[c]
                    continue
                key = "interior" if c in R.interior_set else c
                if key == "interior":
                    if interior_seen:
                        continue  # one entry for the shared column: its weight counts the cells
                    interior_seen = True
                if key not in cols:
                    cols[key] = len(columns)
                    columns.append(key)
                    weights.append(len(interior_free) if key == "interior" else 1)
                data_r.append(k)
                data_c.append(cols[key])
            b[k] = rhs
        A = sp.csr_array((np.ones(len(data_r)), (data_r, data_c)), shape=(len(rows), len(columns)))
        return A, b, np.array(weights, dtype=float), columns, cols

    def _solve(self, c, A_ub, b_ub, integral: bool = False):
        n = c.size
        return self.run_program(c, A_ub, np.full(b_ub.size, -np.inf), b_ub, np.zeros(n),
                                np.full(n, 1000.0 if integral else np.inf), integer=integral,
                                max_nodes=MIP_NODES if integral else None)

    def _certify(self, y: np.ndarray, rows: list[int], fixed: dict[Cell, int], accept) -> _S | None:
        """Rationalise multipliers, scale to integers and keep the first that ``accept`` takes."""
        nz = np.flatnonzero(np.abs(y) > 1e-9)
        if nz.size == 0:
            return None
        tried = set()
        for scale in (1.0, 1.0 / np.abs(y[nz]).min(), 1.0 / np.abs(y[nz]).max()):
            for den in (1, 12, 1000, 10**6):
                fr = [Fraction(float(y[k] * scale)).limit_denominator(den) for k in nz]
                L = math.lcm(*(f.denominator for f in fr))
                ints = [int(f * L) for f in fr]
                gcd = math.gcd(*ints)
                if gcd == 0:
                    continue
                combo = tuple((rows[k], m // gcd) for k, m in zip(nz.tolist(), ints, strict=True) if m)
                if not combo or combo in tried:
                    continue
                tried.add(combo)
                step = accept(list(combo))
                if step is not None:
                    return step
        return None

    def lp_fix(self, cell: Cell, value: int, fixed: dict[Cell, int], rows: list[int]) -> _S | None:
        """A single combining step fixing ``cell`` to ``value`` over ``rows`` (LP dual certificate)."""
        A, b, w, columns, cols = self._matrix(rows, fixed)
        key = "interior" if cell in self.rows.interior_set else cell
        if key not in cols:
            return None
        v = cols[key]
        m, k = A.shape
        s = 1.0 if value == 0 else -1.0
        # variables [y+ (m), y- (m), n (k)]; s*g_v >= 1; n_j >= -g_j, n >= 0; b.y + w.n <= 0
        coo = A.tocoo()
        col_v = coo.col == v
        rows_ = [np.zeros(int(col_v.sum()), dtype=np.int64), np.zeros(int(col_v.sum()), dtype=np.int64),
                 1 + coo.col, 1 + coo.col, np.arange(1, k + 1), np.full(m, k + 1), np.full(m, k + 1),
                 np.full(k, k + 1)]
        cols_ = [coo.row[col_v], m + coo.row[col_v], coo.row, m + coo.row, 2 * m + np.arange(k),
                 np.arange(m), m + np.arange(m), 2 * m + np.arange(k)]
        vals_ = [-s * coo.data[col_v], s * coo.data[col_v], -coo.data, coo.data, -np.ones(k), b, -b, w]
        A_ub = sp.csr_array((np.concatenate(vals_), (np.concatenate(rows_), np.concatenate(cols_))),
                            shape=(k + 2, 2 * m + k))
        b_ub = np.concatenate([[-1.0], np.zeros(k), [0.0]])
        c = np.concatenate([np.ones(2 * m), np.zeros(k)])

        def accept(combo):
            contra, rule, uses = self.rows.evaluate(combo, fixed)
            if contra or rule.get(cell) != value:
                return None
            if sum(mult for _, mult in combo) < 0:  # read with positive multipliers first
                combo = [(i, -mult) for i, mult in combo]
            return _S("combine", rows=tuple(combo), fixes=rule, uses=frozenset(uses))

        return self._certificate(c, A_ub, b_ub, m, rows, fixed, accept)

    def lp_contradiction(self, fixed: dict[Cell, int], rows: list[int]) -> _S | None:
        """A single combining step that is a contradiction in the context ``fixed`` (Farkas certificate)."""
        A, b, w, columns, cols = self._matrix(rows, fixed)
        m, k = A.shape
        if m == 0:
            return None
        # variables [y+ (m), y- (m), q (k)]; q_j >= g_j, q >= 0; b.y - w.q >= 1
        coo = A.tocoo()
        rows_ = [coo.col, coo.col, np.arange(k), np.full(m, k), np.full(m, k), np.full(k, k)]
        cols_ = [coo.row, m + coo.row, 2 * m + np.arange(k), np.arange(m), m + np.arange(m),
                 2 * m + np.arange(k)]
        vals_ = [coo.data, -coo.data, -np.ones(k), -b, b, w]
        A_ub = sp.csr_array((np.concatenate(vals_), (np.concatenate(rows_), np.concatenate(cols_))),
                            shape=(k + 1, 2 * m + k))
        b_ub = np.concatenate([np.zeros(k), [-1.0]])
        c = np.concatenate([np.ones(2 * m), np.zeros(k)])

        def accept(combo):
            contra, _, uses = self.rows.evaluate(combo, fixed)
            if not contra:
                return None
            return _S("combine", rows=tuple(combo), uses=frozenset(uses), contradiction=True)

        return self._certificate(c, A_ub, b_ub, m, rows, fixed, accept)

    def _certificate(self, c, A_ub, b_ub, m: int, rows: list[int], fixed: dict[Cell, int],
                     accept) -> _S | None:
        """Multipliers ``y+ - y-`` of the rows from the LP ``min c.z, A_ub z <= b_ub`` (then as an
        integer programme), read into a step that ``accept`` takes; ``None`` when neither gives one."""
        for integral in (False, True):
            z = self._solve(c, A_ub, b_ub, integral)
            if z is None:
                return None
            step = self._certify(z[:m] - z[m:2 * m], rows, fixed, accept)
            if step is not None:
                return step
        return None

    def relaxation(self, fixed: dict[Cell, int], rows: list[int]):
        """A point of the LP relaxation in context ``fixed``: ``{column: value}``, or ``None``."""
        A, b, w, columns, cols = self._matrix(rows, fixed)
        if A.shape[1] == 0:
            return None
        x = self.run_program(np.zeros(A.shape[1]), A, b, b, np.zeros(w.size), w)
        if x is None:
            return None
        return {columns[j]: float(x[j]) / w[j] for j in range(len(columns))}

    def rows_for(self, seeds: set[Cell], fixed: dict[Cell, int], with_total: bool) -> list[int]:
        comp = self.rows.component(seeds, fixed)
        if with_total and self.rows.total is not None:
            return list(range(self.rows.n_clue_rows)) + [self.rows.total]
        return comp

    def linear_step(self, cell: Cell, value: int, fixed: dict[Cell, int]) -> _S | None:
        """A single combining step fixing the cell: on the rows near it, on its component, then with the
        total row.  The rows near it (:data:`NEAR_HOPS` links away) are tried first only for their speed:
        on a large board a component holds hundreds of rows, and the combination is nearly always near."""
        near = self.rows.component({cell}, fixed, hops=NEAR_HOPS)
        for with_total in (False, True) if self.rows.total is not None else (False,):
            rows = self.rows_for({cell}, fixed, with_total)
            if not with_total and len(rows) > len(near):
                step = self.lp_fix(cell, value, fixed, near)
                if step is not None:
                    return step
            if rows:
                step = self.lp_fix(cell, value, fixed, rows)
                if step is not None:
                    return step
        return None

    def contradiction_step(self, fixed: dict[Cell, int], seeds: set[Cell]) -> _S | None:
        for with_total in (False, True) if self.rows.total is not None else (False,):
            rows = self.rows_for(seeds, fixed, with_total)
            if rows:
                step = self.lp_contradiction(fixed, rows)
                if step is not None:
                    return step
        return None

    def assume_step(self, cell: Cell, value: int, fixed: dict[Cell, int]) -> _S | None:
        """``assume`` the other value and close it with one combining step (bounds propagation)."""
        inner = dict(fixed)
        inner[cell] = 1 - value
        contra = self.contradiction_step(inner, {cell})
        if contra is None:
            return None
        return _S("assume", cell=cell, value=1 - value, inner=[contra], fixes={cell: value},
                  uses=frozenset(contra.uses - {cell}))

    # ---------------------------------------------------------------- single steps from the position

    def single_step(self, cell: Cell, value: int, style: str, p: int | None) -> _S | None:
        """The smallest single combining step from the position: one row, two rows, or an LP certificate."""
        R = self.rows
        for i in R.cell_rows.get(cell, ()):
            n, r = len(R.cells[i]), R.rhs[i]
            if r in (0, n) and value == int(r == n):  # the single-row rule: none or all mines
                return _S("combine", rows=((i, 1),), fixes=dict.fromkeys(R.cells[i], value))
        if style == "clue":
            return None
        for i in R.cell_rows.get(cell, ()):
            if i == R.total:  # every clue row meets the total row: only those whose difference fixes cells
                partners = self.total_partners()
            else:
                partners = sorted({j for c in R.cells[i] for j in R.cell_rows[c]} - {i})
            for j in partners:
                step = self.pair_step(i, j, cell, value)
                if step is not None:
                    return step
        if style == "pair":
            return None
        return self.linear_step(cell, value, {})

    def total_partners(self) -> list[int]:
        """The clue rows whose difference with the total row fixes cells (the remaining mines all
        inside the row, or every cell outside it a mine), from the position; computed once."""
        if self._total_partners is None:
            R = self.rows
            assert R.total is not None  # called for the total row's pairs
            n_total, r_total = len(R.cells[R.total]), R.rhs[R.total]
            self._total_partners = [k for k in range(R.n_clue_rows)
                                    if r_total - R.rhs[k] in (0, n_total - len(R.cells[k]))]
        return self._total_partners

    def pair_step(self, i: int, j: int, cell: Cell, value: int) -> _S | None:
        """Row ``i`` minus row ``j`` from the position, if its bound rule fixes ``cell`` to ``value``."""
        R = self.rows
        if R.total in (i, j):  # the other row's cells are all in the total row: count, do not compare sets
            k = j if i == R.total else i
            if cell in R.sets[k]:
                return None
            outside = len(R.cells[R.total]) - len(R.cells[k])
            beta = R.rhs[R.total] - R.rhs[k]
            v = 1 if beta == outside else 0 if beta == 0 else None
            if v != value:
                return None
            combo = ((R.total, 1), (k, -1)) if value else ((k, 1), (R.total, -1))
            return _S("combine", rows=combo, fixes=dict.fromkeys(R.sets[R.total] - R.sets[k], v))
        only_i, only_j = R.sets[i] - R.sets[j], R.sets[j] - R.sets[i]
        beta = R.rhs[i] - R.rhs[j]
        if cell in only_i:
            hit = value == 1 and beta == len(only_i) or value == 0 and beta == -len(only_j)
        elif cell in only_j:
            hit = value == 0 and beta == len(only_i) or value == 1 and beta == -len(only_j)
        else:
            return None
        if not hit:
            return None
        v_i = int(beta == len(only_i))  # the value of the cells of row i only (those of row j: the other)
        rule = dict.fromkeys(only_i, v_i)
        rule.update(dict.fromkeys(only_j, 1 - v_i))
        combo = ((i, 1), (j, -1)) if value == (cell in only_i) else ((j, 1), (i, -1))
        return _S("combine", rows=combo, fixes=rule)

    # ---------------------------------------------------------------- modular certificates

    def modular_steps(self, p: int) -> dict[Cell, _S]:
        """Per cell, a combining step modulo ``p`` read off the RREF of ``[A | b | I]`` over GF(p)."""
        import flint

        R = self.rows
        m = len(R)
        if m == 0:
            return {}
        columns: list[Any] = list(R.frontier) + (["interior"] if R.interior and R.total is not None else [])
        index = {c: j for j, c in enumerate(columns)}
        n = len(columns)
        width = n + 1 + m
        if m * width > MAX_MODULAR_ENTRIES:  # a dense [A | b | I] this large: leave it to the other styles
            return {}
        entries = [0] * (m * width)
        for i in range(m):
            for c in R.cells[i]:
                j = index["interior"] if c in R.interior_set else index[c]
                entries[i * width + j] = 1
            entries[i * width + n] = R.rhs[i] % p
            entries[i * width + n + 1 + i] = 1
        M, _ = flint.nmod_mat(m, width, entries, p).rref()
        out: dict[Cell, _S] = {}
        for r in range(m):
            if not any(int(M[r, j]) for j in range(n)):
                continue
            combo = []
            for i in range(m):
                y = int(M[r, n + 1 + i])
                if y:
                    combo.append((i, y - p if y > p // 2 else y))
            contra, rule, _ = R.evaluate(combo, {}, modulus=p)
            if contra or not rule:
                continue
            step = _S("combine", rows=tuple(combo), modulus=p, fixes=rule)
            for c in rule:
                if c not in out or len(out[c].rows) > len(combo):
                    out[c] = step
        return out

    # ---------------------------------------------------------------- chains

    def chain(self, claims: dict[Cell, int], level: str, fixed: dict[Cell, int] | None = None,
              record: list[_S] | None = None) -> tuple[dict[Cell, int], list[_S]]:
        """Propagate from the position until every claim is fixed or nothing more follows.

        ``level``: "clue" (single rows), "pair" (and pairs), "linear" (and LP
        steps and ``assume`` steps closed by one combining step, tried on the
        claimed cells).  Returns the fixed cells and the record of steps.
        """
        fixed = {} if fixed is None else fixed
        record = [] if record is None else record
        while True:
            if self.propagate(fixed, record, "clue" if level == "clue" else "pair") is not None:
                return fixed, record  # inconsistent position: no proof from here
            open_claims = [c for c in claims if c not in fixed]
            if not open_claims or level != "linear":
                return fixed, record
            progress = False
            for c in open_claims:
                if c in fixed:
                    continue
                step = self.linear_step(c, claims[c], fixed)
                if step is None:
                    step = self.assume_step(c, claims[c], fixed)
                if step is not None:
                    record.append(step)
                    fixed.update(step.fixes)
                    progress = True
            if not progress:
                return fixed, record

    # ---------------------------------------------------------------- case analysis

    def refute(self, fixed: dict[Cell, int], seeds: set[Cell], depth: int) -> list[_S] | None:
        """Steps ending in a contradiction in the context ``fixed``, with at most ``depth`` nested splits."""
        contra = self.contradiction_step(fixed, seeds)  # one step, when it can
        if contra is not None:
            return [contra]
        fixed = dict(fixed)
        record: list[_S] = []
        contra = self.propagate(fixed, record, "pair")
        if contra is not None:
            return record
        if record:
            contra = self.contradiction_step(fixed, seeds)
            if contra is not None:
                return record + [contra]
        if depth == 0:
            return None
        rows = self.rows_for(seeds, fixed, self.rows.total is not None)
        point = self.relaxation(fixed, rows)
        if point is None:
            return None
        R = self.rows
        frac = [c for c, x in point.items() if c != "interior" and _EPS < x < 1 - _EPS]
        if not frac:
            raise _Satisfiable  # the relaxation has an integral point: a layout, no contradiction anywhere
        u = max(frac, key=lambda c: (len(R.cell_rows[c]), -abs(point[c] - 0.5), (-c[0], -c[1])))
        branches = []
        for v in (0, 1):
            inner = dict(fixed)
            inner[u] = v
            steps = self.refute(inner, seeds | {u}, depth - 1)
            if steps is None:
                return None
            steps, need = _prune(steps, set(), closing=True)
            branches.append((steps, need - {u}))
        uses = branches[0][1] | branches[1][1]
        record.append(_S("split", cell=u, branches=(branches[0][0], branches[1][0]), contradiction=True,
                         uses=frozenset(uses)))
        return record

    def layout_exists(self, fixed: dict[Cell, int], seeds: set[Cell], limit: int = 2000) -> bool | None:
        """Whether the context has a mine layout (backtracking with the single-row rule), ``None``
        past ``limit`` nodes or the time budget.  Without the total only the seeds' component is
        searched (the others are those of the position, consistent)."""
        R = self.rows
        if R.total is None:
            cells = sorted({c for i in R.component(seeds, fixed) for c in R.cells[i]})
        else:
            cells = list(R.frontier)
        # branch on the free cell in most rows (the first such in ``cells``)
        cells.sort(key=lambda c: -len(R.cell_rows[c]))
        # depth first, 0 before 1, on a stack (a path can be longer than Python's recursion limit)
        stack: list[tuple[dict[Cell, int], set[int] | None]] = [(dict(fixed), None)]
        for _ in range(limit):
            if not stack:
                return False
            if self.out_of_time():
                return None
            ctx, changed = stack.pop()
            if self.unit(ctx, [], changed) is not None:  # the parent's context was at a fixpoint
                continue
            u = next((c for c in cells if c not in ctx), None)
            if u is None:
                return True
            stack.extend(({**ctx, u: v}, set(R.cell_rows[u])) for v in (1, 0))
        return None if stack else False

    def case_proof(self, cell: Cell, value: int, fixed: dict[Cell, int]) -> list[_S] | None:
        """``assume`` the other value and refute it, with iterative deepening on the splits.

        Steps under the assumption that do not depend on it are moved before it.  ``None``
        past the depth; raises ``_Satisfiable`` when the cell can have the other value.
        """
        if self.layout_exists({**fixed, cell: 1 - value}, {cell}):
            raise _Satisfiable  # not forced: no proof exists
        for depth in range(self.max_depth + 1):
            inner = dict(fixed)
            inner[cell] = 1 - value
            steps = self.refute(inner, {cell}, depth)
            if steps is not None:
                steps, need = _prune(steps, set(), closing=True)
                outer, steps = _hoist(steps, cell)
                need = set().union(*(s.uses for s in steps)) - {c for s in steps for c in s.fixes}
                return outer + [_S("assume", cell=cell, value=1 - value, inner=steps, fixes={cell: value},
                                   uses=frozenset(need - {cell}))]
        return None

    # ---------------------------------------------------------------- output

    def oriented(self, s: _S, cell: Cell) -> tuple[tuple[int, int], ...]:
        """The step's multipliers, negated when that makes the coefficient of the cell it fixes
        positive (``cell``, else its first fixed cell): the same bound, read "x = 0" rather than
        "-x = 0".  A contradiction keeps its signs.  The rows keep their order, but a combination
        starts with a row added ("clue a - clue b", not "-clue b + clue a")."""
        rows = s.rows
        if s.fixes:
            target = cell if cell in s.fixes else min(s.fixes)
            a = sum(m for i, m in rows if target in self.rows.sets[i])
            if s.modulus is not None:
                a %= s.modulus
                a = a - s.modulus if a > s.modulus // 2 else a  # the residue nearest 0, as the rule reads it
            if a < 0:
                rows = tuple((i, -m) for i, m in rows)
        first = next((k for k, (_, m) in enumerate(rows) if m > 0), 0)
        return (rows[first],) + rows[:first] + rows[first + 1:]

    def to_proof(self, cell: Cell, value: int, method: str, steps: list[_S]) -> Proof:
        def conv(s: _S) -> Combine | Assume | Split:
            if s.kind == "combine":
                return Combine(tuple((self.rows.sources[i], m) for i, m in self.oriented(s, cell)), s.modulus,
                               tuple(sorted(s.fixes.items())))
            assert s.cell is not None
            if s.kind == "assume":
                return Assume(s.cell, s.value, tuple(conv(t) for t in s.inner))
            return Split(s.cell, tuple(conv(t) for t in s.branches[0]), tuple(conv(t) for t in s.branches[1]))

        return Proof(cell, value, method, [conv(s) for s in steps])


def _hoist(steps: list[_S], hypothesis: Cell) -> tuple[list[_S], list[_S]]:
    """Split the steps under an assumption into those that do not depend on it and the rest."""
    tainted = {hypothesis}
    outer: list[_S] = []
    inner: list[_S] = []
    for s in steps:
        if s.kind == "combine" and not s.contradiction and not (s.uses & tainted):
            outer.append(s)
        else:
            inner.append(s)
            tainted |= set(s.fixes)
    return outer, inner


class _Record:
    """A chain's record indexed by the cells each step fixes: the steps one cell needs are found
    without walking the whole record (thousands of claims on a large board)."""

    def __init__(self, record: list[_S]):
        self.record = record
        self.fixers: dict[Cell, list[int]] = defaultdict(list)  # ascending step indices
        for k, s in enumerate(record):
            for c in s.fixes:
                self.fixers[c].append(k)

    def extract(self, cell: Cell) -> list[_S]:
        """The steps ``cell`` needs: exactly ``_prune(record, {cell}, closing=False)``."""
        need: set[Cell] = set()
        heap: list[int] = []  # negated step indices still to visit, latest first
        seen: set[int] = set()

        def require(c: Cell, before: int) -> None:
            ks = self.fixers.get(c, ())
            at = bisect.bisect_left(ks, before)
            if at and ks[at - 1] not in seen:  # the latest step before ``before`` that fixes c
                seen.add(ks[at - 1])
                heapq.heappush(heap, -ks[at - 1])

        need.add(cell)
        require(cell, len(self.record))
        kept: list[_S] = []
        while heap:
            k = -heapq.heappop(heap)
            s = self.record[k]
            useful = {c: v for c, v in s.fixes.items() if c in need}
            if not useful:
                continue
            kept.append(replace(s, fixes=useful))
            need -= set(useful)
            for c in s.uses:
                if c not in need:
                    need.add(c)
                    require(c, k)
        kept.reverse()
        return kept


def _exact_clues(obs: Any) -> bool:
    return getattr(obs, "noise", None) not in ("under", "over")


def prove_all(
    obs: Any,
    safe: Any = (),
    mines: Any = (),
    *,
    style: str = "case",
    method: str | None = None,
    use_total: bool = True,
    p: int = 7,
    budget: int = DEFAULT_BUDGET,
    max_depth: int = DEFAULT_MAX_DEPTH,
    max_lps: int = DEFAULT_MAX_LPS,
    time_limit: float | None = TIME_LIMIT,
) -> tuple[dict[Cell, Proof], set[Cell]]:
    """Proofs of claimed cells, in one style.

    Parameters
    ----------
    obs : Observation
    safe, mines : iterable of (int, int)
        The claims to prove (those of a sound method, normally).
    style : {"clue", "pair", "linear", "modular", "case"}
        How to reason (see the module docstring); falls back to more general
        styles for claims it cannot reach, or reaches only in more than
        :data:`LONG_CHAIN` steps when a more general proof is smaller.
    method : str, optional
        Recorded in each proof (default: the style).
    use_total : bool, default True
        Whether proofs may use the ``"total"`` row (as the method did).
    p : int, default 7
        The prime of the ``"modular"`` style.
    budget : int, default DEFAULT_BUDGET
        Most combining steps per proof.
    max_depth : int, default DEFAULT_MAX_DEPTH
        Most nested splits the case analysis tries.
    max_lps : int, default DEFAULT_MAX_LPS
        Linear programs the search may spend on one cell past the first pass.
    time_limit : float or None, default 20
        Seconds for the search (``None``: no limit); the claims it has not
        proved by then are over budget, and the proofs found are then checked.
        (A method's own ``time_limit`` is passed here.)

    Returns
    -------
    proofs : dict
        Cell -> :class:`~sweeplab.proofs.Proof`, each checked by ``check_proof``.
    over_budget : set
        Claims with no proof within the budget.  A claim in neither is wrong: the
        search found a layout where the cell has the other value (only an unsound
        method such as ``lstsq`` makes such claims).

    The position is not checked for consistency: that is the caller's (from
    clues no layout fits, every claim follows).  :func:`sweeplab.deduce` and
    :func:`prove` check it first.

    Raises
    ------
    MethodRefused
        Under ``"under"``/``"over"`` clue noise (proofs need exact clues).

    Examples
    --------
    >>> from sweeplab import Observation
    >>> obs = Observation.from_text("???\\n121")
    >>> proofs, over = prove_all(obs, {(0, 1)}, {(0, 0), (0, 2)}, style="pair")
    >>> sorted(proofs), over
    ([(0, 0), (0, 1), (0, 2)], set())
    >>> [proofs[c].size for c in sorted(proofs)]
    [ProofSize(steps=1, rows=2), ProofSize(steps=2, rows=3), ProofSize(steps=1, rows=2)]
    """
    if style not in STYLES:
        raise ValueError(f"unknown proof style {style!r}; choose from {STYLES}")
    obs = as_observation(obs)
    if not _exact_clues(obs):
        raise MethodRefused(f"proofs need exact clues (SPEC §6), not clue noise {obs.noise!r}")
    method = style if method is None else method
    claims = {tuple(c): 0 for c in safe}
    claims.update({tuple(c): 1 for c in mines})
    claims = {(int(c[0]), int(c[1])): v for c, v in claims.items()}
    prover = _Prover(obs, use_total, budget=budget, max_depth=max_depth, max_lps=10**9, time_limit=time_limit)
    found: dict[Cell, list[_S]] = {}
    # 1. a single step from the position (the method's own kind of step first)
    if style == "modular":
        mod = prover.modular_steps(int(p))
        for c, v in claims.items():
            if prover.out_of_time():
                break
            if c in mod and mod[c].fixes.get(c) == v:
                step = mod[c]
                if len(step.rows) > 1:  # one clue or two read modulo p, when they do it
                    small = prover.single_step_in_time(c, v, "pair", p)
                    if small is not None and len(small.rows) < len(step.rows):
                        contra, rule, _ = prover.rows.evaluate(list(small.rows), {}, modulus=int(p))
                        if not contra and rule.get(c) == v:
                            step = replace(small, modulus=int(p), fixes=rule)
                found[c] = [replace(step, fixes={c: v})]
    for c, v in claims.items():
        if prover.out_of_time(share=0.5):  # half the time at most: the chains below prove many at once
            break
        if c in found:
            continue
        single = prover.single_step_in_time(c, v, style if style in ("clue", "pair") else "linear", p)
        if single is not None:
            found[c] = [replace(single, fixes={c: v})]
    # 2. chains, shared by the remaining claims
    rest = {c: v for c, v in claims.items() if c not in found}
    levels = {"clue": ("clue", "pair", "linear"), "pair": ("pair", "linear")}.get(style, ("linear",))
    for level in levels:
        if not rest or prover.out_of_time():
            break
        prover.lps, prover.max_lps = 0, max_lps * max(1, len(rest))
        fixed: dict[Cell, int] = {}
        record: list[_S] = []
        try:
            prover.chain(rest, level, fixed, record)
        except _OverBudget:
            pass  # the cells fixed so far have their steps in the record
        indexed = _Record(record)
        for c, v in list(rest.items()):  # cheap (an index): every cell the chain fixed keeps its proof
            if fixed.get(c) == v:
                found[c] = indexed.extract(c)
                del rest[c]
    # 3. a long chain (over the budget, or past LONG_CHAIN steps) gives way to a one-step proof of a
    #    more general style; then case analysis where still nothing, or a long chain, or (for complete
    #    methods) a chain of several steps, is found -- keeping whichever proof is smaller
    long = min(budget, LONG_CHAIN)
    wrong: set[Cell] = set()
    for c, v in claims.items():
        if prover.out_of_time():
            rest.update({c: v for c, v in claims.items() if c not in found})
            break
        if _size(found.get(c, []))[0] > long:
            for level in _MORE_GENERAL.get(style, ()):
                single = prover.single_step_in_time(c, v, level, p)
                if single is not None:
                    found[c] = [replace(single, fixes={c: v})]
                    break
        steps_now = _size(found.get(c, []))[0]
        if c in rest or steps_now > long or (style == "case" and steps_now > 1):
            prover.lps, prover.max_lps = 0, max_lps
            try:
                steps = prover.case_proof(c, v, {})
            except _OverBudget:
                steps = None
            except _Satisfiable:  # a layout gives the cell the other value: a wrong claim
                steps = None
                wrong.add(c)
            if steps is not None:
                found[c] = steps if c not in found or _size(steps) < _size(found[c]) else found[c]
                rest.pop(c, None)
    proofs: dict[Cell, Proof] = {}
    over: set[Cell] = set(rest) - wrong
    check = checker(obs)
    for c, steps in found.items():  # proofs found in time are checked (fast: each step once)
        if _size(steps)[0] > budget:
            over.add(c)
            continue
        proof = prover.to_proof(c, claims[c], method, steps)
        if check(proof):
            proofs[c] = _without_idle_steps(proof, check)
        else:  # never expected: the search builds only justified steps
            over.add(c)
    return proofs, over


def _without_idle_steps(proof: Proof, check) -> Proof:
    """``proof`` without the top-level steps the others do without, each removal checked.

    A chain step is kept by :func:`_prune` when a later step substitutes what it fixed, though the later
    step's bound may fix its cell without that value (a reviewer: 170 of 691 ``trivial`` proofs had a
    step to spare, and their sizes are what notebook 15 reports).
    """
    steps = list(proof.steps)
    removed = True
    while removed and len(steps) > 1:  # a removal can idle an earlier step: again until none goes
        removed = False
        k = 0
        while k < len(steps) and len(steps) > 1:
            shorter = steps[:k] + steps[k + 1:]
            if check(replace(proof, steps=shorter)):
                steps, removed = shorter, True
            else:
                k += 1
    return proof if len(steps) == len(proof.steps) else replace(proof, steps=steps)


def prove(
    obs: Any,
    cell: Cell,
    value: int,
    *,
    style: str = "case",
    method: str | None = None,
    use_total: bool = True,
    p: int = 7,
    budget: int = DEFAULT_BUDGET,
    max_depth: int = DEFAULT_MAX_DEPTH,
    max_lps: int = DEFAULT_MAX_LPS,
) -> Proof | None:
    """A proof that ``cell`` has ``value`` (0 safe, 1 mine), or ``None``.

    ``None`` when the cell is not forced to that value, when the proof would
    pass the budget, or under ``"under"``/``"over"`` clue noise.  The
    parameters are those of :func:`prove_all`.  Alone, the cell has no other
    claims to chain through: where :func:`prove_all` would build a chain over
    intermediate claimed cells, this proves it by contradiction instead.

    From clues that no layout fits, every claim would follow (both values of
    every cell), so, as :func:`sweeplab.deduce` does, the position is first
    checked (:func:`~sweeplab.methods._consistency.has_layout`: a node
    budget, then the LP relaxation, no time limit; a position too large for
    enumeration whose relaxation has a point goes unchecked).

    Raises
    ------
    InconsistentPositionError
        When no layout fits the position.

    Examples
    --------
    >>> from sweeplab import Observation
    >>> obs = Observation.from_text("????\\n-12-")
    >>> proof = prove(obs, (0, 3), 1, style="pair")
    >>> proof.to_dict()["steps"]
    [{'rows': [[[1, 2], 1], [[1, 1], -1]], 'modulus': None, 'fixes': [[[0, 3], 1]]}]
    >>> prove(obs, (0, 1), 1) is None
    True
    >>> prove(Observation.from_text("0?", mines=1), (0, 1), 1)
    Traceback (most recent call last):
    ...
    sweeplab.errors.InconsistentPositionError: ...
    """
    obs = as_observation(obs)
    pair = cell_pair(cell)
    if pair is None:
        raise ValueError(f"cell must be a pair of integers (row, col), got {cell!r}")
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Integral) or value not in (0, 1):
        raise ValueError(f"value must be 0 (safe) or 1 (mine), got {value!r}")
    if not _exact_clues(obs):
        return None
    cell = pair
    grid = np.asarray(obs.grid)
    if not (0 <= cell[0] < grid.shape[0] and 0 <= cell[1] < grid.shape[1]) or grid[cell] != -1:
        return None
    has_layout(obs, use_total=use_total, time_limit=None)  # raises on an inconsistent position
    safe, mines = ([cell], []) if value == 0 else ([], [cell])
    proofs, _ = prove_all(obs, safe, mines, style=style, method=method, use_total=use_total, p=p,
                          budget=budget, max_depth=max_depth, max_lps=max_lps)
    if cell in proofs:
        return proofs[cell]
    return None


def proofs_for(
    obs: Any,
    method: str,
    safe: Any,
    mines: Any,
    *,
    use_total: bool = True,
    style: str | None = None,
    **options: Any,
) -> tuple[dict[Cell, Proof], set[Cell]]:
    """Proofs of a method's claims in its own style (what ``deduce(..., proofs=True)`` calls).

    Parameters
    ----------
    obs : Observation
    method : str
        A name of :data:`METHOD_STYLES` (an unknown or unsound method gets the ``"case"`` style).
    safe, mines : iterable of (int, int)
        The method's claims.
    use_total : bool, default True
        As passed to the method.
    style : str, optional
        Default: the method's own (:data:`METHOD_STYLES`).  ``deduce`` passes
        ``"case"`` for a function it was given directly, whatever its name.
    **options
        The method's options (``p`` for ``gfp``, read as the modulus for it only); ``budget``, ``max_depth``,
        ``max_lps`` and ``time_limit`` (the method's own, also the search's) are
        passed to :func:`prove_all`, others are ignored.

    Returns
    -------
    (dict, set)
        Proofs by cell, and the claims over budget.  Claims in neither have no
        proof at all: wrong claims (only an unsound method makes them), or any
        claim under ``"under"``/``"over"`` clue noise, where proofs are not
        defined (SPEC §6).

    Examples
    --------
    >>> from sweeplab import Observation
    >>> obs = Observation.from_text("??????\\n?1122?")
    >>> proofs, over = proofs_for(obs, "gfp", {(0, 1)}, {(0, 4)})
    >>> proofs[(0, 1)].to_dict()["steps"][0]["modulus"]
    7
    """
    obs = as_observation(obs)
    if not _exact_clues(obs):
        return {}, set()
    style = METHOD_STYLES.get(method, "case") if style is None else style
    # only gfp's p is a modulus: another method's option p (a registered one's) means something else
    p = 2 if method == "gf2" else int(options.get("p", 7)) if method == "gfp" and style == "modular" else 7
    extra = {k: options[k] for k in ("budget", "max_depth", "max_lps", "time_limit") if k in options}
    return prove_all(obs, safe, mines, style=style, method=method, use_total=use_total, p=p, **extra)
