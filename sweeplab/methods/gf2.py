"""Row reduction over GF(2) (report 002: "we can look at fields, like F_2").

The special case ``p = 2`` of :mod:`~sweeplab.methods.gfp`: the clue system is
reduced modulo 2, so it only sees parities.  A reduced row with one cell fixes
it (``x = r``).  Every coefficient is 1 modulo 2, so the mod-p bound rule adds
nothing here: a longer row such as ``x + y = 1 (mod 2)`` has a unique total,
1, but it is not an end of the range ``[0, 2]``.  Sound, not complete.  Needs exact clues.
"""

from __future__ import annotations

from ..positions import Observation
from . import gfp
from ._common import MAX_BLOCK_BYTES, TIME_LIMIT, CellSets

__all__ = ["forced_cells"]


def forced_cells(
    obs: Observation,
    *,
    use_total: bool = True,
    engine: str = "flint",
    time_limit: float | None = TIME_LIMIT,
    max_bytes: int | None = MAX_BLOCK_BYTES,
) -> CellSets:
    """Cells fixed by the RREF of the clue system over GF(2).

    Parameters
    ----------
    obs : Observation
    use_total : bool, default True
    engine : {"flint", "galois"}, default "flint"
        Which library row-reduces: python-flint (compiled) or galois, as in
        :mod:`~sweeplab.methods.gfp`; the same cells either way.
    time_limit : float or None, default 20
        Seconds (``None``: no limit).
    max_bytes : int or None, default 32 MiB
        Largest dense block, as in :mod:`~sweeplab.methods.gfp`.

    Returns
    -------
    (set, set)
        Safe cells and mines.

    Examples
    --------
    >>> from sweeplab import Observation
    >>> safe, mines = forced_cells(Observation.from_text("?1\\n11"))
    >>> sorted(safe), sorted(mines)
    ([], [(0, 0)])
    """
    return gfp.reduced_cells(obs, "gf2", use_total=use_total, p=2, engine=engine, time_limit=time_limit,
                             max_bytes=max_bytes)
