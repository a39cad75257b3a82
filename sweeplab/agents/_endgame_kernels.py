"""The pruned endgame search of :func:`~sweeplab.agents.best_v1.endgame_choice`, compiled.

Sets of layouts are bitsets of ``W`` 64-bit words (bit ``l`` of the set:
layout ``l``).  The search is the one described there, step for step: the
same order of cells and numbers, the same pruning, the same memo (keyed on
the set of layouts alone) and the same count of nodes against the budget,
so it returns the same values, summed in the same order, and runs out of
budget at the same node.  Compiled, a node costs a few hundred nanoseconds
where the Python search (integers as bitsets) costs several microseconds.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import types
from numba.typed import Dict, List

_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_MIX = np.uint64(0x9E3779B97F4A7C15)
_BLOCK = 1024  # memo entries are kept in blocks of this many: memory grows with the nodes searched


@numba.njit(cache=True, inline="always")
def _popcount(x):  # pragma: no cover - compiled
    x = x - ((x >> np.uint64(1)) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return np.int64((x * _H01) >> np.uint64(56))


@numba.njit(cache=True)
def _count(s):  # pragma: no cover - compiled
    total = 0
    for w in range(s.size):
        total += _popcount(s[w])
    return total


@numba.njit(cache=True)
def _hash(s):  # pragma: no cover - compiled
    h = np.uint64(s.size)
    for w in range(s.size):
        h = (h ^ s[w]) * _MIX
        h ^= h >> np.uint64(29)
    return np.int64(h >> np.uint64(1))


@numba.njit(cache=True)
def _find(s, table, keys):  # pragma: no cover - compiled
    """``(slot, entry)``: the entry of ``s`` in the memo (-1 if absent) and where it is or would go."""
    h = _hash(s)
    while h in table:
        k = table[h]
        key = keys[k // _BLOCK][k % _BLOCK]
        same = True
        for w in range(s.size):
            if key[w] != s[w]:
                same = False
                break
        if same:
            return h, k
        h += 1  # linear probing over hash values: a collision costs a lookup, never a wrong value
    return h, -1


@numba.njit(cache=True)
def _win(s, cand, mines, shows, n_parts, table, keys, values, state):  # pragma: no cover - compiled
    """Win probability from the layouts ``s``; -1.0 once the budget (``state[2]`` nodes) is spent.

    ``cand`` holds every cell that may still matter; ``state``: nodes so far,
    memo entries used, budget.
    """
    k = _find(s, table, keys)[1]
    if k >= 0:
        return values[k // _BLOCK][k % _BLOCK]
    state[0] += 1
    if state[0] > state[2]:
        return -1.0
    n_words = s.size
    size = _count(s)
    n = cand.size
    undetermined = np.empty(n, np.int64)
    live = np.empty(n, np.int64)
    n_und = 0
    n_live = 0
    free = -1
    part = np.empty(n_words, np.uint64)
    for t in range(n):
        j = cand[t]
        any_mine = False
        all_mine = True
        for w in range(n_words):
            m = mines[j, w] & s[w]
            if m != 0:
                any_mine = True
            if m != s[w]:
                all_mine = False
        if any_mine:
            if not all_mine:
                undetermined[n_und] = j
                n_und += 1
                live[n_live] = j
                n_live += 1
        elif free >= 0:
            live[n_live] = j
            n_live += 1
        else:
            for v in range(n_parts[j]):
                c = 0
                for w in range(n_words):
                    c += _popcount(s[w] & shows[j, v, w])
                if 0 < c < size:  # free information: safe everywhere, its number splits s
                    free = j
                    live[n_live] = j
                    n_live += 1
                    break
    live = live[:n_live]
    if n_und == 0:
        value = 1.0
    elif free >= 0:
        total = 0.0
        for v in range(n_parts[free]):
            for w in range(n_words):
                part[w] = s[w] & shows[free, v, w]
            c = _count(part)
            if c:
                r = _win(part.copy(), live, mines, shows, n_parts, table, keys, values, state)
                if r < 0:
                    return -1.0
                total += c * r
        value = total / size
    else:
        risk = np.empty(n_und, np.int64)
        for t in range(n_und):
            c = 0
            for w in range(n_words):
                c += _popcount(mines[undetermined[t], w] & s[w])
            risk[t] = c
        order = np.argsort(risk, kind="mergesort")  # safest first, ties in candidate order
        value = 0.0
        safe = np.empty(n_words, np.uint64)
        for t in order:
            j = undetermined[t]
            for w in range(n_words):
                safe[w] = s[w] & ~mines[j, w]
            if size - risk[t] <= value * size:  # no better than the best: value <= safety
                break
            total = 0.0
            for v in range(n_parts[j]):
                for w in range(n_words):
                    part[w] = safe[w] & shows[j, v, w]
                c = _count(part)
                if c:
                    r = _win(part.copy(), live, mines, shows, n_parts, table, keys, values, state)
                    if r < 0:
                        return -1.0
                    total += c * r
            value = max(value, total / size)
    slot = _find(s, table, keys)[0]  # looked up again: the search below s may have taken a slot
    e = state[1]
    if e % _BLOCK == 0:
        keys.append(np.empty((_BLOCK, n_words), np.uint64))
        values.append(np.empty(_BLOCK, np.float64))
    keys[e // _BLOCK][e % _BLOCK] = s
    values[e // _BLOCK][e % _BLOCK] = value
    table[slot] = e
    state[1] = e + 1
    return value


@numba.njit(cache=True)
def pruned_search(mines, shows, n_parts, n_layouts, budget):  # pragma: no cover - compiled
    """Value every first reveal worth searching, safest first: ``(cells, values, complete)``.

    ``mines[j]``: the layouts where cell ``j`` is a mine; ``shows[j, v]``: the
    layouts where it shows its ``v``-th number (``n_parts[j]`` of them).
    A reveal strictly less safe than the best value found is not searched
    (ties still are).  ``complete`` is False when the search passed
    ``budget`` nodes.
    """
    n, n_words = mines.shape
    everything = np.arange(n)
    all_layouts = np.zeros(n_words, np.uint64)
    for l in range(n_layouts):
        all_layouts[l // 64] |= np.uint64(1) << np.uint64(l % 64)
    risk = np.empty(n, np.int64)
    moves = np.empty(n, np.int64)
    n_moves = 0
    for j in range(n):
        c = _count(mines[j])
        if 0 < c < n_layouts:
            moves[n_moves] = j
            risk[n_moves] = c
            n_moves += 1
    order = np.argsort(risk[:n_moves], kind="mergesort")
    table = Dict.empty(key_type=types.int64, value_type=types.int64)
    keys = List.empty_list(types.uint64[:, ::1])
    values = List.empty_list(types.float64[::1])
    state = np.array([0, 0, budget], np.int64)
    out_cells = np.empty(n_moves, np.int64)
    out_values = np.empty(n_moves, np.float64)
    n_out = 0
    top = 0.0
    part = np.empty(n_words, np.uint64)
    for t in order:
        j = moves[t]
        if n_out and n_layouts - risk[t] < top * n_layouts - 1e-9:
            break
        total = 0.0
        for v in range(n_parts[j]):
            for w in range(n_words):
                part[w] = all_layouts[w] & ~mines[j, w] & shows[j, v, w]
            c = _count(part)
            if c:
                r = _win(part.copy(), everything, mines, shows, n_parts, table, keys, values, state)
                if r < 0:
                    return out_cells[:n_out], out_values[:n_out], False
                total += c * r
        out_cells[n_out] = j
        out_values[n_out] = total / n_layouts
        top = max(top, out_values[n_out])
        n_out += 1
    return out_cells[:n_out], out_values[:n_out], True
