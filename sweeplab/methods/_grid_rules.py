"""The player-style rules on the clue system's grid view (``trivial``, ``subset``).

:class:`Board` holds a position on :meth:`~sweeplab.clue_system.ClueSystem.grid_view`
and applies found cells in place, as a player would, with the single-clue and
total-mines rules (report 000 §2.2, report 001 "Global Information") as a
compiled worklist.
"""

from __future__ import annotations

from functools import lru_cache

import numba
import numpy as np

from ..clue_system import PAD, ClueSystem
from ..errors import InconsistentPositionError, mines_text, unmet_clue_text
from ._common import Cell, CellSets


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
            raise InconsistentPositionError(unmet_clue_text(int(self.clue[at]), self.cell(at), need, unk,
                                                                    kind="undecided"))
        if status == 2:
            raise InconsistentPositionError(
                f"{mines_text(-need)} more known or deduced than the total allows" if need < 0
                else f"the total leaves {mines_text(need)} for {unk} undecided cells")
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

    def _cells(self, found: list[int]) -> frozenset[Cell]:
        w = self.width
        return frozenset([(i // w - PAD, i % w - PAD) for i in found])


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

