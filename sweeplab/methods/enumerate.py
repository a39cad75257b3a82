"""Exact deduction and mine probabilities by enumeration (report 004 §3, "split borders").

Report 004 enumerates every assignment of each *border* (a connected block of
frontier cells) by backtracking, and notes that blocks do not influence each
other, so ``2^3 + 2^5`` beats ``2^8``.  This module follows it, with three
standard refinements:

1. **Cell groups.**  Frontier cells that touch exactly the same clues are
   exchangeable; a group of ``g`` cells is one variable ``m`` in ``0..g`` worth
   ``C(g, m)`` layouts (groups have at most 8 cells).
2. **Counting by number of mines.**  Each block's solutions are counted per
   number of mines ``k``, so blocks combine with each other and with the
   interior cells (covered cells next to no clue) through the total: a frontier
   layout with ``S`` mines leaves ``C(I, R - S)`` interior layouts (``I``
   interior cells, ``R`` unknown mines).  Weights are kept in log space relative
   to their largest term, so a million-cell board does not overflow; where
   thousands of blocks would underflow the products at the totals the interior
   favours, every block's counts are tilted towards them (a saddle point: the
   products are unchanged).  *Which* cells are forced is decided on exact
   Boolean feasibility sets, never on rounded weights.
3. **Propagation.**  Groups are visited in breadth-first order along the clue
   graph, and each group's value range is cut by every clue it belongs to
   (``lo <= sum <= hi``) given what is assigned and what capacity remains, so
   dead branches are cut one level early.  The search is compiled with numba.

Probability conventions
-----------------------
With the total, every layout of the covered cells that fits the clues and the
total is equally likely (SPEC §4).  Without it (``use_total=False`` or an
unknown total) every layout of the covered cells that fits the clues is
equally likely, with no constraint on their number: frontier layouts are
weighted equally and interior cells have probability exactly 1/2.

Clue noise (report 004 §4): with ``obs.noise == "under"`` a number is a lower
bound on the mines around it (``sum >= b``), with ``"over"`` an upper bound
(``sum <= b``); layouts meeting these inequalities are equally likely.
``"lost"`` clues are ``NOCLUE`` cells, which simply give no constraint.

Budget.  A block with very many layouts (dense random positions) is abandoned
after ``max_nodes`` backtracking nodes (default 200,000, a few tens of
milliseconds) and counted by dynamic programming over clue states instead
(:func:`_dp_counts`: layouts that leave the same partial sums on the open
clues are counted together), which is exact too.  The count arrays and the
programme's tables must fit ``max_bytes`` (default :data:`MAX_BYTES`, 512 MiB),
and each level at most :data:`MAX_STATES` states; past these a
:class:`ComponentTooLargeError` is raised (a
:class:`~sweeplab.MethodRefused`), and :func:`forced_cells` (the ``enumerate``
method) falls back to the ``milp`` method, also exact, so the method stays
complete, while :func:`probabilities` raises.  ``time_limit`` (default
:data:`~sweeplab.methods._common.TIME_LIMIT` seconds) is checked between
chunks of backtracking and inside the programme; past it,
:class:`~sweeplab.MethodRefused` (no fallback: the time is spent).
"""

from __future__ import annotations

import functools
import math
import operator
from dataclasses import dataclass
from math import comb

import numba
import numpy as np

from ..clue_system import GroupedSystem, clue_system
from ..errors import ComponentTooLargeError, InconsistentPositionError, MethodRefused, check_flag, mines_text
from ..positions import FLAG, MINE, Observation, as_observation
from ._common import TIME_LIMIT, Budget, count_option, size_text

__all__ = [
    "ComponentTooLargeError",
    "block_contradiction",
    "Enumeration",
    "analyse",
    "block_counts",
    "forced_cells",
    "probabilities",
]

Cell = tuple[int, int]

#: Default cap on backtracking nodes per block (:func:`probabilities`, :func:`analyse`).
MAX_NODES = 200_000
#: Default budget of the counting, in bytes (option ``max_bytes``): the count arrays of every
#: block (a float and a flag per group and number of mines) and the dynamic programme's tables.
MAX_BYTES = 512 << 20
#: Backtracking nodes between two looks at the clock.
_CHUNK_NODES = 2_000_000


@numba.njit(cache=True)
def _layout(gsize, row_ptr, row_groups):  # pragma: no cover - compiled
    """Blocks of groups in breadth-first order along the clue graph, and the offsets of their counts.

    Returns ``(gptr, grows, comp, order, starts, coff, goff)``: the rows of each
    group (CSR ``gptr``, ``grows``); ``comp[g]`` the block of group ``g``; the
    groups of block ``c`` are ``order[starts[c]:starts[c + 1]]``; block ``c``'s
    counts per number of mines start at ``coff[c]``, group ``g``'s at ``goff[g]``.
    """
    G = gsize.size
    R = row_ptr.size - 1
    gdeg = np.zeros(G + 1, np.int64)
    for r in range(R):
        for t in range(row_ptr[r], row_ptr[r + 1]):
            gdeg[row_groups[t] + 1] += 1
    gptr = np.cumsum(gdeg)
    grows = np.empty(gptr[G], np.int64)
    fill = gptr[:G].copy()
    for r in range(R):
        for t in range(row_ptr[r], row_ptr[r + 1]):
            g = row_groups[t]
            grows[fill[g]] = r
            fill[g] += 1
    comp = np.full(G, -1, np.int64)
    order = np.empty(G, np.int64)
    starts = np.zeros(G + 1, np.int64)
    n_comp = 0
    head = 0
    tail = 0
    for s in range(G):
        if comp[s] >= 0:
            continue
        starts[n_comp] = tail
        comp[s] = n_comp
        order[tail] = s
        tail += 1
        while head < tail:
            g = order[head]
            head += 1
            for t in range(gptr[g], gptr[g + 1]):
                r = grows[t]
                for u in range(row_ptr[r], row_ptr[r + 1]):
                    v = row_groups[u]
                    if comp[v] < 0:
                        comp[v] = n_comp
                        order[tail] = v
                        tail += 1
        n_comp += 1
    starts[n_comp] = G
    coff = np.zeros(n_comp + 1, np.int64)
    for c in range(n_comp):
        k = 0
        for i in range(starts[c], starts[c + 1]):
            k += gsize[order[i]]
        coff[c + 1] = coff[c] + k + 1
    goff = np.zeros(G + 1, np.int64)
    for g in range(G):
        goff[g + 1] = goff[g] + coff[comp[g] + 1] - coff[comp[g]]
    return gptr, grows, comp, order, starts[: n_comp + 1].copy(), coff, goff


