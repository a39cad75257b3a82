"""The proof checker of SPEC §6, written from the SPEC alone.

It shares no code with the deduction methods, the prover or
:func:`sweeplab.clue_system`: it reads ``obs.grid`` and ``obs.mines`` itself,
builds each row from a clue's 8-neighbourhood, and runs the proof with exact
Python integers.  Anything malformed or unjustified makes it answer ``False``;
it never raises, except ``ValueError`` when ``obs`` is not a position.

The rules it applies (SPEC §6):

* variables are the covered (code ``-1``) cells; flags (``-2``) and revealed
  mines (``-3``) are known mines; ``-4`` (no number) and revealed clues give no
  variable;
* a source ``[r, c]`` is a revealed clue (``0..8``) with at least one covered
  neighbour; its row is ``sum(x_v, v covered neighbour) = clue - known mines
  around it``; the source ``"total"`` (only when ``obs.mines`` is known) is
  ``sum(x_v, every covered v) = mines - known mines``;
* a combining step sums its rows times their non-zero integer multipliers into
  ``g . x = beta``, substitutes every cell fixed so far, and with ``lo``/``hi``
  the sums of the negative/positive coefficients left: ``beta`` outside
  ``[lo, hi]`` is a contradiction, ``beta == lo`` fixes positive-coefficient
  cells to 0 and negative ones to 1, ``beta == hi`` the reverse;
* with a modulus ``p`` (a prime below ``2**256``) the coefficients and ``beta`` are first
  reduced to their residues nearest 0 (``(-p/2, p/2]``), and the integers of
  ``[lo, hi]`` congruent to ``beta`` take its place: none is a contradiction,
  a single one at ``lo`` or ``hi`` fixes cells as above;
* ``fixes`` may list only cells the rule fixes, with the value it gives them
  (a subset is allowed; a contradiction fixes nothing);
* ``assume`` runs its steps with the cell set, which must end in a
  contradiction, then fixes the cell the other way; ``split`` runs both
  branches, each ending in a contradiction, and is itself a contradiction;
* a contradiction must be the last step of an ``assume`` or a split branch;
  the top level may hold none, and must fix ``cell`` to ``value``.

Positions with clue noise ``"under"`` or ``"over"`` have no proofs (their
numbers are bounds): every proof of them is rejected, as is every proof of a
position whose ``noise`` is anything but ``None`` or ``"lost"``.
"""

from __future__ import annotations

import itertools
import numbers
from collections.abc import Callable, Iterator, Mapping
from typing import Any

__all__ = ["check_proof", "checker", "ProofError", "explain_failure", "explainer"]

_COVERED, _FLAG, _MINE = -1, -2, -3
_MAX_DEPTH = 200  # nesting of assume/split; deeper proofs are rejected
#: Steps run in all (each branch's counted): a Python proof object whose branches share one list
#: would otherwise take time doubling with each level of nesting, up to 2**200 steps.
_MAX_STEPS = 200_000
#: Moduli must be below this (the methods use primes below 2**63): Miller-Rabin on a modulus of
#: thousands of digits takes minutes, far beyond the time the length of a proof's text allows.
_MAX_MODULUS = 2**256


class ProofError(Exception):
    """Why a proof is rejected (internal to the checker; :func:`check_proof` turns it into ``False``)."""


