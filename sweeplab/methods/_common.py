"""What every method shares: the clue system read as equalities, claims, and the work budget (SPEC §2, §4).

The methods' shared layer is four small modules, each over one view of
:func:`sweeplab.clue_system`:

* this one: :func:`exact_system`, :func:`merge_claims`, and :class:`Budget`,
  the work budget every method takes (``time_limit`` seconds, and
  ``max_bytes`` for dense blocks): past it a method raises
  :class:`~sweeplab.MethodRefused` naming the budget, instead of hanging or
  running out of memory;
* :mod:`._grid_rules`: :class:`~._grid_rules.Board`, the player-style rules on
  the grid view (``trivial``, ``subset``);
* :mod:`._algebra`: exact and modular RREF of the merged view, one block at a
  time, and reading rows with bounds (``rref``, ``bounded``,
  ``lstsq-certified``, ``gf2``, ``gfp``);
* :mod:`._relaxation`: :class:`~._relaxation.Relaxation`, the LP relaxation of
  the cell bounds (``lp``, ``milp``).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Set as AbstractSet

import numba.core.event
import numpy as np

from ..clue_system import ClueSystem, clue_system
from ..errors import InconsistentPositionError, MethodRefused, exact_clues_needed
from ..positions import Observation

Cell = tuple[int, int]
CellSets = tuple[AbstractSet[Cell], AbstractSet[Cell]]


def exact_system(obs: Observation, method: str, *, use_total: bool) -> ClueSystem:
    """The clue system of ``obs`` for a method that reads rows as equalities.

    Raises :class:`MethodRefused` under ``"under"``/``"over"`` noise (numbers are only
    bounds); ``"lost"`` clues are simply absent (``NOCLUE`` gives no equation), so they are fine.
    """
    system = clue_system(obs, use_total=use_total)
    if not system.exact:
        raise exact_clues_needed(method, str(obs.noise))
    return system


def merge_claims(safe: set[Cell], mines: set[Cell]) -> CellSets:
    """Return the claims, or raise when a cell was proved both safe and a mine."""
    both = safe & mines
    if both:
        raise InconsistentPositionError(f"cell {min(both)} is forced both safe and a mine")
    return safe, mines


# ---------------------------------------------------------------------------------------------
# the work budget (every method)

#: Default wall-clock budget of one method call, in seconds (option ``time_limit``; ``None``: no limit).
TIME_LIMIT = 20.0
#: Default size budget of one dense block of the algebraic methods, in bytes (option ``max_bytes``):
#: ``[A | b]`` of the block as ``int64``.  32 MiB is a block of about 2,000 x 2,000 cells, which
#: python-flint reduces exactly in a few seconds (and in a few hundred MB).
MAX_BLOCK_BYTES = 32 << 20


class _CompileClock(numba.core.event.Listener):
    """Seconds numba has spent compiling kernels, by thread: not a method's work, so its budget does not
    count them (the first call on a fresh install compiles for 20-30 s).  Loading a cached kernel is
    not a compile event, and counts."""

    def __init__(self) -> None:
        self.mine = threading.local()  # this thread's nesting of compile events, and when it began
        self.seconds: dict[int, float] = {}

    def on_start(self, event: numba.core.event.Event) -> None:
        depth = getattr(self.mine, "depth", 0)
        if depth == 0:
            self.mine.started = time.perf_counter()
        self.mine.depth = depth + 1

    def on_end(self, event: numba.core.event.Event) -> None:
        self.mine.depth -= 1
        if self.mine.depth == 0:
            thread = threading.get_ident()
            self.seconds[thread] = self.seconds.get(thread, 0.0) + time.perf_counter() - self.mine.started

    def spent(self) -> float:
        """Seconds this thread has spent compiling."""
        return self.seconds.get(threading.get_ident(), 0.0)


_COMPILING = _CompileClock()
numba.core.event.register("numba:compile", _COMPILING)


class Budget:
    """The work budget of one method call: wall-clock seconds, and bytes of one dense structure.

    Time is checked between units of work (a block, a pass, a solver call, a
    level of a dynamic programme; solvers get the time left), so a call can
    overrun ``time_limit`` by one unit; sizes are checked before anything
    dense is built.  Past either, :class:`~sweeplab.MethodRefused` names the
    budget and the option that raises it.

    Parameters
    ----------
    method : str
        The method's name, for messages.
    time_limit : float or None
        Seconds (``None``: no limit).
    max_bytes : int or None
        Bytes of one dense structure (``None``: no limit).

    Raises
    ------
    ValueError
        For a budget that is not a positive number or ``None``.

    Examples
    --------
    >>> budget = Budget("rref", time_limit=None, max_bytes=1_000)
    >>> budget.dense(10, 10, "a block")
    >>> budget.dense(100, 100, "a block")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sweeplab.errors.MethodRefused: method 'rref' would need a block of 100 x 100 ... max_bytes=1000 ...
    """

    def __init__(self, method: str, *, time_limit: float | None = TIME_LIMIT, max_bytes: int | None = None):
        self.method = method
        self.time_limit = _option(method, "time_limit", time_limit, "a positive number of seconds")
        self.max_bytes = _option(method, "max_bytes", max_bytes, "a positive integer")
        self.deadline = math.inf if self.time_limit is None else time.perf_counter() + self.time_limit
        self._compiled = _COMPILING.spent()

    def left(self) -> float:
        """Seconds left (``inf`` without a limit); time this thread spent compiling kernels is not counted."""
        return self.deadline + (_COMPILING.spent() - self._compiled) - time.perf_counter()

    def solver_seconds(self) -> float | None:
        """Seconds to give a solver: the time left (at least 0.01), or ``None`` without a limit."""
        return None if self.time_limit is None else max(self.left(), 0.01)

    def check(self, doing: str) -> None:
        """Raise :class:`~sweeplab.MethodRefused` when the time is up."""
        if self.left() < 0:
            raise self.out_of_time(doing)

    def out_of_time(self, doing: str) -> MethodRefused:
        return MethodRefused(
            f"method {self.method!r} ran past its time budget time_limit={self.time_limit:g} s "
            f"while {doing}; raise the option time_limit (seconds, or None for no limit)"
        )

    def dense(self, rows: int, cols: int, what: str, *, itemsize: int = 8) -> None:
        """Raise :class:`~sweeplab.MethodRefused` when a dense ``rows x cols`` array is over ``max_bytes``."""
        need = int(rows) * int(cols) * itemsize
        if self.max_bytes is not None and need > self.max_bytes:
            raise MethodRefused(
                f"method {self.method!r} would need {what} of {rows} x {cols} entries ({size_text(need)}), "
                f"over its size budget max_bytes={self.max_bytes} ({size_text(self.max_bytes)}); "
                "raise the option max_bytes (bytes, or None for no limit)"
            )


#: A count or size past this is no cap at all: kept within int64 for the compiled code.
NO_CAP = 2**62


def _option(method: str, name: str, value, what: str):
    """``value`` of a budget option, checked: ``None``, or positive (an integer for ``max_bytes``)."""
    if value is None:
        return None
    if type(value) is (int if name == "max_bytes" else float) and value > 0:  # the defaults: no more checks
        return min(value, NO_CAP) if name == "max_bytes" else value
    integer = name == "max_bytes"
    kinds = (int, np.integer) if integer else (int, float, np.integer, np.floating)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, kinds) or not value > 0 or value != value:
        raise ValueError(f"option {name} of method {method!r} must be {what} or None, got {value!r}")
    if integer:
        return min(int(value), NO_CAP)
    try:
        return float(value)
    except OverflowError:  # an integer past float's range: longer than any run, so no limit
        return None


def count_option(method: str, name: str, value) -> int:
    """``value`` of a count option (a node or variable cap) as a non-negative int, checked.

    Examples
    --------
    >>> count_option("brute", "max_variables", np.int64(12))
    12
    """
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ValueError(f"option {name} of method {method!r} must be a non-negative integer, got {value!r}")
    return min(int(value), NO_CAP)


def size_text(n: int) -> str:
    """Bytes in MiB, or GiB from 1 GiB on."""
    return f"{n / 2**30:,.1f} GiB" if n >= 2**30 else f"{n / 2**20:,.1f} MiB"
