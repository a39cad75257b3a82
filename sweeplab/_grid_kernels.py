"""Compiled passes over the cell codes that build the clue system's fast views (SPEC §2).

Only :mod:`sweeplab.clue_system` imports this module: it is the one place that
reads a grid into constraints.  Each kernel builds the arrays of one documented
view of the clue system (:meth:`~sweeplab.clue_system.ClueSystem.grid_view`,
:meth:`~sweeplab.clue_system.ClueSystem.grouped`) in one pass, so the fastest
methods never pay for the sparse matrix they do not read.
"""

from __future__ import annotations

import numba
import numpy as np

from .positions import COVERED, FLAG, MINE


@numba.njit(cache=True)
def padded(grid, pad):
    """The flat padded arrays of :meth:`~sweeplab.clue_system.ClueSystem.grid_view`: clue codes
    (``-5`` on the padding), undecided cells, known mines, clue cells; and the counts of
    undecided cells and known mines."""
    h, w = grid.shape
    wp = w + 2 * pad
    n = (h + 2 * pad) * wp
    clue = np.full(n, -5, dtype=np.int64)
    unknown = np.zeros(n, dtype=np.bool_)
    mine = np.zeros(n, dtype=np.bool_)
    clues = np.empty(h * w, dtype=np.int64)
    n_clues = n_unknown = known = 0
    for r in range(h):
        for c in range(w):
            i = (r + pad) * wp + c + pad
            v = grid[r, c]
            clue[i] = v
            if v >= 0:
                clues[n_clues] = i
                n_clues += 1
            elif v == COVERED:
                unknown[i] = True
                n_unknown += 1
            elif v == FLAG or v == MINE:
                mine[i] = True
                known += 1
    return clue, unknown, mine, clues[:n_clues], n_unknown, known


@numba.njit(cache=True)
def sig_less(sig, a, b):  # pragma: no cover - compiled
    """Whether row ``a`` of ``sig`` comes strictly before row ``b`` (lexicographic order)."""
    for k in range(sig.shape[1]):
        if sig[a, k] != sig[b, k]:
            return sig[a, k] < sig[b, k]
    return False