@numba.njit(cache=True)
def _backtrack(gsize, row_ptr, row_groups, lo, hi, gptr, grows, order, starts, coff, goff, counts, gmines,
               cansafe, over, first, max_nodes, chunk):  # pragma: no cover - compiled
    """Backtrack over the groups of blocks ``first, first + 1, ...``; count layouts per number of mines.

    Fills ``counts[coff[c] + k]``, the number of layouts of block ``c`` with
    ``k`` mines; ``gmines[goff[g] + k]``, the sum over those layouts of the
    mines in group ``g``; ``cansafe[goff[g] + k]``, whether some such layout
    leaves a cell of ``g`` free.  A block that needs more than ``max_nodes``
    nodes is abandoned (its entries stay 0) and flagged in ``over``.  Stops
    after the block during which this call passes ``chunk`` nodes; returns the
    next block.
    """
    G = gsize.size
    R = lo.size
    binom = np.zeros((9, 9))
    for n in range(9):
        binom[n, 0] = 1.0
        for m in range(1, n + 1):
            binom[n, m] = binom[n - 1, m - 1] + (binom[n - 1, m] if m <= n - 1 else 0.0)
    cur = np.zeros(R, np.int64)
    rem = np.zeros(R, np.int64)
    for r in range(R):
        for t in range(row_ptr[r], row_ptr[r + 1]):
            rem[r] += gsize[row_groups[t]]
    val = np.zeros(G, np.int64)
    top = np.zeros(G, np.int64)
    assigned = np.zeros(G, np.bool_)
    spent = 0
    c = first
    while c < starts.size - 1 and spent <= chunk:
        a = starts[c]
        n = starts[c + 1] - a
        mines = 0
        nodes = 0
        i = 0
        # range of level 0
        g = order[a]
        low = 0
        up = gsize[g]
        for t in range(gptr[g], gptr[g + 1]):
            r = grows[t]
            low = max(low, lo[r] - cur[r] - (rem[r] - gsize[g]))
            up = min(up, hi[r] - cur[r])
        val[0] = low
        top[0] = up
        assigned[0] = False
        while i >= 0:
            g = order[a + i]
            if assigned[i]:
                for t in range(gptr[g], gptr[g + 1]):
                    r = grows[t]
                    cur[r] -= val[i]
                    rem[r] += gsize[g]
                mines -= val[i]
                assigned[i] = False
                val[i] += 1
            if val[i] > top[i]:
                i -= 1
                continue
            for t in range(gptr[g], gptr[g + 1]):
                r = grows[t]
                cur[r] += val[i]
                rem[r] -= gsize[g]
            mines += val[i]
            assigned[i] = True
            nodes += 1
            if nodes > max_nodes:
                # abandon the block: undo its assignments, clear what it counted
                for j in range(i, -1, -1):
                    if assigned[j]:
                        gj = order[a + j]
                        for t in range(gptr[gj], gptr[gj + 1]):
                            r = grows[t]
                            cur[r] -= val[j]
                            rem[r] += gsize[gj]
                        assigned[j] = False
                counts[coff[c] : coff[c + 1]] = 0.0
                for j in range(n):
                    gj = order[a + j]
                    gmines[goff[gj] : goff[gj + 1]] = 0.0
                    cansafe[goff[gj] : goff[gj + 1]] = False
                over[c] = True
                break
            if i == n - 1:
                wgt = 1.0
                for j in range(n):
                    gj = order[a + j]
                    wgt *= binom[gsize[gj], val[j]]
                counts[coff[c] + mines] += wgt
                for j in range(n):
                    gj = order[a + j]
                    gmines[goff[gj] + mines] += wgt * val[j]
                    if val[j] < gsize[gj]:
                        cansafe[goff[gj] + mines] = True
            else:
                i += 1
                g = order[a + i]
                low = 0
                up = gsize[g]
                for t in range(gptr[g], gptr[g + 1]):
                    r = grows[t]
                    low = max(low, lo[r] - cur[r] - (rem[r] - gsize[g]))
                    up = min(up, hi[r] - cur[r])
                val[i] = low
                top[i] = up
                assigned[i] = False
        spent += nodes
        c += 1
    return c


def block_contradiction(obs: Observation, *, use_total: bool = True, max_nodes: int = MAX_NODES,
                        max_bytes: int | None = MAX_BYTES) -> str | None:
    """Why no layout fits, found block by block within ``max_nodes`` nodes each; ``None`` if not found.

    Each block of the frontier is searched alone, so the answer does not
    depend on the machine, and a block past ``max_nodes`` is only left out
    (taken to allow any number of mines).  Two contradictions are found:

    - a block no layout fits (a pocket of clues that contradict each other),
      whatever the rest and the total;
    - with ``use_total``, a total that no sum of the mine counts the blocks
      allow, plus the interior's, reaches (pockets that hold 1 or 4 mines
      each cannot hold 2 between two of them: the LP relaxation can).

    ``None`` says only that neither was found.

    Raises
    ------
    MethodRefused
        When the count arrays are over ``max_bytes``.

    Examples
    --------
    >>> block_contradiction(Observation.from_text("??\\n.2"))  # the 2 needs both cells, the 0 neither
    'a block of the frontier has no layout that fits its clues'
    >>> block_contradiction(Observation.from_text("??\\n11", mines=1)) is None
    True
    >>> block_contradiction(Observation.from_text("1??\\n???", mines=4))  # 1 by the clue, 2 off it
    'no sum of the mines each block of the frontier allows and the interior can hold fits the 4 mines left'
    """
    return block_check(obs, use_total=use_total, max_nodes=max_nodes, max_bytes=max_bytes)[0]


def block_check(obs: Observation, *, use_total: bool = True, max_nodes: int = MAX_NODES,
                max_bytes: int | None = MAX_BYTES) -> tuple[str | None, bool]:
    """:func:`block_contradiction`'s reason, and whether every block was searched to its end.

    When every block was and no contradiction is found, some layout fits:
    the blocks are independent but for the total, which some sum then meets.
    """
    p = clue_system(obs, use_total=use_total).grouped()
    R, I = p.remaining, int(p.interior.size)
    allowed: list[np.ndarray | None] = []
    cells: list[int] = []
    if p.group_size.size:
        budget = Budget("enumerate", time_limit=None, max_bytes=max_bytes)
        comp, counts, coff, _, _, _, over, _ = _search(p.group_size, p.row_ptr, p.row_groups, p.lo, p.hi,
                                                       _max_nodes(max_nodes), budget)
        allowed = [None if over[c] else np.flatnonzero(counts[coff[c]: coff[c + 1]] > 0)
                   for c in range(coff.size - 1)]
        cells = np.bincount(comp, weights=p.group_size, minlength=len(allowed)).astype(np.int64).tolist()
    complete = all(a is not None for a in allowed)
    if any(a is not None and not a.size for a in allowed):
        return "a block of the frontier has no layout that fits its clues", True
    if R is None:
        return None, complete
    # the sums of mines reachable so far, as the bits of an integer (bit k: k mines)
    reach = _any_count(1, I)
    for a, n in zip(allowed, cells, strict=True):
        if a is None:
            reach = _any_count(reach, n)
        else:
            reach = functools.reduce(operator.or_, (reach << int(k) for k in a))
    if R < 0 or not (reach >> R) & 1:
        return (f"no sum of the mines each block of the frontier allows and the interior can hold fits "
                f"the {mines_text(R)} left"), True
    return None, complete


def _any_count(reach: int, n: int) -> int:
    """``reach`` with anything from 0 to ``n`` added: the OR of ``reach << k`` for k = 0..n (by doubling)."""
    done = 1  # reach now holds the sums of 0..done-1 added
    while done <= n:
        step = min(done, n + 1 - done)
        reach |= reach << step
        done += step
    return reach


@numba.njit(cache=True)
def _search_start(gsize, row_ptr, row_groups, lo, hi, max_nodes, chunk, max_bytes):  # pragma: no cover
    """:func:`_layout`, the count arrays and the first :func:`_backtrack` chunk in one compiled call.

    Returns ``(comp, coff, goff, counts, gmines, cansafe, over, next block)``; the
    next block is ``-1`` (and the count arrays empty) when they would need more
    than ``max_bytes`` (``-1``: no limit).  Only what the caller reads is
    returned (each returned array costs boxing); a search that needs another
    chunk recomputes the layout.
    """
    gptr, grows, comp, order, starts, coff, goff = _layout(gsize, row_ptr, row_groups)
    n_comp = starts.size - 1
    over = np.zeros(n_comp, np.bool_)
    if max_bytes >= 0 and 9 * goff[-1] + 8 * coff[-1] > max_bytes:
        return comp, coff, goff, np.zeros(0), np.zeros(0), np.zeros(0, np.bool_), over, -1
    counts = np.zeros(coff[-1])
    gmines = np.zeros(goff[-1])
    cansafe = np.zeros(goff[-1], np.bool_)
    c = _backtrack(gsize, row_ptr, row_groups, lo, hi, gptr, grows, order, starts, coff, goff, counts, gmines,
                   cansafe, over, 0, max_nodes, chunk)
    return comp, coff, goff, counts, gmines, cansafe, over, c


def _search(gsize, row_ptr, row_groups, lo, hi, max_nodes, budget: Budget | None = None):
    """Count the layouts of every block by backtracking (:func:`_backtrack`), ``max_nodes`` per block.

    Returns ``(comp, counts, coff, gmines, cansafe, goff, over, status)``:
    ``comp[g]`` the block of group ``g``; the count arrays of :func:`_backtrack`
    (``goff`` without its last entry); ``over[c]`` for the blocks abandoned past
    ``max_nodes``; ``status`` 0, or -1 when some block was.

    Raises
    ------
    ComponentTooLargeError
        When the count arrays are over ``budget.max_bytes``.
    MethodRefused
        When the time is up.
    """
    budget = budget or Budget("enumerate", time_limit=None)
    comp, coff, goff, counts, gmines, cansafe, over, c = _search_start(
        gsize, row_ptr, row_groups, lo, hi, int(max_nodes), _CHUNK_NODES,
        -1 if budget.max_bytes is None else budget.max_bytes)
    n_comp = coff.size - 1
    if c < 0:
        _need(budget, 9 * int(goff[-1]) + 8 * int(coff[-1]),
              f"count arrays for {n_comp} blocks (largest: {int(np.diff(coff).max(initial=1)) - 1} cells)")
    if c < n_comp:
        gptr, grows, _, order, starts, _, _ = _layout(gsize, row_ptr, row_groups)
    while c < n_comp:
        budget.check(f"enumerating {n_comp} blocks")
        c = _backtrack(gsize, row_ptr, row_groups, lo, hi, gptr, grows, order, starts, coff, goff, counts,
                       gmines, cansafe, over, c, int(max_nodes), _CHUNK_NODES)
    return comp, counts, coff, gmines, cansafe, goff[:-1], over, -1 if np.count_nonzero(over) else 0


