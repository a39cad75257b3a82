"""Layout counts of a position, and the exact distribution of the number a covered cell will show.

The ``best`` agent (issue 13) values a guess by what its number will tell.
The number a safe cell ``i`` shows is the count of mines around it; its
distribution is *not* that of independent neighbours: the clues and the total
tie the neighbours together.  It is exact by conditioning: the layouts in
which ``i`` is safe and shows ``k`` are exactly the layouts of the position
with ``i`` revealed as ``k``, so

    P(i safe and shows k) = W(position with i showing k) / W(position),

where ``W`` counts the layouts of the covered cells consistent with the clues
and the total.  :func:`analyse_weighted` returns ``log W`` with the exact
probabilities and forced cells, from one enumeration
(:func:`sweeplab.methods.enumerate.analyse` with ``count=True``).
"""

from __future__ import annotations

import numpy as np

from ..errors import InconsistentPositionError
from ..methods.enumerate import MAX_NODES, Enumeration, analyse
from ..positions import COVERED, FLAG, MINE, Observation, neighbour_table

__all__ = ["analyse_shown", "analyse_weighted", "number_distribution"]


def analyse_weighted(obs: Observation, *, max_nodes: int = MAX_NODES) -> Enumeration | None:
    """Exact forced cells, probabilities and layout count (``log_layouts``) of a position with its total.

    ``None`` when no layout fits.  Raises :class:`~sweeplab.MethodRefused`
    past enumeration's size caps (no time limit: an agent's move waits for it).

    Examples
    --------
    >>> a = analyse_weighted(Observation.from_text("1?\\n??", mines=1))
    >>> round(float(np.exp(a.log_layouts)), 6), a.probabilities.round(3).tolist()
    (3.0, [[nan, 0.333], [0.333, 0.333]])
    """
    if obs.mines is None:
        raise ValueError("analyse_weighted needs the total number of mines")
    try:
        return analyse(obs, use_total=True, probabilities=True, count=True, max_nodes=max_nodes,
                       time_limit=None)
    except InconsistentPositionError:
        return None


def analyse_shown(obs: Observation, cells: list[int] | int, code: int, *,
                  max_nodes: int = MAX_NODES) -> Enumeration | None:
    """:func:`analyse_weighted` of ``obs`` with the flat ``cells`` shown as ``code`` (a number, or
    ``FLAG`` for mines): the layouts of the position in which that holds.

    Examples
    --------
    >>> obs = Observation.from_text("1?\\n??", mines=1)
    >>> round(float(np.exp(analyse_shown(obs, 1, FLAG).log_layouts)), 6)
    1.0
    """
    g = obs.grid.copy()
    g.flat[cells] = code
    g.setflags(write=False)
    return analyse_weighted(Observation._trusted(g, obs.mines), max_nodes=max_nodes)


def number_distribution(
    obs: Observation, cell: tuple[int, int], *, base: Enumeration | None = None, max_nodes: int = MAX_NODES,
    floor: float = 0.0,
) -> dict[int, tuple[float, Enumeration]]:
    """``{k: (P(cell safe and shows k), analysis of the position with cell showing k)}``, exactly.

    The probabilities sum to ``P(cell safe)``.  Numbers with probability
    below ``floor`` are left out.  ``base`` is the analysis of ``obs`` if
    already done.

    Examples
    --------
    >>> obs = Observation.from_text("1??\\n???", mines=1)
    >>> d = number_distribution(obs, (0, 2))
    >>> {k: round(pk, 4) for k, (pk, _) in d.items()}
    {0: 0.3333, 1: 0.6667}
    """
    base = base or analyse_weighted(obs, max_nodes=max_nodes)
    if base is None:
        return {}
    grid = obs.grid
    r, c = cell
    i = r * grid.shape[1] + c
    nb = neighbour_table(obs.shape)[i]
    nb = nb[nb >= 0]
    flat = grid.ravel()
    known = int(np.count_nonzero((flat[nb] == FLAG) | (flat[nb] == MINE)))
    unknown = int(np.count_nonzero(flat[nb] == COVERED))
    out: dict[int, tuple[float, Enumeration]] = {}
    for k in range(known, known + unknown + 1):
        a = analyse_shown(obs, i, k, max_nodes=max_nodes)
        if a is None:
            continue
        pk = float(np.exp(a.log_layouts - base.log_layouts))
        if pk > floor:
            out[k] = (pk, a)
    return out
