"""Pairs of clues: the difference rule (report 001, Inference: ``A+B+C = 1``, ``A+C+D = 2``).

Report 001's knowledge base reads each rule alone and so "cannot deduce that
``D - B = 1`` and therefore ``D = 1`` and ``B = 0``".  This method does: for two
clues ``P`` and ``Q`` that share covered cells, subtracting ``P`` from ``Q``
gives ``sum(Q \\ P) - sum(P \\ Q) = need(Q) - need(P)``.  When the difference
equals the number of cells of ``Q \\ P``, those are all mines and ``P \\ Q`` is
all safe; the nested case (``P`` inside ``Q``, so ``P \\ Q`` is empty) is the
classic subset rule.  With ``use_total`` the total-mines row takes part as one
more clue that contains every other.

The single-clue rule (:mod:`~sweeplab.methods.trivial`) runs first; whatever is
found is applied and both rules re-run until nothing changes, as a player
would.  Every pair is examined at once with numpy on the padded grid.

Sound, not complete.  Needs exact clues (:class:`~sweeplab.MethodRefused` under
``"under"`` or ``"over"`` noise).  Each pass is linear in the board; ``time_limit`` is checked
between passes.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..positions import InconsistentPositionError, Observation
from ._common import TIME_LIMIT, Budget, CellSets, exact_system
from ._grid_rules import Board

__all__ = ["forced_cells"]

_OFFSETS = [(dr, dc) for dr in range(-2, 3) for dc in range(-2, 3) if dr or dc]
_EIGHT = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]


def forced_cells(
    obs: Observation, *, use_total: bool = True, time_limit: float | None = TIME_LIMIT
) -> CellSets:
    """Cells the single-clue and pairwise difference rules prove, to a fixpoint.

    Parameters
    ----------
    obs : Observation
    use_total : bool, default True
        Let the total-mines count take part as a clue over every covered cell.
    time_limit : float or None, default 20
        Seconds (``None``: no limit).

    Returns
    -------
    (set, set)
        Safe cells and mines.

    Raises
    ------
    InconsistentPositionError
        When a rule finds a contradiction.
    MethodRefused
        Under ``"under"``/``"over"`` clue noise, or past ``time_limit``.

    Examples
    --------
    Report 001's ``A+B+C = 1``, ``A+C+D = 2`` (B A C D on the top row):

    >>> from sweeplab import Observation
    >>> safe, mines = forced_cells(Observation.from_text("????\\n-12-"))
    >>> sorted(safe), sorted(mines)
    ([(0, 0)], [(0, 3)])
    """
    budget = Budget("subset", time_limit=time_limit)
    board = Board(exact_system(obs, "subset", use_total=use_total))
    tables = _tables(board.width)
    while True:
        budget.check("applying the pair rules")
        board.single_clue_rule()
        if not (_pair_pass(board, tables) or _total_pass(board)):
            return board.claims()


@lru_cache(maxsize=16)
def _tables(width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per offset ``d`` from clue ``P`` to clue ``Q``, relative flat offsets (from ``P``) of
    the shared cells, of ``Q``'s neighbours outside ``P``'s box and of ``P``'s neighbours
    outside ``Q``'s box; short lists are padded with 0 (``P`` itself, never covered)."""

    def flat(cells):
        return [dr * width + dc for dr, dc in cells]

    def padded(lists, size):
        return np.array([lst + [0] * (size - len(lst)) for lst in lists], dtype=np.int64)

    shared, only_q, only_p = [], [], []
    for dr, dc in _OFFSETS:
        shared.append(flat([(r, c) for r, c in _EIGHT if max(abs(r - dr), abs(c - dc)) <= 1]))
        only_q.append(flat([(dr + r, dc + c) for r, c in _EIGHT if max(abs(dr + r), abs(dc + c)) > 1]))
        only_p.append(flat([(r, c) for r, c in _EIGHT if max(abs(r - dr), abs(c - dc)) > 1]))
    offsets = np.array(flat(_OFFSETS), dtype=np.int64)
    return offsets, padded(shared, 6), padded(only_q, 8), padded(only_p, 8)


def _pair_pass(board: Board, tables) -> bool:
    """One pass of the difference rule over every ordered pair of nearby active clues."""
    offsets, shared, only_q, only_p = tables
    clues = board.watch
    if clues.size < 2:
        return False
    nb = board.neighbours(clues)
    unk = np.zeros(board.unknown.size, dtype=np.int64)
    need = np.zeros(board.unknown.size, dtype=np.int64)
    unk[clues] = board.unknown[nb].sum(axis=1)
    need[clues] = board.clue[clues] - board.mine[nb].sum(axis=1)
    active = np.zeros(board.unknown.size, dtype=bool)
    active[clues] = True
    # every ordered pair (p, q = p + offsets[k]) of active clues
    partner = clues[:, None] + offsets
    ip, k = np.nonzero(active[partner])
    p = clues[ip]
    q = p + offsets[k]
    both = board.unknown[p[:, None] + shared[k]].sum(axis=1)
    q_only = unk[q] - both
    p_only = unk[p] - both
    diff = need[q] - need[p]  # = sum(Q \ P) - sum(P \ Q)
    bad = (diff > q_only) | (diff < -p_only)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InconsistentPositionError(
            f"clues at {board.cell(int(p[i]))} and {board.cell(int(q[i]))} contradict each other"
        )
    fire = (diff == q_only) & (q_only + p_only > 0)
    if not fire.any():
        return False
    mines = (p[fire][:, None] + only_q[k[fire]]).ravel()
    safe = (p[fire][:, None] + only_p[k[fire]]).ravel()
    return board.apply(safe, mines)


def _total_pass(board: Board) -> bool:
    """The total row minus one clue: the covered cells away from that clue."""
    if board.remaining is None:
        return False
    clues = board.watch
    if clues.size == 0:
        return False
    nb = board.neighbours(clues)
    unk = board.unknown[nb].sum(axis=1)
    need = board.clue[clues] - board.mine[nb].sum(axis=1)
    rest = board.n_unknown - unk
    rest_need = board.remaining - need
    if np.any((rest_need < 0) | (rest_need > rest)):
        raise InconsistentPositionError("the total number of mines contradicts a clue")
    firing = np.flatnonzero((rest > 0) & ((rest_need == 0) | (rest_need == rest)))
    if firing.size == 0:
        return False
    i = int(firing[0])
    away = board.unknown.copy()
    away[nb[i]] = False
    cells = np.flatnonzero(away)
    if rest_need[i] == 0:
        return board.apply(cells, cells[:0])
    return board.apply(cells[:0], cells)
