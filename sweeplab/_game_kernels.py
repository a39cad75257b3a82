"""Compiled passes of the game engine (:mod:`sweeplab.game`): the cells each zero region opens.

Built once per game at the first zero revealed; in a loop of compiled code
it costs a few microseconds, where labelling with scipy and de-duplicating
with numpy cost about a hundred (most games open a zero region).
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def zero_regions(zero, h, w):  # pragma: no cover - compiled
    """Label the 8-connected regions of ``zero`` (flat, ``h * w``) and list what each opens.

    Returns ``(labels, cells, ptr)``: ``labels[i]`` the region of cell ``i``
    (``1..n`` in the order of their first cell, 0 outside every region);
    ``cells[ptr[k]:ptr[k + 1]]`` the cells region ``k`` opens, in increasing
    order: its zeros and their neighbours (``ptr[0] = ptr[1] = 0``).
    """
    n_cells = h * w
    labels = np.zeros(n_cells, np.int64)
    stamp = np.zeros(n_cells, np.int64)  # the last region that listed a cell
    queue = np.empty(n_cells, np.int64)
    out = np.empty(9 * n_cells, np.int64)
    ptr = np.zeros(n_cells + 2, np.int64)
    n = 0
    end = 0
    for s in range(n_cells):
        if not zero[s] or labels[s]:
            continue
        n += 1
        labels[s] = n
        queue[0] = s
        head, tail = 0, 1
        start = end
        while head < tail:
            i = queue[head]
            head += 1
            r, c = i // w, i % w
            for dr in range(-1, 2):
                for dc in range(-1, 2):
                    rr, cc = r + dr, c + dc
                    if rr < 0 or rr >= h or cc < 0 or cc >= w:
                        continue
                    j = rr * w + cc
                    if stamp[j] != n:
                        stamp[j] = n
                        out[end] = j
                        end += 1
                    if zero[j] and not labels[j]:
                        labels[j] = n
                        queue[tail] = j
                        tail += 1
        out[start:end] = np.sort(out[start:end])
        ptr[n + 1] = end
    return labels, out[:end].copy(), ptr[: n + 2].copy()