def _need(budget: Budget, need: int, what: str) -> None:
    """:class:`ComponentTooLargeError` when ``need`` bytes are over the budget (``what`` names them)."""
    if budget.max_bytes is not None and need > budget.max_bytes:
        raise ComponentTooLargeError(
            f"enumeration would need {size_text(need)} for {what}, over its size budget "
            f"max_bytes={budget.max_bytes} ({size_text(budget.max_bytes)}); "
            "raise the option max_bytes (bytes, or None for no limit)")


#: Cap on the work arrays of the combination step (blocks x span of frontier totals).
MAX_COMBINE_CELLS = 20_000_000
#: Cap on the inner steps of the combination step (about a second of compiled loops).
MAX_COMBINE_STEPS = 2_000_000_000


@numba.njit(cache=True)
def _mine_count_span(counts, coff, c):  # pragma: no cover - compiled
    """Fewest and most mines block ``c`` has a layout with (``-1, -1`` when it has none)."""
    first = -1
    last = -1
    for k in range(coff[c + 1] - coff[c]):
        if counts[coff[c] + k] > 0:
            if first < 0:
                first = k
            last = k
    return first, last


@numba.njit(cache=True)
def _mine_count_spans(counts, coff):  # pragma: no cover - compiled
    """Each block's fewest mines and how many mine counts run from it to its most (``klen`` 0 for a
    block without a layout): :func:`_mine_count_span` of every block."""
    n_comp = coff.size - 1
    kmin = np.zeros(n_comp, np.int64)
    klen = np.zeros(n_comp, np.int64)
    for c in range(n_comp):
        first, last = _mine_count_span(counts, coff, c)
        if last >= 0:
            kmin[c] = first
            klen[c] = last - first + 1
    return kmin, klen


@numba.njit(cache=True)
def _combine(comp, counts, coff, gmines, cansafe, goff, gsize, R, I, use_total, want_probs):  # noqa: E501
    """Combine the blocks (and the interior, through the total) into forced cells and probabilities.

    Feasibility (which cells are forced) uses exact Boolean convolutions of the
    mine counts each block allows; probabilities use float convolutions
    normalised at each step and interior weights ``C(I, R - S)`` in log space
    relative to their largest term.  Each block's counts are shifted to start at
    its fewest mines, so blocks with a fixed count cost nothing.  Where a
    frontier total the interior's weight favours underflowed (thousands of
    blocks), the combination is repeated with every block tilted by
    ``exp(theta k)`` and the weights by ``exp(-theta S)`` (exact: the products
    are unchanged), ``theta`` chosen so the float products peak where the
    weight lies (:func:`_saddle_tilt`).  Each block's weights come from the
    product of all the others: chains of prefix and suffix products, or past
    their budget a balanced tree of products (:func:`_combine_with_total`;
    a 1000x1000 board in mid-game has thousands of blocks).  Returns ``(status, safe_g, mine_g,
    prob_g, interior_safe, interior_mine, interior_prob)``; status 1: a block
    has no layout; 2: no frontier total fits the total; 3: the work arrays
    would exceed ``MAX_COMBINE_CELLS``; 4: the inner steps would exceed
    ``MAX_COMBINE_STEPS`` (:func:`_combine_steps`); 5: (with ``want_probs``) a
    frontier total the total favours underflowed even so.
    """
    n_comp = coff.size - 1
    K1 = 1
    for c in range(n_comp):
        K1 = max(K1, coff[c + 1] - coff[c])
    G = gsize.size
    safe_g = np.zeros(G, np.bool_)
    mine_g = np.zeros(G, np.bool_)
    prob_g = np.zeros(G)
    kmin, klen = _mine_count_spans(counts, coff)
    for c in range(n_comp):
        if klen[c] == 0:
            return 1, safe_g, mine_g, prob_g, False, False, 0.5
    if not use_total:
        z = np.zeros(n_comp)
        for c in range(n_comp):
            z[c] = counts[coff[c] : coff[c + 1]].sum()
        for g in range(G):
            m = 0.0
            anymine = False
            anysafe = False
            for k in range(coff[comp[g] + 1] - coff[comp[g]]):
                m += gmines[goff[g] + k]
                anymine |= gmines[goff[g] + k] > 0
                anysafe |= cansafe[goff[g] + k]
            safe_g[g] = not anymine
            mine_g[g] = not anysafe
            prob_g[g] = m / z[comp[g]] / gsize[g]
        return 0, safe_g, mine_g, prob_g, False, False, 0.5
    K0 = 0
    L = 1
    for c in range(n_comp):
        K0 += kmin[c]
        L += klen[c] - 1
    # Blocks with a fixed number of mines only shift the totals: the chains of
    # prefix and suffix products run over the other blocks alone.
    nv = 0
    for c in range(n_comp):
        if klen[c] > 1:
            nv += 1
    # the chains, or past their budget (thousands of blocks) the tree of :func:`_tree_shape`
    tree = (nv + 1) * L > MAX_COMBINE_CELLS or _combine_steps(counts, coff) > MAX_COMBINE_STEPS
    if tree:
        cells, steps = _tree_work(klen, nv)
        if cells > MAX_COMBINE_CELLS:
            return 3, safe_g, mine_g, prob_g, False, False, 0.0
        if steps > MAX_COMBINE_STEPS:
            return 4, safe_g, mine_g, prob_g, False, False, 0.0
    result = _combine_with_total(0.0, comp, counts, coff, gmines, cansafe, goff, gsize, R, I, want_probs,
                                 kmin, klen, K0, L, K1, tree)
    if result[0] == 5:
        theta = _saddle_tilt(counts, coff, kmin, klen, R - K0, I, L)
        result = _combine_with_total(theta, comp, counts, coff, gmines, cansafe, goff, gsize, R, I,
                                     want_probs, kmin, klen, K0, L, K1, tree)
    return result