def check_proof(obs: Any, proof: Any) -> bool:
    """Whether ``proof`` is a valid SPEC §6 proof on the position ``obs``.

    Parameters
    ----------
    obs : Observation, str or array
        Anything with a 2-D integer ``grid`` of cell codes and ``mines`` (an
        int or ``None``); ``noise`` is read when present.  Or the text form
        of SPEC §1, or rows of codes (a list of lists, a 2-D array): then the
        total is unknown and the clues are read as exact (pass the
        ``Observation`` of a position with clue noise).
    proof : Proof or dict
        A :class:`sweeplab.proofs.Proof` (anything with ``to_dict()``) or the
        JSON form of SPEC §6.

    Returns
    -------
    bool
        ``True`` only if every step is justified, every contradiction closes an
        ``assume`` or a split branch, and the top-level steps fix ``cell`` to ``value``.
        :func:`explain_failure` says why not: the first step that fails, in a sentence.

    Raises
    ------
    ValueError
        Only when ``obs`` is not a position (or text no position reads).

    See Also
    --------
    checker : the same check for many proofs of one position, which it reads once (each call here
        reads the position again: 44 ms a proof on a 300x300 board, against 0.04 ms).

    Notes
    -----
    The steps are checked as the tree the JSON form writes out, each step once
    per place it stands: the time grows with the length of that text (times
    the cells fixed so far).  A Python object whose branches share one list
    is checked once per reference, as its JSON text would be; past 200,000
    steps run (or 200 levels of nesting) the proof is rejected, so sharing
    cannot make the check run for ever.

    Where SPEC §6 leaves a choice, this checker reads it so: a combining step
    has at least one row (an empty one, ``0 = 0``, is rejected); a modulus is
    a prime, as GF(p) says (4 is rejected, though reasoning modulo 4 is
    sound); ``fixes`` may list some of the cells that the rule fixes, not
    necessarily all (the methods' proofs list those the argument needs); and an
    ``assume`` or a ``split`` names a cell not fixed yet where it stands
    (assuming the value of a fixed cell, either way, adds nothing a valid proof
    needs: such a step is rejected).

    A position that no layout fits (a flag on a safe cell can make one) has
    valid proofs of both values of a cell: an ``assume`` reaches a
    contradiction whatever it assumes.  What a proof shows is "in every
    layout that fits, ``cell`` is ``value``"; whether one fits is a separate
    question (:func:`sweeplab.probabilities` raises
    :class:`~sweeplab.InconsistentPositionError` when none does).

    Examples
    --------
    The 1-2-1 pattern: clue (1,0) minus clue (1,1) plus clue (1,2) gives
    ``x(0,1) = 0``, so (0,1) is safe:

    >>> from sweeplab import Observation
    >>> obs = Observation.from_text("???\\n121")
    >>> step = {"rows": [[[1, 0], 1], [[1, 1], -1], [[1, 2], 1]], "modulus": None, "fixes": [[[0, 1], 0]]}
    >>> check_proof(obs, {"cell": [0, 1], "value": 0, "method": "rref", "steps": [step]})
    True
    >>> check_proof(obs, {"cell": [0, 1], "value": 1, "method": "rref", "steps": [step]})
    False
    """
    return checker(obs)(proof)


def checker(obs: Any) -> Callable[[Any], bool]:
    """:func:`check_proof` for many proofs of one position: the position is read once.

    Examples
    --------
    >>> from sweeplab import Observation
    >>> check = checker(Observation.from_text("?1"))
    >>> step = {"rows": [[[0, 1], 1]], "modulus": None, "fixes": [[[0, 0], 1]]}
    >>> check({"cell": [0, 0], "value": 1, "method": "x", "steps": [step]})
    True
    """
    board = _Board(obs)

    def check(proof: Any) -> bool:
        try:
            return explain_failure(obs, proof, _board=board) is None
        except Exception:  # noqa: BLE001 -- a checker answers False to anything it cannot follow
            return False

    return check


def explainer(obs: Any) -> Callable[[Any], str | None]:
    """:func:`explain_failure` for many proofs of one position: the position is read once.

    Examples
    --------
    >>> from sweeplab import Observation
    >>> why = explainer(Observation.from_text("?1"))
    >>> why({"cell": [0, 0], "value": 0, "method": "x",
    ...      "steps": [{"rows": [[[0, 1], 1]], "modulus": None, "fixes": [[[0, 0], 0]]}]})
    'step 1: the rule does not fix (0, 0) to 0'
    """
    board = _Board(obs)
    return lambda proof: explain_failure(obs, proof, _board=board)


