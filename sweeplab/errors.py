"""The exceptions of the public contract (SPEC §1, §4).

Every exception here is a :class:`ValueError` subclass, so ``except ValueError``
still catches them; code that must tell a refusal from a bug catches these
names, never a bare ``ValueError``.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

import numpy as np

__all__ = ["AgentBugError", "ComponentTooLargeError", "ContradictoryClaimError", "InconsistentPositionError",
           "InvalidClaimError", "MethodBugError", "MethodRefused", "check_flag", "close_names",
           "exact_clues_needed", "interrupted", "mines_text", "unknown_choice", "unmet_clue_text"]


def close_names(words: Iterable[str], choices: Iterable[str], *, cutoff: float = 0.8) -> list[str]:
    """The choices a misspelt word probably meant (for "did you mean ..." in a message), sorted.

    Examples
    --------
    >>> close_names(["frist_click", "games"], ["first_click", "games", "seed"])
    ['first_click']
    >>> close_names(["RREF"], ["rref", "trivial"])
    ['rref']
    """
    folded = {c.lower(): c for c in choices}  # RREF meant rref
    return sorted({folded[m] for w in words for m in difflib.get_close_matches(w.lower(), folded, n=1,
                                                                                cutoff=cutoff)
                   if folded[m] != w})


def unknown_choice(kind: str, name: object, choices: Iterable[str], *, in_list: bool = False) -> str:
    """The message for an unknown method or agent: a close name, the choices, and how to add one.

    ``in_list``: the name is an item of a list (a chain's ``methods``), where names run together with
    commas were meant as a list (the same in Python and JSON); elsewhere one name is wanted.

    Examples
    --------
    >>> print(unknown_choice("method", "rrefs", ["rref", "trivial"]))  # doctest: +NORMALIZE_WHITESPACE
    unknown method 'rrefs' (did you mean 'rref'?); choose from ['rref', 'trivial'], or register your own
    (sweeplab.register_method; on the command line, --plugin MODULE loads the module that registers it)
    >>> both = ["rref", "trivial"]
    >>> print(unknown_choice("method", "rref,trivial", both, in_list=True))  # doctest: +ELLIPSIS
    unknown method 'rref,trivial' (a list of names is written ["rref", "trivial"]); choose from ...
    >>> print(unknown_choice("method", "rref,trivial", ["rref", "trivial"]))  # doctest: +ELLIPSIS
    unknown method 'rref,trivial' (one name, not a list); choose from ...
    """
    choices = sorted(choices)
    text = f"unknown {kind} {name!r}"
    if isinstance(name, str):
        parts = [part.strip() for part in name.split(",")]
        close = close_names([name], choices, cutoff=0.6)
        if len(parts) > 1 and in_list:
            text += f" (a list of names is written [{', '.join(f'{chr(34)}{p}{chr(34)}' for p in parts)}])"
        elif len(parts) > 1:
            text += " (one name, not a list)"
        elif close:
            text += f" (did you mean {', '.join(map(repr, close))}?)"
    return (f"{text}; choose from {choices}, or register your own (sweeplab.register_{kind}; on the command "
            f"line, --plugin MODULE loads the module that registers it)")


def mines_text(n: int) -> str:
    """``"1 mine"``, ``"3 mines"``: a count of mines for a message.

    Examples
    --------
    >>> mines_text(1), mines_text(0), mines_text(-2)
    ('1 mine', '0 mines', '-2 mines')
    """
    return count_text(n, "mine")


def count_text(n: int, noun: str) -> str:
    """``"1 board"``, ``"3 boards"``: a count and its noun, for a message.

    Examples
    --------
    >>> count_text(1, "covered cell"), count_text(2, "experiment")
    ('1 covered cell', '2 experiments')
    """
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def unmet_clue_text(value: int, cell: tuple[int, int], need: int, covered: int, *,
                    kind: str = "covered") -> str:
    """Why the clue ``value`` at ``cell`` cannot be met: it needs ``need`` more mines among ``covered``
    neighbours (of that ``kind``: ``"undecided"`` where deduced cells no longer count).

    A negative ``need`` (more known mines around the clue than it shows) is said as such, never as a
    negative count.

    Examples
    --------
    >>> unmet_clue_text(1, (2, 1), -1, 0)
    'clue 1 at (2, 1) already has 2 mines around it, 1 more than it shows'
    >>> unmet_clue_text(3, (0, 0), 2, 1)
    'clue 3 at (0, 0) needs 2 mines more among its 1 covered neighbour'
    """
    where = f"clue {value} at ({cell[0]}, {cell[1]})"
    if need < 0:
        return f"{where} already has {mines_text(value - need)} around it, {-need} more than it shows"
    return f"{where} needs {mines_text(need)} more among its {count_text(covered, f'{kind} neighbour')}"


def check_flag(name: str, value: object) -> bool:
    """``value`` if it is ``True`` or ``False`` (a numpy bool too), else ``ValueError`` naming ``name``.

    A string such as ``"false"`` is truthy in Python: taken as a flag it would
    silently mean the opposite.

    Examples
    --------
    >>> check_flag("use_total", False)
    False
    >>> check_flag("use_total", "false")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: use_total must be True or False, got 'false' (the command line also reads true or false, ...)
    """
    if value is True or value is False:
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    raise ValueError(f"{name} must be True or False, got {value!r} (the command line also reads true or "
                     f"false, yes or no, on or off)")


class InconsistentPositionError(ValueError):
    """The clues (and total) of a position admit no mine layout."""


class MethodBugError(ValueError):
    """A method broke its promise where the truth is at hand: a bug in the method, not bad input.

    A method registered sound that claimed a wrong cell of a known layout, or said no layout fits a
    position one fits; a claim both ways, or on a cell that is not covered.  The command line exits 1
    on it (2 is bad input).
    """


class AgentBugError(ValueError):
    """An agent returned a move the game cannot play (off the board, not a ``Move``, a cell already open):
    a bug in the agent, not bad input.  The command line exits 1 on it (2 is bad input)."""


class ContradictoryClaimError(MethodBugError):
    """A method claimed cells both safe and a mine on a position some layout fits: a bug in the method.

    ``safe`` and ``mines`` hold its claims, ``cells`` those in both.
    """

    def __init__(self, message: str, safe: frozenset[tuple[int, int]], mines: frozenset[tuple[int, int]]
                 ) -> None:
        super().__init__(message)
        self.safe, self.mines, self.cells = safe, mines, safe & mines

    def __reduce__(self):  # pickled whole, notes too: raised in a worker, it reaches the caller as it is
        return type(self), (str(self), self.safe, self.mines), self.__dict__


class InvalidClaimError(MethodBugError):
    """A method claimed a cell that is not a covered cell of the position (revealed, flagged or off the
    board): a bug in the method.  ``cell`` is that cell."""

    def __init__(self, message: str, cell: tuple[int, int]) -> None:
        super().__init__(message)
        self.cell = cell

    def __reduce__(self):  # as ContradictoryClaimError's
        return type(self), (str(self), self.cell), self.__dict__


class MethodRefused(ValueError):
    """A method declines a position it cannot handle (too large, over its budget, needs exact clues).

    The message says why and what to do instead.

    Examples
    --------
    >>> from sweeplab import Observation, deduce
    >>> deduce(Observation.from_text("?" * 22 + "\\n" + "1" * 22), "brute")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sweeplab.errors.MethodRefused: brute force over 22 frontier cells needs 2^22 assignments; ...
    """


class ComponentTooLargeError(MethodRefused):
    """Exact enumeration gave up on a block of frontier cells past its node or state budget."""


def exact_clues_needed(method: str, noise: str) -> MethodRefused:
    """The refusal of a method that reads numbers as exact, on clues that are only bounds.

    Examples
    --------
    >>> print(exact_clues_needed("rref", "over"))  # doctest: +ELLIPSIS
    method 'rref' needs exact clues, but this position has noise 'over' (its numbers are only upper ...
    """
    bound = "lower" if noise == "under" else "upper"
    return MethodRefused(
        f"method {method!r} needs exact clues, but this position has noise {noise!r} "
        f"(its numbers are only {bound} bounds); use 'trivial', 'lp' or 'enumerate', "
        "which read them as inequalities"
    )


def interrupted(exc: BaseException, *, kind: type[BaseException] = KeyboardInterrupt) -> bool:
    """Whether ``exc`` is a Ctrl-C (or another interrupt of ``kind``), or wraps one: numba's compiled code
    returns a ``SystemError`` caused by the ``KeyboardInterrupt`` that arrived while it ran.

    Examples
    --------
    >>> try:
    ...     try:
    ...         raise KeyboardInterrupt
    ...     except KeyboardInterrupt as ctrl_c:
    ...         raise SystemError("returned a result with an exception set") from ctrl_c
    ... except SystemError as err:
    ...     interrupted(err)
    True
    >>> interrupted(ValueError("no"))
    False
    """
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, kind):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
    return False

