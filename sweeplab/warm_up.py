"""Compile every numba kernel once, so that later runs start at once (``make install`` runs it).

numba compiles a kernel on its first call and caches it beside the module
(``__pycache__``); a fresh clone has no cache, so its first ``sweeplab play``
spent 30-90 s compiling, in every worker, before its first game.  Run as
``python -m sweeplab.warm_up``.
"""

from __future__ import annotations

import time

__all__ = ["warm_up"]


def warm_up() -> float:
    """Call every kernel once (every method on a small position, and games of ``best``); seconds taken.

    Examples
    --------
    >>> warm_up() >= 0
    True
    """
    from . import METHODS, Observation, deduce, play

    start = time.perf_counter()
    obs = Observation.from_text("1??\n???\n??1", mines=3)
    for name in METHODS:
        deduce(obs, name)
    # the endgame search, the two-step value and the game engine's cascades run in whole games
    play("best", level="expert", games=10, seed=0)
    return time.perf_counter() - start


if __name__ == "__main__":
    print("sweeplab: compiling the numba kernels once (about 30 s on a fresh clone; cached for later runs)",
          flush=True)
    print(f"sweeplab: kernels compiled and cached in {warm_up():.1f} s")