@numba.njit(cache=True)
def grouped(grid, noise):  # pragma: no cover - compiled
    """The arrays of :meth:`~sweeplab.clue_system.ClueSystem.grouped` in one pass.

    ``noise`` is 0 for exact clues, 1 for ``"under"``, 2 for ``"over"``.

    Returns the :class:`~sweeplab.clue_system.GroupedSystem` arrays and ``info = (bad, need, n_cov, known,
    covered)``: ``bad`` the flat index of the first clue that cannot be met
    (``-1`` if none) with its ``need`` and covered neighbours ``n_cov``; the
    counts of known mines and covered cells.  Groups are the distinct sorted
    signatures (informative clues around a cell) in lexicographic order, their
    cells in increasing flat order.
    """
    h, w = grid.shape
    n = h * w
    info = np.full(5, -1, np.int64)
    covered = np.zeros(n, np.bool_)
    known = np.zeros(n, np.bool_)
    n_known = 0
    n_covered = 0
    for r in range(h):
        for c in range(w):
            v = grid[r, c]
            if v == COVERED:
                covered[r * w + c] = True
                n_covered += 1
            elif v == FLAG or v == MINE:
                known[r * w + c] = True
                n_known += 1
    info[3] = n_known
    info[4] = n_covered
    row_of = np.full(n, -1, np.int64)
    member = np.zeros(n, np.bool_)
    lo_r = np.empty(n, np.int64)
    hi_r = np.empty(n, np.int64)
    n_rows = 0
    empty = np.zeros(0, np.int64)
    for r in range(h):
        for c in range(w):
            v = grid[r, c]
            if v < 0:
                continue
            n_cov = 0
            n_kn = 0
            for rr in range(max(r - 1, 0), min(r + 2, h)):
                for cc in range(max(c - 1, 0), min(c + 2, w)):
                    j = rr * w + cc
                    n_cov += covered[j]
                    n_kn += known[j]
            need = np.int64(v) - n_kn
            if noise == 1:
                lo, hi = need, np.int64(n_cov)
            elif noise == 2:
                lo, hi = np.int64(0), need
            else:
                lo, hi = need, need
            lo = max(lo, 0)
            hi = min(hi, n_cov)
            if lo > hi:
                info[0] = r * w + c
                info[1] = need
                info[2] = n_cov
                return empty, empty, empty, empty, empty, empty, empty, empty, info
            if n_cov > 0 and (lo > 0 or hi < n_cov):
                row_of[r * w + c] = n_rows
                lo_r[n_rows] = lo
                hi_r[n_rows] = hi
                n_rows += 1
                for rr in range(max(r - 1, 0), min(r + 2, h)):
                    for cc in range(max(c - 1, 0), min(c + 2, w)):
                        if covered[rr * w + cc]:
                            member[rr * w + cc] = True
    n_front = 0
    n_int = 0
    for i in range(n):
        if member[i]:
            n_front += 1
        elif covered[i]:
            n_int += 1
    frontier = np.empty(n_front, np.int64)
    interior = np.empty(n_int, np.int64)
    a = 0
    b = 0
    for i in range(n):
        if member[i]:
            frontier[a] = i
            a += 1
        elif covered[i]:
            interior[b] = i
            b += 1
    if n_front == 0:
        return empty, empty, empty, np.zeros(1, np.int64), empty, empty, empty, interior, info
    # Signature of a frontier cell: its informative clues, sorted, padded in front with -1.
    sig = np.full((n_front, 8), -1, np.int64)
    buf = np.empty(8, np.int64)
    for f in range(n_front):
        r, c = divmod(frontier[f], w)
        k = 0
        for rr in range(max(r - 1, 0), min(r + 2, h)):
            for cc in range(max(c - 1, 0), min(c + 2, w)):
                x = row_of[rr * w + cc]
                if x >= 0:
                    j = k
                    while j > 0 and buf[j - 1] > x:
                        buf[j] = buf[j - 1]
                        j -= 1
                    buf[j] = x
                    k += 1
        for j in range(k):
            sig[f, 8 - k + j] = buf[j]
    # Stable bottom-up merge sort of the frontier by signature.
    order = np.arange(n_front)
    tmp = np.empty(n_front, np.int64)
    width = 1
    while width < n_front:
        for lo_i in range(0, n_front, 2 * width):
            mid = min(lo_i + width, n_front)
            end = min(lo_i + 2 * width, n_front)
            i, j, t = lo_i, mid, lo_i
            while i < mid and j < end:
                if sig_less(sig, order[j], order[i]):
                    tmp[t] = order[j]
                    j += 1
                else:
                    tmp[t] = order[i]
                    i += 1
                t += 1
            while i < mid:
                tmp[t] = order[i]
                i += 1
                t += 1
            while j < end:
                tmp[t] = order[j]
                j += 1
                t += 1
        order, tmp = tmp, order
        width *= 2
    cells = np.empty(n_front, np.int64)
    cell_group = np.empty(n_front, np.int64)
    first = np.empty(n_front, np.int64)
    G = 0
    for t in range(n_front):
        f = order[t]
        if t == 0 or sig_less(sig, order[t - 1], f):
            first[G] = f
            G += 1
        cells[t] = frontier[f]
        cell_group[t] = G - 1
    group_size = np.zeros(G, np.int64)
    for t in range(n_front):
        group_size[cell_group[t]] += 1
    # Rows -> groups (CSR, groups increasing within a row): each group lies wholly inside or outside each row.
    row_ptr = np.zeros(n_rows + 1, np.int64)
    for g in range(G):
        for k in range(8):
            x = sig[first[g], k]
            if x >= 0:
                row_ptr[x + 1] += 1
    for x in range(n_rows):
        row_ptr[x + 1] += row_ptr[x]
    fill = row_ptr[:n_rows].copy()
    row_groups = np.empty(row_ptr[n_rows], np.int64)
    for g in range(G):
        for k in range(8):
            x = sig[first[g], k]
            if x >= 0:
                row_groups[fill[x]] = g
                fill[x] += 1
    return (cells, cell_group, group_size, row_ptr, row_groups, lo_r[:n_rows].copy(), hi_r[:n_rows].copy(),
            interior, info)