def explain_failure(obs: Any, proof: Any, *, _board: _Board | None = None) -> str | None:
    """``None`` when the proof checks, otherwise the first reason it does not (a sentence).

    Examples
    --------
    >>> from sweeplab import Observation
    >>> obs = Observation.from_text("?1")
    >>> explain_failure(obs, {"cell": [0, 0], "value": 1, "method": "x",
    ...                       "steps": [{"rows": [[[0, 1], 2]], "modulus": None, "fixes": [[[0, 0], 1]]}]})
    >>> explain_failure(obs, {"cell": [0, 0], "value": 0, "method": "x",
    ...                       "steps": [{"rows": [[[0, 1], 1]], "modulus": None, "fixes": [[[0, 0], 0]]}]})
    'step 1: the rule does not fix (0, 0) to 0'
    """
    board = _board if _board is not None else _Board(obs)
    try:
        _check(board, proof)
    except ProofError as err:
        return str(err)
    except RecursionError:
        return "the proof is nested too deeply"
    except Exception as err:  # noqa: BLE001 -- anything else it cannot follow is malformed (a set, an array)
        return f"the proof is malformed ({type(err).__name__}: {err})"
    return None


# --------------------------------------------------------------------------------------------
# the position


#: SPEC §1's text form: ``?``/``#`` covered, ``F`` flag, ``*`` revealed mine, ``-`` no number, ``.`` a 0.
_TEXT_CODES = {"?": _COVERED, "#": _COVERED, "F": _FLAG, "*": _MINE, "-": -4, ".": 0,
               **{str(k): k for k in range(9)}}


def _read_text(text: str) -> list[list[int]]:
    """SPEC §1's text form as rows of codes (whitespace and blank lines ignored)."""
    # rows end at \n, \r\n or \r only, as Observation.from_text reads them (\f, \v, \x1c are whitespace)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    rows = ["".join(line.split()) for line in lines]
    rows = [row for row in rows if row]
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch not in _TEXT_CODES:
                raise ValueError(f"check_proof: unknown character {ch!r} at row {r}, column {c} of the "
                                 f"position's text; choose from {''.join(_TEXT_CODES)}")
    return [[_TEXT_CODES[ch] for ch in row] for row in rows]


