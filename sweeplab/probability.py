"""Exact mine probabilities (SPEC §4), from exhaustive enumeration (report 004 §3).

A thin front to :func:`sweeplab.methods.enumerate.probabilities`, imported on
first use so that ``import sweeplab`` stays cheap (the enumeration is compiled
with numba).
"""

from __future__ import annotations

from functools import cache
from types import ModuleType

import numpy as np

from .positions import Observation

__all__ = ["probabilities"]


class _Default:
    """Marks an option left to the enumeration's default (``None`` means "no limit" for the budgets)."""

    def __repr__(self) -> str:  # as the signature shows it (``help``, the API reference)
        return "<enumerate's default>"

    def __reduce__(self) -> str:  # pickled and copied as the one instance (an identity test reads it)
        return "_DEFAULT"


_DEFAULT = _Default()


def probabilities(
    obs: Observation | str,
    *,
    use_total: bool = True,
    max_nodes: int | None = None,
    max_bytes=_DEFAULT,
    time_limit=_DEFAULT,
) -> np.ndarray:
    """Exact probability that each covered cell holds a mine.

    Parameters
    ----------
    obs : Observation or str
        The position (or its text form).
    use_total : bool, default True
        Use the board's total number of mines when the position knows it.
    max_nodes : int, optional
        Cap on backtracking nodes per independent block (default
        :data:`sweeplab.methods.enumerate.MAX_NODES`); beyond it the block's
        counts come from a dynamic programme over clue states.
    max_bytes : int or None, optional
        Budget of the count arrays and of the dynamic programme's tables
        (default :data:`sweeplab.methods.enumerate.MAX_BYTES`, 512 MiB; ``None``:
        no limit).
    time_limit : float or None, optional
        Seconds (default :data:`sweeplab.methods._common.TIME_LIMIT`, 20;
        ``None``: no limit).

    Returns
    -------
    numpy.ndarray
        Float array of ``obs.shape``: with the total, every layout of the
        covered cells consistent with the clues and the total is equally
        likely; without it, every layout consistent with the clues is equally
        likely (so cells next to no clue get exactly 1/2).  ``nan`` on revealed
        cells, 1 on flags and revealed mines, exactly 0 or 1 on forced cells and only there.
        Under clue noise ``"under"`` (``"over"``) numbers are lower (upper)
        bounds, and every layout meeting the bounds is equally likely.

    Raises
    ------
    InconsistentPositionError
        When no layout fits the clues (and the total).
    MethodRefused
        Past ``time_limit``, or a block too large for ``max_bytes``
        (:class:`~sweeplab.errors.ComponentTooLargeError`, a ``MethodRefused``):
        the message names the budget to raise.

    Examples
    --------
    A clue 1 over three covered cells, ``x(0,1) + x(1,0) + x(1,1) = 1``, with one mine in all:

    >>> p = probabilities(Observation.from_text("1?\\n??", mines=1))
    >>> p.round(4).tolist()
    [[nan, 0.3333], [0.3333, 0.3333]]
    """
    en = _enumeration()
    budgets = {"max_bytes": max_bytes, "time_limit": time_limit}
    nodes = en.MAX_NODES if max_nodes is None else max_nodes
    return en.probabilities(obs, use_total=use_total, max_nodes=nodes,
                            **{k: v for k, v in budgets.items() if v is not _DEFAULT})


@cache
def _enumeration() -> ModuleType:
    """:mod:`sweeplab.methods.enumerate`, imported on the first call (it loads numba)."""
    from .methods import enumerate as en

    return en
