"""Deduction methods behind :func:`sweeplab.deduce` and :data:`sweeplab.METHODS` (SPEC §4).

Each method lives in its own module of this package and exposes
``forced_cells(obs, *, use_total=True, **options) -> (safe, mines)``, two
sets of ``(row, col)``.  The registry below describes every method and
imports its module on first use, so importing :mod:`sweeplab` stays cheap
(``galois`` alone takes seconds to import).
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..positions import Observation, as_observation

__all__ = ["Deduction", "MethodInfo", "METHODS", "deduce"]

Cell = tuple[int, int]


@dataclass(frozen=True)
class Deduction:
    """Cells a method proved (or, for unsound methods, claimed) safe or mined."""

    safe: frozenset[Cell]
    mines: frozenset[Cell]
    method: str
    seconds: float

    @property
    def cells(self) -> frozenset[Cell]:
        """Every cell the method decided."""
        return self.safe | self.mines

    def __len__(self) -> int:
        return len(self.safe) + len(self.mines)


@dataclass(frozen=True)
class MethodInfo:
    """What a deduction method is and promises.

    Attributes
    ----------
    name : str
    sound : bool
        Never claims a wrong cell.
    complete : bool
        Finds every forced cell.
    uses_total : bool
        Takes the total-mines information into account when ``use_total``.
    summary : str
        One line.
    reference : str
        The seed report section it follows.
    """

    name: str
    sound: bool
    complete: bool
    uses_total: bool
    summary: str
    reference: str
    module: str

    @property
    def function(self) -> Callable[..., tuple[set[Cell], set[Cell]]]:
        """The module's ``forced_cells`` (imported on first use)."""
        return importlib.import_module(f"{__name__}.{self.module}").forced_cells


_INFOS = [
    MethodInfo("trivial", True, False, True,
               "one clue at a time (the total as one more clue): all mines or all safe; to a fixpoint",
               "000 §2.2; 003 Algorithm A; 001 Global Information", "trivial"),
    MethodInfo("subset", True, False, True,
               "pairs of clues (and the total): the difference rule, nested or overlapping; to a fixpoint",
               "001 Inference (A+B+C=1, A+C+D=2)", "subset"),
    MethodInfo("rref", True, False, True,
               "exact rational RREF of [A|b], then the row bound rule on each row",
               "002 Algorithm 1; 003 Algorithm B", "rref"),
    MethodInfo("lstsq", False, False, True,
               "minimum-norm least squares; values within tolerance of 0 or 1 are claimed (unsound)",
               "000 §3.1", "lstsq"),
    MethodInfo("lstsq-certified", True, False, True,
               "claims only cells determined by the system (exact row-space test), valued 0 or 1",
               "000 §3.1, with a proof", "lstsq_certified"),
    MethodInfo("gf2", True, False, True,
               "row reduction over GF(2) (flint; galois as engine option): a cell fixed mod 2 is fixed",
               "002 (finite fields)", "gf2"),
    MethodInfo("gfp", True, False, True,
               "row reduction over GF(p), option p (default 7), with the mod-p bound rule",
               "002 (GF(p))", "gfp"),
    MethodInfo("bounded", True, False, True,
               "bounds propagation of 0/1 cells on original and RREF rows, with substitution, to a fixpoint",
               "002 Algorithm 1; 003 Algorithm B, iterated", "bounded"),
    MethodInfo("lp", True, False, True,
               "LP relaxation (HiGHS, batched solves): max 0 -> safe, min 1 -> mine",
               "000 §2.4 (relaxed)", "lp"),
    MethodInfo("milp", True, True, True,
               "proof by contradiction with an integer program per cell",
               "000 §2.4 CSP; 001 reductio agent", "milp"),
    MethodInfo("enumerate", True, True, True,
               "every consistent assignment of each component (grouped cells, numba backtracking), "
               "combined with the total by binomial weights; also gives sweeplab.probabilities",
               "004 §3 (backtracking, split borders)", "enumerate"),
    MethodInfo("brute", True, True, True,
               "every 0/1 assignment of the whole frontier, no splitting; refuses above 20 frontier cells",
               "000 §2.4 (all solutions)", "brute"),
]

#: Read-only mapping from method name to its :class:`MethodInfo`.
METHODS: MappingProxyType[str, MethodInfo] = MappingProxyType({m.name: m for m in _INFOS})


def deduce(
    obs: Observation | str,
    method: str = "rref",
    *,
    use_total: bool = True,
    **options: Any,
) -> Deduction:
    """Deduce safe cells and mines of a position with one method (SPEC §4).

    Parameters
    ----------
    obs : Observation or str
        The position (its text form is accepted too).
    method : str, default "rref"
        A key of :data:`METHODS`.
    use_total : bool, default True
        Use the board's total number of mines when the position knows it.
    **options
        Method options (for example ``p`` for ``"gfp"``).

    Returns
    -------
    Deduction

    Raises
    ------
    KeyError
        For an unknown method.
    InconsistentPositionError
        When the method detects that no mine layout fits the clues.

    Examples
    --------
    >>> from sweeplab import Observation
    >>> d = deduce(Observation.from_text("?1\\n11"), method="trivial")
    >>> sorted(d.mines), sorted(d.safe)
    ([(0, 0)], [])
    """
    try:
        info = METHODS[method]
    except KeyError:
        raise KeyError(f"unknown method {method!r}; choose from {sorted(METHODS)}") from None
    obs = as_observation(obs)
    start = time.perf_counter()
    safe, mines = info.function(obs, use_total=use_total, **options)
    seconds = time.perf_counter() - start
    return Deduction(frozenset(safe), frozenset(mines), method, seconds)