class _Board:
    """Grid codes, covered cells and the rows of the position, read straight from ``obs``."""

    def __init__(self, obs: Any):
        if isinstance(obs, str):
            grid, mines, noise = _read_text(obs), None, None
        elif hasattr(obs, "grid"):
            grid, mines, noise = obs.grid, getattr(obs, "mines", None), getattr(obs, "noise", None)
        elif hasattr(obs, "to_numpy"):  # a pandas DataFrame: its rows, not its column labels
            grid, mines, noise = obs.to_numpy(), None, None
        elif hasattr(obs, "__iter__") and not isinstance(obs, (bytes, dict, set)):
            grid, mines, noise = obs, None, None  # rows of codes (a list of lists, a 2-D array)
        else:
            raise ValueError(f"check_proof needs an Observation (grid and mines), its text or its codes, "
                             f"got {type(obs).__name__}; for a game pass game.observation")
        try:
            table = [list(row) for row in grid]
            self.codes = [[int(v) for v in row] for row in table]
            whole = all(v == int(v) for row in table for v in row)
        except Exception as err:  # noqa: BLE001
            raise ValueError(f"check_proof needs a 2-D integer grid of cell codes, got {type(grid).__name__} "
                             f"{str(grid)[:80]!r}") from err
        if not whole:  # 1.7 is no clue (int() would read it as 1)
            raise ValueError("check_proof needs an integer grid of cell codes, got fractions")
        self.h = len(self.codes)
        self.w = len(self.codes[0]) if self.codes else 0
        if not self.w or any(len(row) != self.w for row in self.codes):
            raise ValueError(f"check_proof needs a non-empty rectangular grid, got rows of lengths "
                             f"{[len(row) for row in self.codes]}")
        bad = next(((r, c) for r in range(self.h) for c in range(self.w) if not -4 <= self.codes[r][c] <= 8),
                   None)
        if bad is not None:
            r, c = bad
            raise ValueError(f"check_proof: code {self.codes[r][c]} at row {r}, column {c} is no cell code "
                             f"(-4..8, SPEC §1)")
        if mines is not None:
            try:  # inf, a list, a complex number: not a total (int() would raise something else)
                whole_mines = not isinstance(mines, bool) and int(mines) == mines
            except (TypeError, ValueError, OverflowError, ArithmeticError):
                whole_mines = False
            if not whole_mines:
                raise ValueError(f"obs.mines must be an int or None, got {mines!r}")
            known = sum(code in (_FLAG, _MINE) for row in self.codes for code in row)
            if not known <= int(mines) <= self.h * self.w:  # SPEC §1: as Observation refuses it
                raise ValueError(f"obs.mines={int(mines)} is not between the {known} known mines and "
                                 f"the {self.h * self.w} cells of the board")
        self.mines = None if mines is None else int(mines)
        self.noise = noise
        self._rows: dict[Any, tuple[dict[tuple[int, int], int], int]] = {}

    def covered(self, cell: tuple[int, int]) -> bool:
        r, c = cell
        return 0 <= r < self.h and 0 <= c < self.w and self.codes[r][c] == _COVERED

    def row(self, source: Any) -> tuple[dict[tuple[int, int], int], int]:
        """``(coefficients, right side)`` of a source, or ``ProofError``."""
        if isinstance(source, str) and source == "total":  # a cell may be an array: no == on it
            key: Any = "total"
        else:
            key = _cell(source, "source")
        if key in self._rows:
            return self._rows[key]
        if key == "total":
            if self.mines is None:
                raise ProofError("the source 'total' needs the position's total number of mines")
            coef = {}
            known = 0
            for r in range(self.h):
                for c in range(self.w):
                    code = self.codes[r][c]
                    if code == _COVERED:
                        coef[(r, c)] = 1
                    elif code in (_FLAG, _MINE):
                        known += 1
            if not coef:
                raise ProofError("the source 'total' has no covered cell")
            row = (coef, self.mines - known)
        else:
            r, c = key
            if not (0 <= r < self.h and 0 <= c < self.w):
                raise ProofError(f"source {key} is outside the {self.h}x{self.w} board")
            clue = self.codes[r][c]
            if not 0 <= clue <= 8:
                raise ProofError(f"source {key} is not a revealed clue (code {clue})")
            coef, known = {}, 0
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    rr, cc = r + dr, c + dc
                    if (dr or dc) and 0 <= rr < self.h and 0 <= cc < self.w:
                        code = self.codes[rr][cc]
                        if code == _COVERED:
                            coef[(rr, cc)] = 1
                        elif code in (_FLAG, _MINE):
                            known += 1
            if not coef:
                raise ProofError(f"clue {key} touches no covered cell")
            row = (coef, clue - known)
        self._rows[key] = row
        return row


# --------------------------------------------------------------------------------------------
# reading the JSON form


def _int(value: Any, what: str) -> int:
    # any integer type (numpy's too, as Proof accepts them), but not a bool
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ProofError(f"{what} must be an integer, got {value!r}")
    return int(value)


def _cell(value: Any, what: str) -> tuple[int, int]:
    if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__len__") or len(value) != 2:
        raise ProofError(f"{what} must be [row, col], got {value!r}")
    return _int(value[0], what), _int(value[1], what)


def _value(value: Any, what: str) -> int:
    v = _int(value, what)
    if v not in (0, 1):
        raise ProofError(f"{what} must be 0 or 1, got {v}")
    return v


def _steps(value: Any, what: str) -> list:
    if not isinstance(value, (list, tuple)):
        raise ProofError(f"{what} must be a list of steps")
    return list(value)