@numba.njit(cache=True)
def _tree_shape(klen, nv):  # pragma: no cover - compiled
    """A balanced tree over the ``nv`` blocks whose mine count varies (leaves ``0..nv-1`` in block
    order, each inner node the product of two neighbours, the root last): ``(left, right, span,
    off)``, ``span`` the number of totals a node's product spans and ``off`` where its entries start
    in a flat array."""
    n_nodes = max(1, 2 * nv - 1)
    left = np.full(n_nodes, -1, np.int64)
    right = np.full(n_nodes, -1, np.int64)
    span = np.ones(n_nodes, np.int64)
    c = 0
    for i in range(nv):
        while klen[c] == 1:
            c += 1
        span[i] = klen[c]
        c += 1
    level = np.arange(nv)
    node = nv
    while level.size > 1:
        up = np.empty((level.size + 1) // 2, np.int64)
        for j in range(level.size // 2):
            a, b = level[2 * j], level[2 * j + 1]
            left[node], right[node] = a, b
            span[node] = span[a] + span[b] - 1
            up[j] = node
            node += 1
        if level.size % 2:
            up[-1] = level[-1]
        level = up
    off = np.zeros(n_nodes + 1, np.int64)
    for i in range(n_nodes):
        off[i + 1] = off[i] + span[i]
    return left, right, span, off


@numba.njit(cache=True)
def _tree_work(klen, nv):  # pragma: no cover - compiled
    """Work cells and inner steps of :func:`_combine` through the tree (each inner node's product
    and its two children's contexts)."""
    left, right, span, off = _tree_shape(klen, nv)
    steps = 0
    for n in range(nv, 2 * nv - 1):
        steps += 3 * span[left[n]] * span[right[n]]
    return 2 * off[-1], steps


@numba.njit(cache=True)
def _tilted_mean(counts, coff, kmin, klen, theta):  # pragma: no cover - compiled
    """Mean number of mines (shifted by the fewest) over the blocks, each block's counts times
    ``exp(theta k)``."""
    total = 0.0
    for c in range(coff.size - 1):
        if klen[c] == 1:
            continue
        top = -np.inf
        for k in range(klen[c]):
            v = counts[coff[c] + kmin[c] + k]
            if v > 0:
                top = max(top, math.log(v) + theta * k)
        z = 0.0
        m = 0.0
        for k in range(klen[c]):
            v = counts[coff[c] + kmin[c] + k]
            if v > 0:
                e = math.exp(math.log(v) + theta * k - top)
                z += e
                m += k * e
        total += m / z
    return total


@numba.njit(cache=True)
def _saddle_tilt(counts, coff, kmin, klen, Rs, I, L):  # pragma: no cover - compiled
    """The tilt ``theta`` of :func:`_combine`: the blocks' counts times ``exp(theta k)`` have their
    mean total ``S*`` where the interior's weight ``C(I, Rs - S)`` has slope ``theta`` (the
    saddle point of the product, where the combined weight peaks); ``S*`` at an end of the
    totals the interior allows when the slope cannot match there."""
    lo = max(0.0, float(Rs - I))
    hi = min(float(L - 1), float(Rs))

    def slope(S):  # d/dS log C(I, Rs - S), continuous
        t = min(max(Rs - S, 0.5), I - 0.5)
        return math.log(t / (I - t))

    target = hi
    if I > 0 and lo < hi:
        if _tilted_mean(counts, coff, kmin, klen, slope(lo)) <= lo:
            target = lo
        elif _tilted_mean(counts, coff, kmin, klen, slope(hi)) < hi:
            a, b = lo, hi  # mean(slope(S)) - S decreases in S: bisection for its zero
            for _ in range(100):
                mid = 0.5 * (a + b)
                if _tilted_mean(counts, coff, kmin, klen, slope(mid)) > mid:
                    a = mid
                else:
                    b = mid
            return slope(0.5 * (a + b))
    a, b = -50.0, 50.0  # the mean rises with theta: bisection for mean == target
    for _ in range(100):
        mid = 0.5 * (a + b)
        if _tilted_mean(counts, coff, kmin, klen, mid) < target:
            a = mid
        else:
            b = mid
    return 0.5 * (a + b)


@numba.njit(cache=True)
def _combine_with_total(theta, comp, counts, coff, gmines, cansafe, goff, gsize, R, I, want_probs,
                        kmin, klen, K0, L, K1, tree):  # pragma: no cover - compiled
    """:func:`_combine` with the total, every block tilted by ``exp(theta k)`` (none at 0).

    What each block needs is the product of all the others against the interior's weights.  The
    chains of prefix and suffix products give it in ``nv * L * spread`` steps; with ``tree`` a
    balanced tree of products does (:func:`_tree_shape`): each node's context, the weights its
    totals get from everything outside it, is its parent's context against its sibling's product,
    about ``L ** 2`` steps in all."""
    n_comp = coff.size - 1
    G = gsize.size
    safe_g = np.zeros(G, np.bool_)
    mine_g = np.zeros(G, np.bool_)
    prob_g = np.zeros(G)
    # groups of each block (CSR)
    gptr = np.zeros(n_comp + 1, np.int64)
    for g in range(G):
        gptr[comp[g] + 1] += 1
    for c in range(n_comp):
        gptr[c + 1] += gptr[c]
    glist = np.empty(G, np.int64)
    fill = gptr[:n_comp].copy()
    for g in range(G):
        glist[fill[comp[g]]] = g
        fill[comp[g]] += 1
    var = np.empty(n_comp, np.int64)
    nv = 0
    for c in range(n_comp):
        if klen[c] > 1:
            var[nv] = c
            nv += 1
    # each count (and each group's mine count) is divided by its block's largest count, or with a
    # tilt by exp(top - theta k), top the largest tilted log count: the weights stay at most 1
    div = np.ones(counts.size)
    for c in range(n_comp):
        mx = 0.0
        top = -np.inf
        for k in range(klen[c]):
            v = counts[coff[c] + kmin[c] + k]
            mx = max(mx, v)
            if v > 0:
                top = max(top, math.log(v) + theta * k)
        for k in range(klen[c]):
            div[coff[c] + kmin[c] + k] = mx if theta == 0.0 else math.exp(top - theta * k)
    if tree:
        left, right, t_span, t_off = _tree_shape(klen, nv)
        t_b = np.zeros(t_off[-1], np.bool_)
        t_f = np.zeros(t_off[-1])
        for n in range(max(1, 2 * nv - 1)):  # products, children before parents
            if n < nv:
                c = var[n]
                for k in range(klen[c]):
                    v = counts[coff[c] + kmin[c] + k]
                    t_b[t_off[n] + k] = v > 0
                    t_f[t_off[n] + k] = v / div[coff[c] + kmin[c] + k] if v > 0 else 0.0
            elif nv:
                _convolve(t_b, t_f, t_off[left[n]], t_span[left[n]], t_off[right[n]], t_span[right[n]],
                          t_off[n])
        root = max(0, 2 * nv - 2)
        full_b = t_b[t_off[root]: t_off[root] + L] if nv else np.ones(1, np.bool_)
        full_f = t_f[t_off[root]: t_off[root] + L] if nv else np.ones(1)
        suf_b = np.zeros((1, L), np.bool_)
        suf_f = np.zeros((1, L))
        suf_span = np.full(1, L, np.int64)
        suf_b[0] = full_b
        suf_f[0] = full_f
    else:
        # suffix products of the blocks c.. (Boolean and normalised float), shifted by the kmin
        suf_b = np.zeros((nv + 1, L), np.bool_)
        suf_f = np.zeros((nv + 1, L))
        suf_span = np.ones(nv + 1, np.int64)
        suf_b[nv, 0] = True
        suf_f[nv, 0] = 1.0
        for u in range(nv - 1, -1, -1):
            c = var[u]
            span = suf_span[u + 1]
            for i in range(span):
                if suf_b[u + 1, i]:
                    for k in range(klen[c]):
                        v = counts[coff[c] + kmin[c] + k]
                        if v > 0:
                            suf_b[u, i + k] = True
                            suf_f[u, i + k] += suf_f[u + 1, i] * v / div[coff[c] + kmin[c] + k]
            suf_span[u] = span + klen[c] - 1
            mx = suf_f[u, : suf_span[u]].max()
            for i in range(suf_span[u]):
                suf_f[u, i] /= mx
    lo_s = R - I - K0  # shifted range of frontier totals the interior allows
    hi_s = R - K0
    ok = False
    interior_mine_possible = False
    interior_safe_possible = False
    for S in range(L):
        if suf_b[0, S] and lo_s <= S <= hi_s:
            ok = True
            if S <= hi_s - 1:
                interior_mine_possible = True
            if S >= lo_s + 1:
                interior_safe_possible = True
    if not ok:
        return 2, safe_g, mine_g, prob_g, False, False, 0.0
    interior_safe = I > 0 and not interior_mine_possible
    interior_mine = I > 0 and not interior_safe_possible
    # interior weights wt[S] = C(I, R - K0 - S) exp(-theta S) / max, from C(I,t)/C(I,t+1) = (t+1)/(I-t)
    logw = np.full(L, -np.inf)
    first = max(0, lo_s)
    if first < L and first <= hi_s:
        logw[first] = 0.0
        for S in range(first + 1, min(hi_s, L - 1) + 1):
            t = R - K0 - S
            logw[S] = logw[S - 1] + np.log((t + 1.0) / (I - t))
    for S in range(L):
        logw[S] -= theta * S
    best = -np.inf
    for S in range(L):
        if suf_f[0, S] > 0 and logw[S] > best:
            best = logw[S]
    wt = np.zeros(L)
    for S in range(L):
        if logw[S] > -np.inf:
            wt[S] = np.exp(logw[S] - best)
    if want_probs:
        # A frontier total whose float product underflowed (below ~1e-290: thousands of blocks) while
        # the total's weight favours it would be left out of every probability: refuse instead.
        dominant = -np.inf
        for S in range(L):
            if suf_f[0, S] > 0 and logw[S] > -np.inf:
                dominant = max(dominant, np.log(suf_f[0, S]) + logw[S] - best)
        for S in range(L):
            if (suf_b[0, S] and lo_s <= S <= hi_s and suf_f[0, S] < 1e-290 and logw[S] > -np.inf
                    and np.log(1e-290) + logw[S] - best > dominant - 30.0):
                return 5, safe_g, mine_g, prob_g, False, False, 0.0
    interior_prob = 0.0
    if I > 0:
        num = 0.0
        den = 0.0
        for S in range(L):
            m = suf_f[0, S] * wt[S]
            den += m
            num += m * (R - K0 - S)
        interior_prob = num / den / I
    pre_b = np.zeros(L, np.bool_)
    pre_f = np.zeros(L)
    nxt_b = np.zeros(L, np.bool_)
    nxt_f = np.zeros(L)
    pre_b[0] = True
    pre_f[0] = 1.0
    pre_span = 1
    others_b = np.zeros(L, np.bool_)
    others_f = np.zeros(L)
    okk = np.zeros(K1, np.bool_)
    W = np.zeros(K1)
    # a fixed block sees every other block's spread: the product of all of them
    fixed_ok = False
    fixed_w = 0.0
    for s2 in range(suf_span[0]):
        if suf_b[0, s2]:
            if lo_s <= s2 <= hi_s:
                fixed_ok = True
            fixed_w += suf_f[0, s2] * wt[s2]
    # each varying block's context: the weights (and feasibility) each of its totals gets from all the
    # others and the interior, at leaf[u] for the u-th such block
    if tree:
        c_b = np.zeros(t_off[-1], np.bool_)
        c_f = np.zeros(t_off[-1])
        for S in range(L):  # the root's context: the interior's weights
            c_b[t_off[root] + S] = lo_s <= S <= hi_s
            c_f[t_off[root] + S] = wt[S]
        for n in range(2 * nv - 2, nv - 1, -1):  # parents before children
            a, b = left[n], right[n]
            _context(c_b, c_f, t_b, t_f, t_off[n], t_off[a], t_span[a], t_off[b], t_span[b])
            _context(c_b, c_f, t_b, t_f, t_off[n], t_off[b], t_span[b], t_off[a], t_span[a])
        leaf = t_off
    else:
        leaf = np.zeros(nv + 1, np.int64)
        for u in range(nv):
            leaf[u + 1] = leaf[u] + klen[var[u]]
        c_b = np.zeros(leaf[nv], np.bool_)
        c_f = np.zeros(leaf[nv])
        for u in range(nv):
            c = var[u]
            _others(pre_b, pre_f, pre_span, suf_b[u + 1], suf_f[u + 1], suf_span[u + 1], others_b, others_f)
            o_span = pre_span + suf_span[u + 1] - 1
            for k in range(klen[c]):
                ok = False
                w = 0.0
                for s2 in range(o_span):
                    if others_b[s2]:
                        if lo_s <= k + s2 <= hi_s:
                            ok = True
                        w += others_f[s2] * wt[k + s2]
                c_b[leaf[u] + k] = ok
                c_f[leaf[u] + k] = w
            # extend the prefix with block c
            new_span = pre_span + klen[c] - 1
            for i in range(new_span):
                nxt_b[i] = False
                nxt_f[i] = 0.0
            for i in range(pre_span):
                if pre_b[i]:
                    for k in range(klen[c]):
                        v = counts[coff[c] + kmin[c] + k]
                        if v > 0:
                            nxt_b[i + k] = True
                            nxt_f[i + k] += pre_f[i] * v / div[coff[c] + kmin[c] + k]
            mx = 0.0
            for i in range(new_span):
                mx = max(mx, nxt_f[i])
            for i in range(new_span):
                pre_b[i] = nxt_b[i]
                pre_f[i] = nxt_f[i] / mx
            pre_span = new_span
    u = 0
    for c in range(n_comp):
        if klen[c] == 1:
            okk[0] = fixed_ok
            W[0] = fixed_w
        else:
            for k in range(klen[c]):
                okk[k] = c_b[leaf[u] + k]
                W[k] = c_f[leaf[u] + k]
            u += 1
        _groups(c, gptr, glist, klen, kmin, counts, coff, div, gmines, cansafe, goff, gsize, okk, W,
                want_probs, safe_g, mine_g, prob_g)
    return 0, safe_g, mine_g, prob_g, interior_safe, interior_mine, interior_prob


@numba.njit(cache=True)
def _convolve(t_b, t_f, a, na, b, nb, out):  # pragma: no cover - compiled
    """The product of the tree nodes at ``a`` and ``b`` (``na`` and ``nb`` totals) into ``out``,
    the floats scaled to their largest."""
    for i in range(na):
        if t_b[a + i]:
            for j in range(nb):
                if t_b[b + j]:
                    t_b[out + i + j] = True
                    t_f[out + i + j] += t_f[a + i] * t_f[b + j]
    mx = 0.0
    for i in range(na + nb - 1):
        mx = max(mx, t_f[out + i])
    if mx > 0:
        for i in range(na + nb - 1):
            t_f[out + i] /= mx


@numba.njit(cache=True)
def _context(c_b, c_f, t_b, t_f, parent, child, n_child, sibling, n_sibling):  # pragma: no cover
    """A tree node's context: total ``s`` of ``child`` with every total ``t`` of its sibling's
    product, weighted by the parent's context at ``s + t`` (floats scaled to their largest)."""
    mx = 0.0
    for s in range(n_child):
        ok = False
        w = 0.0
        for t in range(n_sibling):
            if t_b[sibling + t]:
                ok |= c_b[parent + s + t]
                w += t_f[sibling + t] * c_f[parent + s + t]
        c_b[child + s] = ok
        c_f[child + s] = w
        mx = max(mx, w)
    if mx > 0:
        for s in range(n_child):
            c_f[child + s] /= mx


@numba.njit(cache=True)
def _others(pre_b, pre_f, pre_span, suf_b, suf_f, suf_span, others_b, others_f):  # pragma: no cover
    """The product of the blocks before and after one block (Boolean and float)."""
    for i in range(pre_span + suf_span - 1):
        others_b[i] = False
        others_f[i] = 0.0
    for i in range(pre_span):
        if pre_b[i]:
            for j in range(suf_span):
                if suf_b[j]:
                    others_b[i + j] = True
                    others_f[i + j] += pre_f[i] * suf_f[j]


@numba.njit(cache=True)
def _groups(c, gptr, glist, klen, kmin, counts, coff, div, gmines, cansafe, goff, gsize, okk, W,
            want_probs, safe_g, mine_g, prob_g):  # pragma: no cover
    """Forced flags and probabilities of the groups of block ``c`` given its weights ``W`` (counts
    divided by ``div``, :func:`_combine_with_total`)."""
    z = 0.0
    for k in range(klen[c]):
        z += counts[coff[c] + kmin[c] + k] / div[coff[c] + kmin[c] + k] * W[k]
    for t in range(gptr[c], gptr[c + 1]):
        g = glist[t]
        anymine = False
        anysafe = False
        m = 0.0
        for k in range(klen[c]):
            kk = goff[g] + kmin[c] + k
            if okk[k]:
                anymine |= gmines[kk] > 0
                anysafe |= cansafe[kk]
            m += gmines[kk] / div[coff[c] + kmin[c] + k] * W[k]
        safe_g[g] = not anymine
        mine_g[g] = not anysafe
        if want_probs:
            prob_g[g] = m / z / gsize[g]


@dataclass(frozen=True)
class Enumeration:
    """The exact analysis of a position.

    Attributes
    ----------
    safe, mines : frozenset of (int, int)
        Cells that are safe (mined) in every consistent layout.
    probabilities : numpy.ndarray or None
        Mine probability of every cell (``nan`` on revealed cells, 1 on known
        mines), when asked for.
    log_layouts : float
        Natural log of the number of layouts of the covered cells that fit (with
        the total when it is used, else any number of mines: the interior
        counts ``2 ** I``), when asked for (``count=True``); else ``nan``.
    """

    safe: frozenset[Cell]
    mines: frozenset[Cell]
    probabilities: np.ndarray | None
    log_layouts: float = math.nan


def analyse(
    obs: Observation,
    *,
    use_total: bool = True,
    probabilities: bool = True,
    count: bool = False,
    max_nodes: int = MAX_NODES,
    max_bytes: int | None = MAX_BYTES,
    time_limit: float | None = TIME_LIMIT,
) -> Enumeration:
    """Forced cells and (optionally) exact mine probabilities of a position.

    Parameters
    ----------
    obs : Observation
    use_total : bool, default True
        Use the total number of mines when the position knows it.
    probabilities : bool, default True
        Also compute the probabilities (a little more work).
    count : bool, default False
        Also count the layouts (``Enumeration.log_layouts``).
    max_nodes : int, default 200,000
        Cap on backtracking nodes per block; beyond it the block is counted by
        dynamic programming.
    max_bytes : int or None, default 512 MiB
        Budget of the count arrays and of the dynamic programme's tables.
    time_limit : float or None, default 20
        Seconds (``None``: no limit).

    Raises
    ------
    InconsistentPositionError
        When no layout fits the clues (and the total).
    ComponentTooLargeError
        When a block is beyond ``max_nodes`` and the dynamic programme is beyond
        ``max_bytes`` or :data:`MAX_STATES`.
    MethodRefused
        Past ``time_limit``.

    Examples
    --------
    >>> e = analyse(Observation.from_text("???\\n121", mines=2))
    >>> sorted(e.safe), sorted(e.mines)
    ([(0, 1)], [(0, 0), (0, 2)])
    """
    if time_limit is not None:
        _compile()  # before the clock starts
    budget = Budget("enumerate", time_limit=time_limit, max_bytes=max_bytes)
    probabilities = check_flag("probabilities", probabilities)
    safe_flat, mine_flat, probs, log_layouts = _run(obs, use_total, probabilities, _max_nodes(max_nodes),
                                                    budget, count)
    w = obs.shape[1]
    return Enumeration(_cells(safe_flat, w), _cells(mine_flat, w), probs, log_layouts)


_compiled = False


def _compile() -> None:
    """Run every compiled kernel once, untimed, on a small position.

    numba compiles a kernel (or loads it from its cache) on its first call in a
    process, which can take seconds; counted against a time limit, it made the
    first consistency check of a fresh install (1 s, :func:`~sweeplab.methods.deduce`)
    give up and return the claims of an inconsistent position unchecked.
    """
    global _compiled
    if _compiled:
        return
    warm = Observation.from_text("1??\n???\n??1", mines=3)
    _run(warm, True, True, MAX_NODES, Budget("enumerate", time_limit=None), count=True)
    _dp_counts(clue_system(warm).grouped())
    _compiled = True


#: Cap on the states of one level of the dynamic programme (:func:`_dp_counts`).
MAX_STATES = 200_000
#: Bytes a state or a transition of the dynamic programme costs besides its count polynomial
#: (a dictionary entry and its tuple key), for the ``max_bytes`` budget.
_STATE_BYTES = 240
#: Bytes of a numpy array object besides its data (a state's count polynomial).
_ARRAY_BYTES = np.zeros(0).__sizeof__()


def _dp_counts(p: GroupedSystem, max_states: int = MAX_STATES, *, budget: Budget | None = None,
               blocks=None, out=None):
    """The counts of :func:`_search` by dynamic programming over the clue states (no enumeration).

    Used when a block has too many layouts to enumerate one by one.  Groups are
    taken in breadth-first order; the state after ``i`` groups is the number of
    mines already placed in each *active* clue (one with groups on both sides
    of ``i``), and layouts reaching the same state are counted together, per
    number of mines.  A forward pass counts the ways to reach each state, a
    backward pass the ways to complete it; a group's mines and free cells
    follow from the product of the two.  Exact Boolean positivity is kept
    (sums of products of binomials are never rounded to zero).

    Only the blocks in ``blocks`` (default: all) are counted, into the arrays
    ``out = (counts, gmines, cansafe)`` of :func:`_search` when given.  Returns
    ``(comp, counts, coff, gmines, cansafe, goff)`` as :func:`_search` does.

    Raises
    ------
    ComponentTooLargeError
        When a level has more than ``max_states`` states, the tables are over
        ``budget.max_bytes``, or the counts overflow.
    MethodRefused
        When the time is up.
    """
    budget = budget or Budget("enumerate", time_limit=None)
    gptr, grows, comp, order, starts, coff, goff = _layout(p.group_size, p.row_ptr, p.row_groups)
    held = 9 * int(goff[-1]) + 8 * int(coff[-1])  # the count arrays, held while the tables grow
    if out is None:
        _need(budget, held, "count arrays")
        out = np.zeros(coff[-1]), np.zeros(goff[-1]), np.zeros(goff[-1], np.bool_)
    counts, gmines, cansafe = out
    gs = p.group_size.tolist()
    binom = [[float(comb(n, m)) for m in range(n + 1)] for n in range(9)]
    for c in range(starts.size - 1) if blocks is None else blocks:
        block = order[starts[c] : starts[c + 1]].tolist()
        rows = np.unique(np.concatenate([grows[gptr[g] : gptr[g + 1]] for g in block]))
        row_groups = {r: p.row_groups[p.row_ptr[r] : p.row_ptr[r + 1]].tolist() for r in rows.tolist()}
        rows_of = {g: grows[gptr[g] : gptr[g + 1]].tolist() for g in block}
        total, parts = _dp_block(block, gs, rows_of, row_groups, p.lo, p.hi, binom, max_states, budget, held)
        counts[coff[c] : coff[c + 1]] = total
        for g, (gm, cs) in parts.items():
            gmines[goff[g] : goff[g + 1]] = gm
            cansafe[goff[g] : goff[g + 1]] = cs
    if not (np.isfinite(counts).all() and np.isfinite(gmines).all()):
        raise ComponentTooLargeError("the layout counts of a block overflow double precision")
    return comp, counts, coff, gmines, cansafe, goff[:-1]


def _dp_block(order, gs, rows_of, row_groups, lo, hi, binom, max_states, budget, held=0):
    """The dynamic programme of :func:`_dp_counts` on one block (groups ``order``, breadth first).

    Returns ``(counts, {group: (mines, can_be_safe)})``, arrays over the block's numbers of mines.
    Its tables and results count against ``budget.max_bytes`` with the ``held`` bytes already in use.
    """
    n = len(order)
    K = sum(gs[g] for g in order)
    level = {g: i for i, g in enumerate(order)}
    first = {r: min(level[g] for g in groups) for r, groups in row_groups.items()}
    last = {r: max(level[g] for g in groups) for r, groups in row_groups.items()}
    # active[i]: the clues with groups on both sides of level i (opened after first, closed at last)
    opening: dict[int, list[int]] = {}
    for r in row_groups:
        if last[r] > first[r]:
            opening.setdefault(first[r] + 1, []).append(r)
    open_rows: set[int] = set()
    active = []
    for i in range(n + 1):
        open_rows.update(opening.get(i, ()))
        open_rows.difference_update([r for r in open_rows if last[r] < i])
        active.append(sorted(open_rows))
    stored = held
    ticks = 0
    what = f"a block of {K} frontier cells in {n} groups"

    def spend(nbytes: int) -> None:
        nonlocal stored, ticks
        stored += nbytes
        ticks += 1
        if budget.max_bytes is not None and stored > budget.max_bytes:
            raise ComponentTooLargeError(
                f"the dynamic programme over {what} and the count arrays need more than "
                f"max_bytes={budget.max_bytes} "
                f"({size_text(budget.max_bytes)}); raise the option max_bytes (bytes, or None for no limit)")
        if ticks % 4096 == 0:
            budget.check(f"counting {what} by dynamic programming")

    def add(table, key, poly):
        old = table.get(key)
        if old is None:
            spend(poly.nbytes + _STATE_BYTES + _ARRAY_BYTES)
            table[key] = poly
        elif old.size >= poly.size:
            old[: poly.size] += poly
        else:
            spend(poly.nbytes - old.nbytes)
            poly[: old.size] += old
            table[key] = poly

    F: list[dict] = [dict() for _ in range(n + 1)]
    F[0][()] = np.ones(1)
    trans: list[dict] = [dict() for _ in range(n)]
    for i, g in enumerate(order):
        size, act, nxt = gs[g], active[i], active[i + 1]
        cap_after = {r: sum(gs[h] for h in row_groups[r] if level[h] > i) for r in rows_of[g]}
        for key, poly in F[i].items():
            for m in range(size + 1):
                cur = dict(zip(act, key, strict=True))
                ok = True
                for r in rows_of[g]:
                    v = cur.get(r, 0) + m
                    if v > hi[r] or v + cap_after[r] < lo[r]:
                        ok = False
                        break
                    cur[r] = v
                if not ok:
                    continue
                new = tuple(cur.get(r, 0) for r in nxt)
                trans[i][key, m] = new
                spend(_STATE_BYTES)
                shifted = np.zeros(poly.size + m)
                shifted[m:] = poly * binom[size][m]
                add(F[i + 1], new, shifted)
        if len(F[i + 1]) > max_states:
            raise ComponentTooLargeError(f"{what} has more than max_states={max_states} clue states")
    B: list[dict] = [dict() for _ in range(n + 1)]
    B[n][()] = np.ones(1)
    for i in range(n - 1, -1, -1):
        size = gs[order[i]]
        for (key, m), new in trans[i].items():
            nb = B[i + 1].get(new)
            if nb is None:
                continue
            shifted = np.zeros(nb.size + m)
            shifted[m:] = nb * binom[size][m]
            add(B[i], key, shifted)
    total = np.zeros(K + 1)
    final = F[n].get((), np.zeros(0))
    total[: final.size] = final
    parts = {}
    for i, g in enumerate(order):
        budget.check(f"counting {what} by dynamic programming")
        spend(9 * (K + 1))
        size = gs[g]
        gm = np.zeros(K + 1)
        cs = np.zeros(K + 1, dtype=bool)
        for (key, m), new in trans[i].items():
            nb = B[i + 1].get(new)
            if nb is None:
                continue
            prod = np.convolve(F[i][key], nb) * binom[size][m]
            if m:
                gm[m : m + prod.size] += m * prod
            if m < size:
                cs[m : m + prod.size] |= prod > 0
        parts[g] = gm, cs
    return total, parts


def _max_nodes(max_nodes) -> int:
    return count_option("enumerate", "max_nodes", max_nodes)


def _block_counts(p: GroupedSystem, max_nodes: int, budget: Budget):
    """Layouts of every block by number of mines, by backtracking and, past ``max_nodes``, by the
    dynamic programme: ``(comp, counts, coff, gmines, cansafe, goff)`` as :func:`_search` returns them."""
    G = p.group_size.size
    if not G:
        return (np.zeros(0, np.int64), np.zeros(0), np.zeros(1, np.int64), np.zeros(0),
                np.zeros(0, np.bool_), np.zeros(0, np.int64))
    comp, counts, coff, gmines, cansafe, goff, over, status = _search(
        p.group_size, p.row_ptr, p.row_groups, p.lo, p.hi, int(max_nodes), budget)
    if status:
        try:
            _dp_counts(p, MAX_STATES, budget=budget, blocks=np.flatnonzero(over).tolist(),
                       out=(counts, gmines, cansafe))
        except ComponentTooLargeError as exc:
            raise ComponentTooLargeError(
                f"enumeration of {int(over.sum())} of {over.size} blocks stopped after "
                f"max_nodes={max_nodes} backtracking nodes ({int(p.group_size.sum())} frontier cells in "
                f"{G} groups), and {exc}; raise max_nodes, or that budget"
            ) from None
    # past 2**1024 layouts in one block the counts overflow; G groups of at most 8 cells have fewer than
    # 2**(8 G) layouts (and mine counts 8 times that), so only a system of over 120 groups is checked
    if G > 120 and not math.isfinite(counts.sum() + gmines.sum()):
        raise ComponentTooLargeError(
            f"a block has more layouts than double precision holds (over 1.8e308; {int(p.group_size.sum())} "
            f"frontier cells in {G} groups): its exact counts cannot be kept; a smaller board, or fewer "
            f"covered cells on one chain of clues")
    return comp, counts, coff, gmines, cansafe, goff


def _log_layouts(counts: np.ndarray, coff: np.ndarray, R: int | None, I: int) -> float:
    """Natural log of the number of layouts: the blocks' counts by number of mines convolved (scaled
    to their largest term), then with the total ``sum_S C(I, R - S)`` over the interior, without it
    ``2 ** I`` (SPEC §4's two conventions).  ``-inf`` when no layout fits.  Where a scaled product
    came near underflow (thousands of blocks), it is repeated with the tilt of :func:`_combine`."""
    r = -1 if R is None else R
    value, tiny = _log_layouts_kernel(counts, coff, r, I, R is not None, 0.0)
    if tiny and R is not None:
        kmin, klen = _mine_count_spans(counts, coff)
        if not klen.all():
            return -math.inf
        theta = _saddle_tilt(counts, coff, kmin, klen, r - int(kmin.sum()), I, int(1 + (klen - 1).sum()))
        value, _ = _log_layouts_kernel(counts, coff, r, I, True, theta)
    return float(value)


#: A scaled weight below this may have lost products to underflow (two such factors make ~1e-300).
_TINY = 1e-150


@numba.njit(cache=True)
def _log_layouts_kernel(counts, coff, R, I, use_total, theta):  # pragma: no cover - compiled
    """:func:`_log_layouts`, compiled (``R`` is ignored without ``use_total``), with every block's
    count at ``k`` mines times ``exp(theta k)`` (none at 0).  Also returns whether a scaled weight
    fell below :data:`_TINY`.  Each block's counts are taken from its fewest mines to its most, and a
    block with one mine count only scales the product (the same floats as convolving it: its weight
    is 1 and the product's peak is 1), so the work is the spread of the totals, not the cells."""
    poly = np.ones(1)
    log_scale = 0.0
    tiny = False
    shift = 0  # the fewest mines of the blocks so far: poly[S] is the product at shift + S
    for c in range(coff.size - 1):
        first, last = _mine_count_span(counts, coff, c)
        if last < 0:
            return -math.inf, tiny
        block = counts[coff[c] + first: coff[c] + last + 1]
        top = block.max()
        if not use_total:  # blocks are independent: multiply their totals
            log_scale += math.log(block.sum())
            continue
        shift += first
        if last == first:
            log_scale += math.log(top)
            continue
        weight = block / top
        if theta != 0.0:
            ltop = -math.inf
            for j in range(block.size):
                if block[j] > 0:
                    ltop = max(ltop, math.log(block[j]) + theta * j)
            for j in range(block.size):
                weight[j] = math.exp(math.log(block[j]) + theta * j - ltop) if block[j] > 0 else 0.0
            top = math.exp(ltop)
        nxt = np.zeros(poly.size + block.size - 1)
        for i in range(poly.size):
            for j in range(block.size):
                nxt[i + j] += poly[i] * weight[j]
        peak = nxt.max()
        poly = nxt / peak
        log_scale += (math.log(top) if theta == 0.0 else ltop) + math.log(peak)
        for j in range(block.size):
            tiny |= 0.0 < weight[j] < _TINY
        for S in range(poly.size):
            tiny |= 0.0 < poly[S] < _TINY
    if not use_total:
        return log_scale + I * math.log(2.0), tiny
    best = -math.inf
    terms = np.full(poly.size, -math.inf)
    for S in range(poly.size):
        t = R - shift - S
        if 0 <= t <= I and poly[S] > 0:
            terms[S] = (math.log(poly[S]) - theta * S + math.lgamma(I + 1) - math.lgamma(t + 1)
                        - math.lgamma(I - t + 1))
            best = max(best, terms[S])
    if best == -math.inf:
        return -math.inf, tiny
    total = 0.0
    for S in range(poly.size):
        if terms[S] > -math.inf:
            total += math.exp(terms[S] - best)
    return log_scale + best + math.log(total), tiny


def block_counts(obs: Observation, *, use_total: bool = True, max_nodes: int = MAX_NODES,
                 max_bytes: int | None = MAX_BYTES, time_limit: float | None = TIME_LIMIT):
    """Exact layout counts of each frontier block by number of mines, and the interior.

    Returns ``(counts, interior, remaining)``: ``counts`` a list with, for each
    block (in the order of its first group), a float array whose entry ``k`` is
    the number of layouts of the block's cells with ``k`` mines; ``interior``
    the number of covered cells in no informative clue; ``remaining`` the mines
    left among the covered cells (``None`` without the total).  Budget as
    :func:`analyse`.

    Raises
    ------
    InconsistentPositionError
        When a block has no layout.

    Examples
    --------
    >>> counts, interior, remaining = block_counts(Observation.from_text("??\\n1?", mines=1))
    >>> [c.tolist() for c in counts], interior, remaining
    ([[0.0, 3.0, 0.0, 0.0]], 0, 1)
    """
    budget = Budget("enumerate", time_limit=time_limit, max_bytes=max_bytes)
    p = clue_system(obs, use_total=use_total).grouped()
    counts, coff = _block_counts(p, _max_nodes(max_nodes), budget)[1:3]
    blocks = [counts[coff[c] : coff[c + 1]].copy() for c in range(coff.size - 1)]
    if any(not (b > 0).any() for b in blocks):
        raise InconsistentPositionError("a block of the frontier has no layout that fits its clues")
    return blocks, int(p.interior.size), p.remaining


#: The floats nearest 0 and 1 inside (0, 1): the probability of a cell that is not forced.
_FLOAT_ABOVE_0 = float(np.nextafter(0.0, 1.0))
_FLOAT_BELOW_1 = float(np.nextafter(1.0, 0.0))


def _run(obs: Observation, use_total: bool, probabilities: bool, max_nodes: int, budget: Budget,
         count: bool = False):
    """Flat indices of the forced safe and mined cells, the probabilities (or ``None``) and the log
    of the number of layouts (``nan`` unless ``count``)."""
    p = clue_system(obs, use_total=use_total).grouped()
    comp, counts, coff, gmines, cansafe, goff = _block_counts(p, max_nodes, budget)
    I = int(p.interior.size)
    R = p.remaining
    budget.check("combining the blocks")
    status, safe_g, mine_g, prob_g, int_safe, int_mine, int_prob = _combine(
        comp, counts, coff, gmines, cansafe, goff, p.group_size, -1 if R is None else R, I, R is not None,
        probabilities)
    if status == 1:
        raise InconsistentPositionError("no layout of the frontier fits the clues")
    if status == 4:
        raise ComponentTooLargeError(
            f"{coff.size - 1} independent blocks with a wide spread of mine counts: combining them "
            f"through the total would take more than {MAX_COMBINE_STEPS:,} steps; without the total "
            f"(use_total=False) each block is exact on its own")
    if status == 5:
        raise ComponentTooLargeError(
            f"{coff.size - 1} independent blocks with a wide spread of mine counts: the probabilities of "
            f"some totals fall below floating point while the total favours them; the forced cells alone "
            f"(probabilities=False) and use_total=False are exact")
    if status == 3:
        raise ComponentTooLargeError(
            f"{coff.size - 1} independent blocks with a wide spread of mine counts: the combination "
            f"would need more than {MAX_COMBINE_CELLS} work cells; without the total (use_total=False) "
            f"each block is exact on its own")
    if status == 2:  # only with the total
        assert R is not None
        raise InconsistentPositionError(
            f"no layout fits the clues with {mines_text(R)} left among {I} interior and "
            f"{int(p.group_size.sum())} frontier cells")
    cells = p.cells
    cell_group = p.cell_group
    safe_flat = np.concatenate([cells[safe_g[cell_group]], p.interior if int_safe else p.interior[:0]])
    mine_flat = np.concatenate([cells[mine_g[cell_group]], p.interior if int_mine else p.interior[:0]])
    probs: np.ndarray | None = None
    if probabilities:
        flat = obs.grid.ravel()
        probs = np.full(flat.size, np.nan)
        probs[(flat == FLAG) | (flat == MINE)] = 1.0
        probs[cells] = prob_g[cell_group]
        probs[p.interior] = 0.5 if R is None else int_prob
        # 0 and 1 only for forced cells: a probability within 1e-16 of either (huge boards) rounds
        # to it, so it is kept one float inside, and p == 1 still means a certain mine
        covered = np.concatenate([cells, p.interior])
        probs[covered] = np.clip(probs[covered], _FLOAT_ABOVE_0, _FLOAT_BELOW_1)
        probs[safe_flat] = 0.0
        probs[mine_flat] = 1.0
        probs = probs.reshape(obs.shape)
    return safe_flat, mine_flat, probs, _log_layouts(counts, coff, R, I) if count else math.nan


@numba.njit(cache=True)
def _combine_steps(counts, coff):  # pragma: no cover - compiled
    """Inner steps of :func:`_combine` with the total: each block whose mine count varies is
    convolved with the blocks before and after it (spans of the partial sums multiplied)."""
    n_comp = coff.size - 1
    spread = np.zeros(n_comp, np.int64)
    n = 0
    for c in range(n_comp):
        first, last = _mine_count_span(counts, coff, c)
        if last > first:
            spread[n] = last - first
            n += 1
    total = 0
    widest = 0
    for i in range(n):
        total += spread[i]
        widest = max(widest, spread[i])
    steps = n * (widest + 1) * (total + 1)
    before = 1
    for i in range(n):
        steps += before * (1 + total - before + 1 - spread[i])
        before += spread[i]
    return steps


def _cells(flat: np.ndarray, w: int) -> frozenset[Cell]:
    """``(row, col)`` of flat indices, as the frozenset :func:`~sweeplab.deduce` keeps (no copy)."""
    if not flat.size:
        return frozenset()
    rows, cols = np.divmod(flat, w)
    return frozenset(zip(rows.tolist(), cols.tolist(), strict=True))


def forced_cells(
    obs: Observation,
    *,
    use_total: bool = True,
    max_nodes: int = MAX_NODES,
    fallback: str | None = "milp",
    probabilities: bool = False,
    max_bytes: int | None = MAX_BYTES,
    time_limit: float | None = TIME_LIMIT,
):
    """Every forced cell, by exact enumeration (sound and complete).

    Parameters
    ----------
    obs : Observation
    use_total : bool, default True
    max_nodes : int
        Cap on backtracking nodes per block (default :data:`MAX_NODES`).
    fallback : {"milp", None}, default "milp"
        When a block is beyond both the backtracking (``max_nodes``) and the
        dynamic programme (``max_bytes``, :data:`MAX_STATES`), hand the position
        to the ``milp`` method (with the time left), which is also sound and
        complete; ``None`` raises :class:`ComponentTooLargeError` instead.
    probabilities : bool, default False
        Also return the exact mine probabilities (:func:`probabilities`) as a
        third element; no fallback then: a block beyond both caps raises
        :class:`ComponentTooLargeError`.
    max_bytes : int or None, default 512 MiB
        Budget of the count arrays and of the dynamic programme's tables.
    time_limit : float or None, default 20
        Seconds for the whole call, fallback included (``None``: no limit).

    Raises
    ------
    InconsistentPositionError
        When no layout fits.
    MethodRefused
        Past ``time_limit``; :class:`ComponentTooLargeError` past the size caps without fallback.

    Returns
    -------
    (set, set) or (set, set, numpy.ndarray)

    Examples
    --------
    >>> safe, mines = forced_cells(Observation.from_text("???\\n121"))
    >>> sorted(safe), sorted(mines)
    ([(0, 1)], [(0, 0), (0, 2)])
    """
    if fallback not in ("milp", None):
        raise ValueError(f"option fallback of method 'enumerate' must be 'milp' or None, got {fallback!r}")
    max_nodes = _max_nodes(max_nodes)
    budget = Budget("enumerate", time_limit=time_limit, max_bytes=max_bytes)
    w = obs.shape[1]
    if probabilities:
        safe, mines, probs, _ = _run(obs, use_total, True, max_nodes, budget)
        return _cells(safe, w), _cells(mines, w), probs
    try:
        safe, mines, _, _ = _run(obs, use_total, False, max_nodes, budget)
    except ComponentTooLargeError as exc:
        if fallback is None:
            raise
        from .milp import forced_cells as milp_forced_cells

        budget.check("enumerating, before handing over to 'milp'")
        try:  # the time left, at least 0.01 s: it can run out between the check and this call
            return milp_forced_cells(obs, use_total=use_total, time_limit=budget.solver_seconds())
        except MethodRefused as refused:
            raise MethodRefused(f"method 'enumerate' handed the position to 'milp' ({exc}), and {refused}; "
                                "raise time_limit of 'enumerate' (its fallback gets the time left)") from None
    return _cells(safe, w), _cells(mines, w)


def probabilities(
    obs: Observation | str,
    *,
    use_total: bool = True,
    max_nodes: int = MAX_NODES,
    max_bytes: int | None = MAX_BYTES,
    time_limit: float | None = TIME_LIMIT,
) -> np.ndarray:
    """Exact mine probability of every covered cell (SPEC §4).

    With the total, every layout of the covered cells that fits the clues and
    the total is equally likely; without it (``use_total=False`` or unknown
    total), every layout that fits the clues is, so interior cells get 1/2.
    ``nan`` on revealed cells, 1 on flags and revealed mines, exactly 0 or 1 on
    forced cells and only there.  Budget as :func:`analyse`.

    Raises
    ------
    InconsistentPositionError
        When no layout fits.
    MethodRefused
        Past the budget (:class:`ComponentTooLargeError` for the size caps).

    Examples
    --------
    >>> p = probabilities(Observation.from_text("?1\\n??", mines=1))
    >>> p.round(3).tolist()
    [[0.333, nan], [0.333, 0.333]]
    """
    obs = as_observation(obs)
    budget = Budget("probabilities", time_limit=time_limit, max_bytes=max_bytes)
    return _run(obs, use_total, True, _max_nodes(max_nodes), budget)[2]
