"""Test a deduction method against exact enumeration, in your own test suite (SPEC §4).

>>> import sweeplab
>>> from sweeplab.testing import check_sound
>>> report = check_sound("subset", positions=random_positions(40, seed=1))
>>> report.ok, report.wrong_claims
(True, 0)

The positions are small, so exact enumeration (``deduce(obs, "enumerate")``)
labels them in microseconds: :func:`random_positions` cuts them from random
layouts and adds what a careful adversary would (flags, revealed mines, lost
clues, clue noise, unknown totals, clues that fit no layout).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import (
    ContradictoryClaimError,
    InconsistentPositionError,
    InvalidClaimError,
    MethodRefused,
    check_flag,
)
from ..methods import deduce, method_info, method_use_total, untimed
from ..positions import COVERED, FLAG, MINE, NOCLUE, Observation, neighbour_counts

__all__ = [
    "Counterexample", "SoundnessReport", "assert_sound", "check_sound", "half_revealed", "random_positions",
]

Cell = tuple[int, int]
#: The exact oracle every check compares with.
ORACLE = "enumerate"


def random_positions(n: int, *, seed: int | np.random.Generator = 0, start: int = 0, max_side: int = 6,
                     noise: bool = True, arbitrary: float = 0.15) -> Iterator[Observation]:
    """Positions ``start .. start + n - 1`` of ``seed``: small, random, adversarial ones included.

    Most are cut from a random layout (some cells covered, some flagged, some
    revealed mines and lost clues; a random share of clues under "under" /
    "over" noise when ``noise``; the total known four times in five); a share
    ``arbitrary`` have clue numbers drawn at random, so many fit no layout.
    Position ``i`` is drawn from its own generator,
    ``numpy.random.default_rng([seed, i])``, so a run split into parts from
    any ``start`` costs no more than its own positions and sees the same ones.

    Examples
    --------
    >>> [o.shape for o in random_positions(3, seed=7)]
    [(6, 4), (6, 5), (2, 2)]
    >>> [o.shape for o in random_positions(2, seed=7, start=1)]
    [(6, 5), (2, 2)]
    """
    if isinstance(seed, np.random.Generator):  # SPEC §3: a Generator gives the root seed, by one draw
        seed = int(seed.integers(2**63))
    if n < 0 or start < 0 or seed < 0:  # checked at the call, not at the first position
        raise ValueError(f"random_positions needs n >= 0, start >= 0 and seed >= 0; got n={n!r}, "
                         f"start={start!r}, seed={seed!r}")
    return (_random_position(np.random.default_rng([seed, i]), max_side=max_side, noise=noise,
                             arbitrary=arbitrary) for i in range(start, start + n))


def _random_position(rng: np.random.Generator, *, max_side: int, noise: bool,
                     arbitrary: float) -> Observation:
    """One position of :func:`random_positions`, drawn from ``rng``."""
    h, w = (int(v) for v in rng.integers(1, max_side + 1, 2))
    if rng.random() < arbitrary:
        grid = rng.integers(0, 6, (h, w))
        grid[rng.random((h, w)) < 0.5] = COVERED
        grid[rng.random((h, w)) < 0.05] = FLAG
        known = int(np.count_nonzero(grid == FLAG))
        mines = None if rng.random() < 0.3 else int(rng.integers(known, h * w + 1))
        return Observation(grid, mines=mines)
    layout = rng.random((h, w)) < rng.uniform(0.05, 0.5)
    counts = neighbour_counts(layout).astype(np.int64)
    kind = rng.choice(["exact", "exact", "exact", "lost", "under", "over"]) if noise else "exact"
    shown = counts.copy()
    hit = rng.random((h, w)) < 0.4
    if kind == "under":
        shown = np.where(hit, np.floor(rng.random((h, w)) * (counts + 1)), counts)
    elif kind == "over":
        around = neighbour_counts(np.ones((h, w), bool))
        shown = np.where(hit, counts + np.floor(rng.random((h, w)) * (around - counts + 1)), counts)
    grid = np.where(layout, COVERED, shown).astype(np.int64)
    grid[~layout & (rng.random((h, w)) < rng.uniform(0.2, 0.8))] = COVERED
    grid[layout & (rng.random((h, w)) < 0.2)] = FLAG
    grid[layout & (rng.random((h, w)) < 0.1)] = MINE
    if kind == "lost" or rng.random() < 0.2:
        grid[(grid >= 0) & (rng.random((h, w)) < 0.15)] = NOCLUE
    mines = None if rng.random() < 0.2 else int(layout.sum())
    return Observation(grid, mines=mines, noise=None if kind == "exact" else str(kind))


def half_revealed(size: int, *, density: float = 0.15, seed: int = 0, revealed: float = 0.5) -> Observation:
    """A ``size`` x ``size`` position with a share ``revealed`` of its safe cells open (large boards).

    The first click, in the centre, opens a zero; then safe cells are clicked
    in a random order (zeros cascade) until the share is reached.  The layout
    is used only to build the position: it is what bounded-work checks and the
    scaling benchmark run on.

    Examples
    --------
    >>> obs = half_revealed(40, seed=1)
    >>> obs.shape, obs.mines
    ((40, 40), 240)
    """
    from ..game import new_game

    rng = np.random.default_rng(seed)
    game = new_game(shape=(size, size), density=density, seed=seed, first_click="zero")
    game.reveal(size // 2, size // 2)
    assert game.layout is not None  # placed by the first reveal
    safe = np.argwhere(~game.layout)
    rng.shuffle(safe)
    for r, c in safe:
        if game.revealed_fraction >= revealed:
            break
        if game.observation.grid[r, c] == COVERED:
            game.reveal(int(r), int(c))
    return game.observation


@dataclass(frozen=True)
class Counterexample:
    """A position where a method claimed a cell that is not forced that way (or a wrong verdict), or,
    held to completeness, missed a forced cell or that no layout fits (said in ``note``)."""

    observation: Observation
    use_total: bool
    wrong_safe: frozenset[Cell]
    wrong_mines: frozenset[Cell]
    note: str = ""

    def __str__(self) -> str:
        what = self.note or f"wrong safe {sorted(self.wrong_safe)}, wrong mines {sorted(self.wrong_mines)}"
        text = self.observation.to_text()
        return (f"{what} (use_total={self.use_total}, mines={self.observation.mines}, "
                f"noise={self.observation.noise!r}):\n{text}")


@dataclass(frozen=True)
class SoundnessReport:
    """What :func:`check_sound` found; true (``bool(report)``) when the method kept its promises.

    Attributes
    ----------
    method : str
    checked : int
        Calls compared with the oracle: positions times uses of the total,
        less the ``refused`` ones.
    wrong_claims : int
        Claimed cells not forced that way.
    false_inconsistent : int
        Consistent positions the method called inconsistent.
    refused : int
        Calls the method declined (:class:`~sweeplab.MethodRefused`).
    claims_on_inconsistent : int
        Cells claimed on positions no layout fits (not wrong, but worthless).
    missed : int
        Forced cells the method did not find.
    counterexamples : tuple of Counterexample
        The first few failures, with a reproducer each.
    complete : bool
        The method was held to finding every forced cell: then a missed one fails the report too.
    missed_inconsistent : int
        Positions no layout fits that the method answered without saying so
        (:class:`~sweeplab.InconsistentPositionError`): a complete method must
        (``deduce`` reports ``consistent=True`` for its answers), so, when held
        to completeness, one fails the report too.
    """

    method: str
    checked: int
    wrong_claims: int
    false_inconsistent: int
    refused: int
    claims_on_inconsistent: int
    missed: int
    counterexamples: tuple[Counterexample, ...]
    complete: bool = False
    missed_inconsistent: int = 0

    @property
    def sound(self) -> bool:
        """No claim was wrong and no consistent position was called inconsistent."""
        return self.wrong_claims == 0 and self.false_inconsistent == 0

    @property
    def ok(self) -> bool:
        """Something was checked; sound; and when held to completeness, no forced cell nor position no
        layout fits missed.  A report of nothing (no positions, say an iterator an earlier call used up,
        or every call refused) is not ok: it shows nothing about the method."""
        return (self.checked > 0 and self.sound
                and not (self.complete and (self.missed or self.missed_inconsistent)))

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        verdict = ("UNSOUND" if not self.sound else "NOTHING CHECKED" if not self.checked
                   else "INCOMPLETE" if not self.ok else "sound and complete" if self.complete else "sound")
        head = (f"{self.method}: {verdict} on {self.checked} checks "
                f"({self.wrong_claims} wrong claims, {self.false_inconsistent} false inconsistencies, "
                f"{self.refused} refused, {self.missed} forced cells missed"
                + (f", {self.missed_inconsistent} inconsistent positions not detected)"
                   if self.missed_inconsistent else ")"))
        if not self.checked:
            head += (": no positions (an iterator such as random_positions(...) is used up by the call that "
                     "reads it: pass a list to check twice), no value of use_total, or every call refused")
        return "\n\n".join([head, *map(str, self.counterexamples)])


def check_sound(
    method: str | Callable[..., Any],
    *,
    positions: Iterable[Observation] | None = None,
    use_total: bool | Iterable[bool] = (True, False),
    options: dict[str, Any] | None = None,
    keep: int = 5,
    complete: bool | None = None,
) -> SoundnessReport:
    """Compare a method's claims with exact enumeration on many positions.

    Parameters
    ----------
    method : str or callable
        A registered method's name or a function ``function(obs, *,
        use_total, **options) -> (safe, mines)``.
    positions : iterable of Observation, optional
        Default: 300 positions of :func:`random_positions` (seed 0).  Keep them
        small (exact enumeration labels each one).
    use_total : bool or iterable of bool, default (True, False)
        With the total, without it, or both.
    options : dict, optional
        Method options.  A method that takes ``time_limit`` is called with
        ``time_limit=None`` unless they give one, as agents call it
        (:func:`~sweeplab.methods.untimed`): the verdict does not depend on
        the machine, and a method that cannot take ``None`` fails here.
    keep : int, default 5
        Counterexamples kept in the report.
    complete : bool, optional
        Also fail the report on a forced cell the method misses, or a
        position no layout fits that it answers without raising
        :class:`~sweeplab.InconsistentPositionError` (calls it refuses are
        not counted).  Default: the promise the method was
        registered with (``METHODS[name].complete``); ``False`` for a function
        passed directly.

    Returns
    -------
    SoundnessReport
        True when no claim was wrong, no consistent position was called
        inconsistent and, when held to completeness, no forced cell was missed.

    Examples
    --------
    A method that calls every covered cell safe is caught:

    >>> def reckless(obs, *, use_total=True):
    ...     return {tuple(c) for c in np.argwhere(obs.grid == COVERED)}, set()
    >>> report = check_sound(reckless, positions=random_positions(30, seed=2))
    >>> bool(report), report.wrong_claims > 0
    (False, True)

    A method registered as complete is held to it (``trivial`` is sound, not complete):

    >>> report = check_sound("trivial", positions=random_positions(30, seed=2), complete=True)
    >>> report.sound, bool(report), report.missed > 0
    (True, False, True)
    """
    if isinstance(method, str):
        registered_complete = method_info(method).complete  # an unknown name fails here, not later
    else:
        registered_complete = False
    complete = registered_complete if complete is None else check_flag("complete", complete)
    name = method if isinstance(method, str) else getattr(method, "__name__", repr(method))
    positions = random_positions(300, seed=0) if positions is None else positions
    if isinstance(use_total, (bool, np.bool_)):
        use_total = (bool(use_total),)
    if isinstance(use_total, (str, bytes)) or not isinstance(use_total, Iterable):
        raise ValueError(f"use_total takes booleans, (True, False) for both, got {use_total!r}")
    totals = tuple(check_flag("use_total", t) for t in use_total)  # "no" is not two Trues
    options = {**untimed(method), **(options or {})}
    stats = dict.fromkeys(("checked", "wrong", "false_inconsistent", "refused", "on_inconsistent",
                           "missed", "missed_inconsistent"), 0)
    found: list[Counterexample] = []
    missed: list[Counterexample] = []  # shown after every wrong answer kept: a wrong claim is worse
    for obs in positions:
        for total in totals:
            try:
                # answers on any machine, under the use_total the method runs under (a partial may fix it)
                truth = deduce(obs, ORACLE, use_total=method_use_total(method, total), time_limit=None)
            except InconsistentPositionError:
                truth = None
            try:
                # the method's own answer: deduce's check of consistency would raise for it
                got = deduce(obs, method, use_total=total, check_consistency=False, **options)
            except MethodRefused:
                stats["refused"] += 1
                continue
            except InconsistentPositionError:
                stats["checked"] += 1
                if truth is not None:
                    stats["false_inconsistent"] += 1
                    if len(found) < keep:
                        found.append(Counterexample(obs, total, frozenset(), frozenset(),
                                                    "called a consistent position inconsistent"))
                continue
            except ContradictoryClaimError as exc:  # cells claimed both ways where a layout fits
                safe, mines, note = exc.safe, exc.mines, f"claimed {sorted(exc.cells)} both safe and a mine"
            except InvalidClaimError as exc:  # a claim on a cell that is not covered: wrong on any position
                stats["checked"] += 1
                stats["wrong"] += 1
                if len(found) < keep:
                    found.append(Counterexample(obs, total, frozenset(), frozenset(), str(exc)))
                continue
            else:
                safe, mines, note = got.safe, got.mines, ""
            stats["checked"] += 1
            if truth is None:
                stats["on_inconsistent"] += len(safe) + len(mines)
                if not note:  # answered as if some layout fitted (a contradiction claimed says none does)
                    stats["missed_inconsistent"] += 1
                    if complete and len(missed) < keep:
                        missed.append(Counterexample(obs, total, frozenset(), frozenset(),
                                                     "did not find that no layout fits"))
                continue
            wrong_safe, wrong_mines = safe - truth.safe, mines - truth.mines
            missed_safe, missed_mines = truth.safe - safe, truth.mines - mines
            stats["wrong"] += len(wrong_safe) + len(wrong_mines)
            stats["missed"] += len(missed_safe) + len(missed_mines)
            if (wrong_safe or wrong_mines) and len(found) < keep:
                found.append(Counterexample(obs, total, wrong_safe, wrong_mines, note))
            elif complete and (missed_safe or missed_mines) and len(missed) < keep:
                missed.append(Counterexample(obs, total, frozenset(), frozenset(),
                                             f"missed forced cells: safe {sorted(missed_safe)}, "
                                             f"mines {sorted(missed_mines)}"))
    return SoundnessReport(name, stats["checked"], stats["wrong"], stats["false_inconsistent"],
                           stats["refused"], stats["on_inconsistent"], stats["missed"],
                           tuple([*found, *missed][:keep]), complete, stats["missed_inconsistent"])


def assert_sound(method: str | Callable[..., Any], **kwargs: Any) -> SoundnessReport:
    """:func:`check_sound`, raising ``AssertionError`` with the counterexamples when it fails.

    Examples
    --------
    >>> assert_sound("trivial", positions=random_positions(20, seed=3)).checked
    40
    """
    report = check_sound(method, **kwargs)
    if not report.ok:
        raise AssertionError(str(report))
    return report