def _check(board: _Board, proof: Any) -> None:
    noise = board.noise
    if noise is not None and not (isinstance(noise, str) and noise == "lost"):  # fail closed
        if isinstance(noise, str) and noise in ("under", "over"):
            raise ProofError(f"clue noise {noise!r}: the numbers are bounds, proofs are not defined")
        raise ProofError(f"clue noise {noise!r} is none of None, 'lost', 'under', 'over': proofs are "
                         f"defined only for exact clues (None or 'lost')")
    if not isinstance(proof, Mapping) and hasattr(proof, "to_dict"):
        proof = proof.to_dict()
    if not isinstance(proof, Mapping):
        raise ProofError("a proof is a mapping with cell, value, method and steps")
    if set(proof) != {"cell", "value", "method", "steps"}:
        keys = sorted(map(str, proof))
        raise ProofError(f"a proof has exactly the keys cell, value, method, steps; got {keys}")
    cell = _cell(proof["cell"], "cell")
    value = _value(proof["value"], "value")
    if not isinstance(proof["method"], str):
        raise ProofError("method must be a string")
    if not board.covered(cell):
        raise ProofError(f"cell {cell} is not a covered cell")
    fixed: dict[tuple[int, int], int] = {}
    contradiction = _run(board, _steps(proof["steps"], "steps"), fixed, "step ", 0, itertools.count())
    if contradiction:
        raise ProofError("the top-level steps end in a contradiction (it closes no assume or split)")
    if fixed.get(cell) != value:
        raise ProofError(f"the steps do not fix {cell} to {value}")


def _run(board: _Board, steps: list, fixed: dict, where: str, depth: int, run: Iterator[int]) -> bool:
    """Run ``steps`` on ``fixed`` (updated in place); whether they end in a contradiction.

    ``run`` counts the steps run so far in the whole proof."""
    if depth > _MAX_DEPTH:
        raise ProofError("the proof is nested too deeply")
    for k, step in enumerate(steps):
        if next(run) >= _MAX_STEPS:
            raise ProofError(f"the proof runs more than {_MAX_STEPS:,} steps (each branch's counted)")
        label = f"{where}{k + 1}"
        last = k == len(steps) - 1
        if not isinstance(step, Mapping):
            raise ProofError(f"{label}: a step is a mapping")
        keys = set(step)
        if "rows" in keys:
            if keys != {"rows", "modulus", "fixes"}:  # SPEC §6: modulus is null or a prime, never left out
                raise ProofError(f"{label}: a combining step has the keys rows, modulus (null or a prime) "
                                 f"and fixes, got {', '.join(sorted(map(str, keys)))}")
            closed = _combine(board, step, fixed, label)
        elif "assume" in keys:
            if keys != {"assume", "steps"}:
                raise ProofError(f"{label}: an assume step has the keys assume, steps")
            a = step["assume"]
            if isinstance(a, (str, bytes, Mapping)) or not hasattr(a, "__len__") or len(a) != 2:
                raise ProofError(f"{label}: assume is [[row, col], value]")
            cell, v = _cell(a[0], f"{label}: assumed cell"), _value(a[1], f"{label}: assumed value")
            _free(board, cell, fixed, label)
            inner = dict(fixed)
            inner[cell] = v
            if not _run(board, _steps(step["steps"], f"{label}: steps"), inner, f"{label}.", depth + 1, run):
                raise ProofError(f"{label}: the steps assuming {cell} = {v} reach no contradiction")
            fixed[cell] = 1 - v
            closed = False
        elif "split" in keys:
            if keys != {"split", "if_0", "if_1"}:
                raise ProofError(f"{label}: a split step has the keys split, if_0, if_1")
            cell = _cell(step["split"], f"{label}: split cell")
            _free(board, cell, fixed, label)
            for v in (0, 1):
                inner = dict(fixed)
                inner[cell] = v
                branch = _steps(step[f"if_{v}"], f"{label}: if_{v}")
                if not _run(board, branch, inner, f"{label}.if_{v}.", depth + 1, run):
                    raise ProofError(f"{label}: the branch {cell} = {v} reaches no contradiction")
            closed = True
        else:
            raise ProofError(f"{label}: unknown step (keys {sorted(map(str, keys))})")
        if closed and not last:
            raise ProofError(f"{label}: a contradiction must be the last step of its branch")
        if closed:
            return True
    return False


def _free(board: _Board, cell: tuple[int, int], fixed: dict, label: str) -> None:
    if not board.covered(cell):
        raise ProofError(f"{label}: {cell} is not a covered cell")
    if cell in fixed:
        raise ProofError(f"{label}: {cell} is already fixed (to {fixed[cell]}); an assume or a split names a "
                         f"cell not fixed yet (this checker's reading of SPEC §6)")


def _combine(board: _Board, step: Mapping, fixed: dict, label: str) -> bool:
    """Apply one combining step; whether it is a contradiction."""
    rows = step["rows"]
    if not isinstance(rows, (list, tuple)) or not rows:
        raise ProofError(f"{label}: rows must be a non-empty list of [source, multiplier]")
    g: dict[tuple[int, int], int] = {}
    beta = 0
    for item in rows:
        if isinstance(item, (str, bytes, Mapping)) or not hasattr(item, "__len__") or len(item) != 2:
            raise ProofError(f"{label}: each row is [source, multiplier], got {item!r}")
        source, mult = item
        mult = _int(mult, f"{label}: multiplier")
        if mult == 0:
            raise ProofError(f"{label}: a multiplier is zero")
        coef, rhs = board.row(source)
        for cell, a in coef.items():
            g[cell] = g.get(cell, 0) + mult * a
        beta += mult * rhs
    for cell, v in fixed.items():
        a = g.pop(cell, 0)
        beta -= a * v
    modulus = step.get("modulus")
    if modulus is not None:
        p = _int(modulus, f"{label}: modulus")
        if p >= _MAX_MODULUS:  # the primality test would cost far more than the proof's text
            raise ProofError(f"{label}: modulus {p if p < 10**30 else 'of ' + str(p.bit_length()) + ' bits'} "
                             f"is not below 2**256")
        if not _is_prime(p):
            raise ProofError(f"{label}: modulus {p} is not a prime")
        g = {cell: _nearest(a, p) for cell, a in g.items()}
    g = {cell: a for cell, a in g.items() if a != 0}
    lo = sum(a for a in g.values() if a < 0)
    hi = sum(a for a in g.values() if a > 0)
    end: int | None
    if modulus is None:
        contradiction = beta < lo or beta > hi
        end = beta
    else:
        first = lo + (beta - lo) % p  # the smallest integer >= lo congruent to beta
        contradiction = first > hi
        end = first if first + p > hi else None  # the single admissible total, if there is one
    fixes = step["fixes"]
    if not isinstance(fixes, (list, tuple)):
        raise ProofError(f"{label}: fixes must be a list of [[row, col], value]")
    if contradiction:
        if fixes:
            raise ProofError(f"{label}: a contradiction fixes no cell")
        return True
    rule: dict[tuple[int, int], int] = {}
    if end is not None and end in (lo, hi):
        for cell, a in g.items():
            # at lo: positive -> 0, negative -> 1; at hi: positive -> 1, negative -> 0
            # (lo == hi only when no cell is left, so the two cases never disagree)
            rule[cell] = int((a > 0) == (end == hi))
    new: dict[tuple[int, int], int] = {}
    for item in fixes:
        if isinstance(item, (str, bytes, Mapping)) or not hasattr(item, "__len__") or len(item) != 2:
            raise ProofError(f"{label}: each fix is [[row, col], value], got {item!r}")
        cell, v = _cell(item[0], f"{label}: fixed cell"), _value(item[1], f"{label}: fixed value")
        if rule.get(cell) != v or new.get(cell, v) != v:
            raise ProofError(f"{label}: the rule does not fix {cell} to {v}")
        new[cell] = v
    fixed.update(new)
    return False


def _nearest(a: int, p: int) -> int:
    """The residue of ``a`` modulo ``p`` nearest 0, in ``(-p/2, p/2]``."""
    r = a % p
    return r - p if r > p // 2 else r


def _is_prime(n: int) -> bool:
    """Miller-Rabin with the first 20 primes as bases: deterministic below 3.3e24 (every prime the methods
    use); above, a composite that passed would still give sound steps (reasoning modulo any integer is)."""
    if n < 2:
        return False
    small = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71)
    for q in small:
        if n % q == 0:
            return n == q
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for a in small:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True
