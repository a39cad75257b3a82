"""Proofs of deductions (SPEC §6): the objects, their JSON form and their explanation in words.

A :class:`Proof` says why one covered cell is safe (value 0) or a mine (value
1) as a list of steps over the rows of the clue system:

* :class:`Combine` -- add clue rows (and the ``"total"`` row) times integer
  multipliers, substitute the cells fixed so far, and read the result with the
  bound rule (optionally modulo a prime);
* :class:`Assume` -- proof by contradiction: with the cell set to a value the
  steps reach a contradiction, so the cell has the other value;
* :class:`Split` -- case analysis on a cell: both branches reach a
  contradiction.

:meth:`Proof.to_dict` gives exactly the JSON of SPEC §6 and
:meth:`Proof.from_dict` reads it back; :func:`sweeplab.check_proof` (in
:mod:`sweeplab.proof_check`) verifies it from the position alone.
:meth:`Proof.explain` tells the proof in plain words.

Examples
--------
>>> from sweeplab import Observation
>>> obs = Observation.from_text("???\\n121")
>>> proof = Proof((0, 1), 0, "rref", [Combine([((1, 0), 1), ((1, 1), -1), ((1, 2), 1)], fixes=[((0, 1), 0)])])
>>> proof.to_dict()["steps"][0]["rows"]
[[[1, 0], 1], [[1, 1], -1], [[1, 2], 1]]
>>> Proof.from_dict(proof.to_dict()) == proof
True
>>> proof.size
ProofSize(steps=1, rows=3)
"""

from __future__ import annotations

import contextlib
import functools
import json
import sys
import textwrap
import threading
import types
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Union

from .errors import mines_text

__all__ = ["Assume", "Combine", "Proof", "ProofSize", "Split", "Step"]

Cell = tuple[int, int]
Source = Union[Cell, str]  # noqa: UP007 -- a runtime alias

_COVERED, _FLAG, _MINE = -1, -2, -3


def _as_int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise ValueError(f"{what} must be an integer, got {value!r}")
    return int(value.__index__())


def _as_cell(value: Any, what: str = "cell") -> Cell:
    if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__len__") or len(value) != 2:
        raise ValueError(f"{what} must be (row, col), got {value!r}")
    return _as_int(value[0], what), _as_int(value[1], what)


def _as_value(value: Any, what: str = "value") -> int:
    v = _as_int(value, what)
    if v not in (0, 1):
        raise ValueError(f"{what} must be 0 or 1, got {v}")
    return v


def _as_source(value: Any) -> Source:
    return "total" if isinstance(value, str) and value == "total" else _as_cell(value, "source")


def _as_steps(steps: Iterable[Any]) -> tuple[Step, ...]:
    if isinstance(steps, (str, bytes, Mapping)):
        raise ValueError("steps must be a list of steps")
    out = []
    for step in steps:
        if isinstance(step, (Combine, Assume, Split)):
            out.append(step)
        elif isinstance(step, Mapping):
            out.append(_step_from_dict(step))
        else:
            raise ValueError(f"not a proof step: {step!r}")
    return tuple(out)


@dataclass(frozen=True)
class Combine:
    """A combining step: ``sum(multiplier * row)``, read with the bound rule.

    Parameters
    ----------
    rows : sequence of (source, int)
        ``source`` is a clue cell ``(row, col)`` or ``"total"``; multipliers are non-zero integers.
    modulus : int or None
        A prime ``p`` to read the combination modulo ``p`` (GF(p) reasoning), or ``None``.
    fixes : sequence of ((row, col), value)
        The cells this step fixes (empty for a contradiction).
    """

    rows: Sequence[tuple[Source, int]]
    modulus: int | None = None
    fixes: Sequence[tuple[Cell, int]] = ()

    def __post_init__(self):
        rows = tuple((_as_source(s), _as_int(m, "multiplier")) for s, m in self.rows)
        fixes = tuple((_as_cell(c), _as_value(v)) for c, v in self.fixes)
        modulus = None if self.modulus is None else _as_int(self.modulus, "modulus")
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "fixes", fixes)
        object.__setattr__(self, "modulus", modulus)

    def to_dict(self) -> dict:
        return {
            "rows": [[s if s == "total" else [s[0], s[1]], m] for s, m in self.rows],
            "modulus": self.modulus,
            "fixes": [[[c[0], c[1]], v] for c, v in self.fixes],
        }


@dataclass(frozen=True)
class Assume:
    """Proof by contradiction: with ``cell`` set to ``value``, ``steps`` end in a contradiction."""

    cell: Cell
    value: int
    steps: Sequence[Step]

    def __post_init__(self):
        object.__setattr__(self, "cell", _as_cell(self.cell))
        object.__setattr__(self, "value", _as_value(self.value))
        object.__setattr__(self, "steps", _as_steps(self.steps))

    def to_dict(self) -> dict:
        return {"assume": [[self.cell[0], self.cell[1]], self.value],
                "steps": [s.to_dict() for s in self.steps]}


@dataclass(frozen=True)
class Split:
    """Case analysis on ``cell``: both ``if_0`` and ``if_1`` end in a contradiction."""

    cell: Cell
    if_0: Sequence[Step]
    if_1: Sequence[Step]

    def __post_init__(self):
        object.__setattr__(self, "cell", _as_cell(self.cell))
        object.__setattr__(self, "if_0", _as_steps(self.if_0))
        object.__setattr__(self, "if_1", _as_steps(self.if_1))

    def to_dict(self) -> dict:
        return {
            "split": [self.cell[0], self.cell[1]],
            "if_0": [s.to_dict() for s in self.if_0],
            "if_1": [s.to_dict() for s in self.if_1],
        }


Step = Union[Combine, Assume, Split]  # noqa: UP007 -- a runtime alias


#: The keys of each kind of step (SPEC §6), for messages.
_STEP_NAMES = {"rows": "combining"}
_STEP_KEYS = {"rows": "a combining step has the keys rows, modulus and fixes",
              "assume": "an assume step has the keys assume ([[row, col], value]) and steps",
              "split": "a split step has the keys split ([row, col]), if_0 and if_1"}
_STEP_KEYSETS = {"rows": {"rows", "modulus", "fixes"}, "assume": {"assume", "steps"},
                 "split": {"split", "if_0", "if_1"}}
_PROOF_KEYS = {"cell", "value", "method", "steps"}


def _step_from_dict(d: Mapping) -> Step:
    if not isinstance(d, Mapping):
        raise ValueError(f"a proof step is a mapping (SPEC §6), got {type(d).__name__}")
    kind = next((k for k in _STEP_KEYS if k in d), None)
    if kind is None:
        raise ValueError(f"unknown proof step with keys {sorted(map(str, d))}; "
                         f"{'; '.join(_STEP_KEYS.values())}")
    extra = set(d) - _STEP_KEYSETS[kind]
    if extra:  # check_proof refuses them: the object must not pass where its dict fails
        raise ValueError(f"{_STEP_KEYS[kind]}, not {', '.join(sorted(map(str, extra)))}")
    try:
        if kind == "rows":
            for key in ("rows", "fixes"):  # as check_proof reads them: {} or "" is not an empty list
                if not isinstance(d[key], (list, tuple)):
                    raise ValueError(f"{key} must be a list, got {d[key]!r}")
            return Combine([(_as_source(s), m) for s, m in d["rows"]], d["modulus"],
                           [(_as_cell(c), v) for c, v in d["fixes"]])
        if kind == "assume":
            cell, value = d["assume"]
            return Assume(_as_cell(cell), value, d["steps"])
        return Split(_as_cell(d["split"]), d["if_0"], d["if_1"])
    except KeyError as err:
        raise ValueError(f"{_STEP_KEYS[kind]}: no key {err}") from None
    except TypeError as err:
        raise ValueError(f"a malformed {_STEP_NAMES.get(kind, kind)} step ({err}): {_STEP_KEYS[kind]}"
                         ) from None
    except ValueError as err:
        if "step" in str(err):  # a nested step's own message
            raise
        raise ValueError(f"a malformed {_STEP_NAMES.get(kind, kind)} step ({err}): {_STEP_KEYS[kind]}"
                         ) from None


class ProofSize(NamedTuple):
    """Size of a proof (SPEC §6): combining steps and distinct rows they use."""

    steps: int
    rows: int


#: Deepest nesting of assume and split steps a proof may have (the checker rejects deeper ones).
MAX_DEPTH = 200


def _too_deep(steps: Any) -> bool:
    """Whether ``steps`` (objects or their JSON form) nest assume and split steps past
    :data:`MAX_DEPTH`; walked without recursion, so that any depth is answered."""
    stack = [(steps, 0)]
    while stack:
        items, depth = stack.pop()
        if depth > MAX_DEPTH:
            return True
        if not isinstance(items, (list, tuple)):
            continue
        for step in items:
            if isinstance(step, Assume):
                stack.append((step.steps, depth + 1))
            elif isinstance(step, Split):
                stack += [(step.if_0, depth + 1), (step.if_1, depth + 1)]
            elif isinstance(step, Mapping):
                stack += [(step[k], depth + 1) for k in ("steps", "if_0", "if_1") if k in step]
    return False


_ROOM_LOCK = threading.Lock()
_ROOM: dict[str, int] = {"readers": 0, "limit": 0}  # readers inside _recursion_room, and the limit before


@contextlib.contextmanager
def _recursion_room(frames: int) -> Iterator[None]:
    """At least ``frames`` more frames of Python recursion than used now, for the ``with`` block.  The
    limit is the process's: the first reader raises it and the last one, in any thread, puts it back."""
    used = 0
    frame: types.FrameType | None = sys._getframe()
    while frame is not None:
        used, frame = used + 1, frame.f_back
    with _ROOM_LOCK:
        if not _ROOM["readers"]:
            _ROOM["limit"] = sys.getrecursionlimit()
        _ROOM["readers"] += 1
        sys.setrecursionlimit(max(sys.getrecursionlimit(), used + frames))
    try:
        yield
    finally:
        with _ROOM_LOCK:
            _ROOM["readers"] -= 1
            if not _ROOM["readers"]:
                sys.setrecursionlimit(_ROOM["limit"])


def _walk(steps: Iterable[Step]) -> Iterable[Step]:
    for s in steps:
        yield s
        if isinstance(s, Assume):
            yield from _walk(s.steps)
        elif isinstance(s, Split):
            yield from _walk(s.if_0)
            yield from _walk(s.if_1)


@dataclass(frozen=True)
class Proof:
    """Why ``cell`` has ``value`` (0 safe, 1 mine): SPEC §6's proof.

    Parameters
    ----------
    cell : (int, int)
    value : {0, 1}
    method : str
        The method whose claim this proves.
    steps : sequence of Combine, Assume, Split

    Examples
    --------
    Under three covered cells, clues 1, 2, 1: the first and last clue less the
    middle one fix the middle cell (one combining step, the row bound rule):

    >>> from sweeplab import Observation, check_proof, deduce
    >>> obs = Observation.from_text("???\\n121")
    >>> proof = deduce(obs, "rref", proofs=True).proofs[(0, 1)]
    >>> proof.value, proof.size
    (0, ProofSize(steps=1, rows=3))
    >>> proof.to_dict()["steps"]
    [{'rows': [[[1, 0], 1], [[1, 1], -1], [[1, 2], 1]], 'modulus': None, 'fixes': [[[0, 1], 0]]}]
    >>> check_proof(obs, proof.to_dict())
    True
    """

    cell: Cell
    value: int
    method: str
    steps: Sequence[Step]

    def __post_init__(self):
        object.__setattr__(self, "cell", _as_cell(self.cell))
        object.__setattr__(self, "value", _as_value(self.value))
        if not isinstance(self.method, str):
            raise ValueError(f"method must be a string, got {self.method!r}")
        if _too_deep(self.steps):  # before reading them: a JSON proof is read recursively
            raise ValueError(f"the proof is nested too deeply (more than {MAX_DEPTH} assume and split steps "
                             f"inside each other)")
        object.__setattr__(self, "steps", _as_steps(self.steps))

    # ---------------------------------------------------------------- JSON

    def to_dict(self) -> dict:
        """The JSON form of SPEC §6 (lists, sources ``[r, c]`` or ``"total"``)."""
        return {
            "cell": [self.cell[0], self.cell[1]],
            "value": self.value,
            "method": self.method,
            "steps": [s.to_dict() for s in self.steps],
        }

    @classmethod
    def from_dict(cls, d: Mapping) -> Proof:
        """Read the JSON form; ``ValueError`` if it is malformed (it is not checked: see ``check_proof``)."""
        if not isinstance(d, Mapping):
            raise ValueError(f"not a proof: a proof is a mapping with cell, value, method and steps "
                             f"(SPEC §6), got {type(d).__name__}")
        extra = set(d) - _PROOF_KEYS
        if extra:
            raise ValueError(f"not a proof: a proof has the keys cell, value, method and steps, not "
                             f"{', '.join(sorted(map(str, extra)))} (SPEC §6)")
        try:
            with _recursion_room(8 * MAX_DEPTH + 200):  # reading nests about five frames a level
                return cls(_as_cell(d["cell"]), d["value"], d["method"], d["steps"])
        except KeyError as err:
            raise ValueError(f"not a proof: it has no key {err} (a proof has cell, value, method and steps; "
                             f"see SPEC §6 or Proof.to_dict)") from err
        except TypeError as err:
            raise ValueError(f"not a proof: {err}") from err

    def to_json(self, **kwargs: Any) -> str:
        """``json.dumps(self.to_dict())``."""
        return json.dumps(self.to_dict(), **kwargs)

    # ---------------------------------------------------------------- measures

    @property
    def size(self) -> ProofSize:
        """Number of combining steps and of distinct rows they use (SPEC §6)."""
        combines = [s for s in _walk(self.steps) if isinstance(s, Combine)]
        return ProofSize(len(combines), len({src for s in combines for src, _ in s.rows}))

    @property
    def case_analysis(self) -> bool:
        """Whether the proof needs an ``assume`` or a ``split``."""
        return any(not isinstance(s, Combine) for s in _walk(self.steps))

    @property
    def sources(self) -> dict[Source, int]:
        """Each row used, with its multiplier summed over the combining steps."""
        out: dict[Source, int] = {}
        for s in _walk(self.steps):
            if isinstance(s, Combine):
                for src, m in s.rows:
                    out[src] = out.get(src, 0) + m
        return out

    @property
    def cells(self) -> set[Cell]:
        """The cells the proof fixes, assumes or splits on (with ``cell``)."""
        out = {self.cell}
        for s in _walk(self.steps):
            if isinstance(s, Combine):
                out.update(c for c, _ in s.fixes)
            else:
                out.add(s.cell)
        return out

    # ---------------------------------------------------------------- words

    def explain(self, obs: Any = None) -> str:
        """The proof in plain words.

        Parameters
        ----------
        obs : Observation, optional
            The position; with it each step also shows its clues' equations and
            the equation they combine to (after substituting known cells).

        Returns
        -------
        str

        Examples
        --------
        >>> from sweeplab import Observation
        >>> obs = Observation.from_text("???\\n121")
        >>> step = Combine([((1, 0), 1), ((1, 1), -1), ((1, 2), 1)], fixes=[((0, 1), 0)])
        >>> print(Proof((0, 1), 0, "rref", [step]).explain(obs))
        (0,1) is safe.
        (Cells are (row,column) from (0,0) at the top left;
         x(r,c) = 1 if (r,c) is a mine, else 0.)
        Step 1. Clue (1,0) - clue (1,1) + clue (1,2), where
            clue (1,0) = 1:  x(0,0) + x(0,1) = 1
            clue (1,1) = 2:  x(0,0) + x(0,1) + x(0,2) = 2
            clue (1,2) = 1:  x(0,1) + x(0,2) = 1
          gives  x(0,1) = 0.
          Each cell is 0 or 1, so the left side lies in [0, 1];
          the right side 0 is its lowest value,
          so every cell with a positive coefficient is 0:
          (0,1) is safe.
        So (0,1) is safe.
        """
        if obs is not None:
            from .positions import as_observation  # text or arrays too, as deduce takes them

            obs = as_observation(obs)
        return _Narrator(obs).proof(self)

    def __str__(self) -> str:
        return self.explain()


# --------------------------------------------------------------------------------------------
# the narration


#: How to read cells and variables, said once at the top of every proof told in words.
_READING = ("(Cells are (row,column) from (0,0) at the top left;", " x(r,c) = 1 if (r,c) is a mine, else 0.)")


@functools.lru_cache(maxsize=8)
def _explainer(obs: Any) -> Callable[[Any], str | None]:
    """The checker's reasons on ``obs``, the position read once for all its proofs (the explorer tells
    hundreds of proofs of one 100x100 position at each refresh)."""
    from .proof_check import explainer

    return explainer(obs)


def _name(cell: Cell) -> str:
    return f"({cell[0]},{cell[1]})"


def _status(v: int) -> str:
    return "a mine" if v else "safe"


def _cells_text(values: Sequence[tuple[Cell, int]], most: int = 6) -> str:
    """``"(0,3), (1,3) safe and (2,2) a mine"``: cells grouped by value, at most ``most`` named each."""
    parts = []
    for v in (0, 1):
        cells = [c for c, value in values if value == v]
        if cells:
            extra = f" and {len(cells) - most} more" if len(cells) > most else ""
            names = ", ".join(map(_name, cells[:most])) + extra
            parts.append(f"{names} {'safe' if not v else 'a mine' if len(cells) == 1 else 'mines'}")
    return " and ".join(parts)


def _source_name(src: Source) -> str:
    return "the total" if isinstance(src, str) else f"clue {_name(src)}"


def _combination(rows: Iterable[tuple[Source, int]]) -> str:
    parts = []
    for k, (src, m) in enumerate(rows):
        name = _source_name(src)
        a = abs(m)
        term = name if a == 1 else f"{a}*{name}"
        if k == 0:
            parts.append(("-" if m < 0 else "") + term)
        else:
            parts.append(("- " if m < 0 else "+ ") + term)
    text = " ".join(parts)
    return text[0].upper() + text[1:] if text else text


#: Width of the narration, a terminal's and the book's page: a step over many rows wraps (an
#: equation of 200 cells was one line of 3,800 characters), each continuation indented under its line.
WIDTH = 80


def _said(lines: list[str], text: str, equation: str, gap: str) -> None:
    """``text`` then ``equation`` on one line, or on two (the equation indented under the text) when one
    would be wider than :data:`WIDTH`: an equation is not broken after its ``=``."""
    if len(text) + len(gap) + len(equation) <= WIDTH:
        lines.append(f"{text}{gap}{equation}")
    else:
        lines += [text, " " * (len(text) - len(text.lstrip()) + 4) + equation]


def _wrapped(lines: list[str]) -> Iterable[str]:
    for line in lines:
        if len(line) <= WIDTH:
            yield line
            continue
        indent = " " * (len(line) - len(line.lstrip()) + 6)
        yield from textwrap.wrap(line, width=WIDTH, subsequent_indent=indent, break_long_words=False,
                                 break_on_hyphens=False)


class _Narrator:
    """Tells a proof step by step, evaluating the steps when the position is known."""

    def __init__(self, obs: Any):
        self.obs = obs
        self.grid = None if obs is None else obs.grid
        self.rows: dict[Any, tuple[dict[Cell, int], int, str]] = {}
        self.target: Cell | None = None  # the proved cell, set by proof()
        self.shown: set[Cell | None] = set()  # the proof's cell, the step's fixes, known cells: never summed

    # rows of the position (built here from the grid, as SPEC §6 defines them)
    def row(self, src: Source) -> tuple[dict[Cell, int], int, str] | None:
        if self.grid is None:
            return None
        if src in self.rows:
            return self.rows[src]
        grid = self.grid
        h, w = grid.shape
        if isinstance(src, str):
            if self.obs.mines is None:
                return None
            cells = {(r, c): 1 for r in range(h) for c in range(w) if grid[r, c] == _COVERED}
            if not cells:  # as the checker: a row is of covered cells
                return None
            known = sum(1 for r in range(h) for c in range(w) if grid[r, c] in (_FLAG, _MINE))
            rhs = self.obs.mines - known
            label = (f"the total (all covered cells; {mines_text(self.obs.mines)}"
                     + (f" - {known} known)" if known else ")"))
        else:
            r, c = src
            if not (0 <= r < h and 0 <= c < w) or not 0 <= grid[r, c] <= 8:
                return None
            cells, known_at = {}, []
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    rr, cc = r + dr, c + dc
                    if (dr or dc) and 0 <= rr < h and 0 <= cc < w:
                        if grid[rr, cc] == _COVERED:
                            cells[(rr, cc)] = 1
                        elif grid[rr, cc] in (_FLAG, _MINE):
                            known_at.append((rr, cc))
            if not cells:
                return None
            rhs = int(grid[r, c]) - len(known_at)
            label = f"clue {_name(src)} = {int(grid[r, c])}"
            if known_at:
                flagged = any(grid[cell] == _FLAG for cell in known_at)
                label += (f", less the known mine{'s' if len(known_at) > 1 else ''} at "
                          f"{', '.join(map(_name, known_at))}" + (" (a flag counts as a mine)" * flagged))
        self.rows[src] = (cells, rhs, label)
        return self.rows[src]

    def equation(self, g: dict[Cell, int], beta: int, *, others: set[Cell] | None = None,
                 relation: str = "=", away: bool = True) -> str:
        """``g . x = beta`` in words, cells in row-major order; the cells of ``others`` (those only
        the total row touches) are written as one sum when there are more than ten of them, all but
        the proof's cell and those the step fixes (a reader looks for them in the equation)."""
        terms = sorted((c, a) for c, a in g.items() if a)
        group: list[tuple[Cell, int]] = []
        if others is not None:
            group = [(c, a) for c, a in terms if c in others and c not in self.shown]
            if len(group) > 10 and len({a for _, a in group}) == 1:  # a few are written out
                grouped = {c for c, _ in group}
                terms = [(c, a) for c, a in terms if c not in grouped]
            else:
                group = []
        parts = []
        for c, a in terms:
            parts.append((a, f"x{_name(c)}"))
        if group:
            where = " away from these clues" if away else ""  # a step of the total alone: every cell
            other = " other" if any(c in (others or ()) for c, _ in terms) else ""  # beside those written out
            parts.append((group[0][1], f"(the {len(group)}{other} covered cells{where})"))
        out = []
        for k, (a, name) in enumerate(parts):
            mag = "" if abs(a) == 1 else f"{abs(a)}*"
            sign = ("-" if a < 0 else "") if k == 0 else ("- " if a < 0 else "+ ")
            out.append(f"{sign}{mag}{name}")
        left = " ".join(out) if out else "0"
        return f"{left} {relation} {beta}"

    # the proof
    def proof(self, proof: Proof) -> str:
        lines = [f"{_name(proof.cell)} is {_status(proof.value)}.", *_READING]
        self.target = proof.cell
        fixed: dict[Cell, int] = {}
        self.steps(proof.steps, fixed, lines, "", "")
        why = None
        if self.obs is None:
            lines.append("(Pass the position, proof.explain(obs), to see each clue's equation.)")
        else:
            why = _explainer(self.obs)(proof.to_dict())
        if why is None and self.obs is None and fixed.get(proof.cell) != proof.value:
            other = fixed.get(proof.cell)
            done = f"do not fix {_name(proof.cell)}" if other is None else \
                f"make {_name(proof.cell)} {_status(other)}"
            lines.append(f"These steps {done}: they do not show that it is {_status(proof.value)}.")
        elif why is None and self.obs is None:  # nothing checked: the steps as written
            lines.append(f"So, if each step holds on the position, {_name(proof.cell)} is "
                         f"{_status(proof.value)}.")
        elif why is None:
            lines.append(f"So {_name(proof.cell)} is {_status(proof.value)}.")
        else:  # told as written, but it proves nothing here: say so, and why
            lines.append(f"This is not a valid proof on this position ({why}):")
            lines.append(f"it does not show that {_name(proof.cell)} is {_status(proof.value)}.")
        return "\n".join(_wrapped(lines))

    def steps(self, steps: Sequence[Step], fixed: dict[Cell, int], lines: list[str], number: str,
              indent: str) -> bool:
        """Narrate ``steps``; whether they end in a contradiction."""
        closed = False
        for k, step in enumerate(steps):
            label = f"{number}{k + 1}"
            if isinstance(step, Combine):
                closed = self.combine(step, fixed, lines, label, indent)
            elif isinstance(step, Assume):
                v = step.value
                lines.append(f"{indent}Step {label}. Suppose {_name(step.cell)} were {_status(v)} "
                             f"(x{_name(step.cell)} = {v}).")
                inner = dict(fixed)
                inner[step.cell] = v
                if self.steps(step.steps, inner, lines, f"{label}.", indent + "    "):
                    lines.append(f"{indent}  That is impossible, so {_name(step.cell)} is {_status(1 - v)}.")
                    fixed[step.cell] = 1 - v
                else:
                    lines.append(f"{indent}  These steps reach no contradiction: they do not show that "
                                 f"{_name(step.cell)} is {_status(1 - v)}.")
                closed = False
            else:
                lines.append(f"{indent}Step {label}. Either {_name(step.cell)} is safe or it is a mine.")
                open_cases = []
                for v, branch in ((0, step.if_0), (1, step.if_1)):
                    name = _name(step.cell)
                    case = f"{label}{'ab'[v]}"  # "Case 1.2a", as its steps are numbered
                    lines.append(f"{indent}  Case {case}: if {name} is {_status(v)} (x{name} = {v}):")
                    inner = dict(fixed)
                    inner[step.cell] = v
                    if not self.steps(branch, inner, lines, f"{label}{'ab'[v]}.", indent + "    "):
                        open_cases.append(f"{label}{'ab'[v]}")
                closed = not open_cases
                verb = "reaches" if len(open_cases) == 1 else "reach"
                lines.append(f"{indent}  Both cases of step {label} are impossible: a contradiction."
                             if closed else
                             f"{indent}  Case {' and '.join(open_cases)} {verb} no contradiction: "
                             f"this split shows nothing.")
        return closed

    def combine(self, step: Combine, fixed: dict[Cell, int], lines: list[str], label: str,
                indent: str) -> bool:
        read = [(src, m, self.row(src)) for src, m in step.rows]
        self.shown = {self.target, *(c for c, _ in step.fixes), *fixed}  # substituted cells are named too
        fixes = ", ".join(f"{_name(c)} is {_status(v)}" for c, v in step.fixes)
        head = f"{indent}Step {label}. {_combination(step.rows) or 'No rows (0 = 0)'}"
        rows = [(src, m, r) for src, m, r in read if r is not None]
        if self.grid is not None and (len(rows) < len(read) or not rows):  # the checker rejects it
            missing = [src for src, _, r in read if r is None]
            what = (f"{', '.join('the total' if isinstance(src, str) else _name(src) for src in missing)} "
                    f"{'is not a row' if len(missing) == 1 else 'are not rows'} of this position (a "
                    f"revealed number with a covered neighbour, or the total when it is known)"
                    if missing else "a step needs at least one row")
            lines.append(f"{head}: {what}, so this step shows nothing.")
            return False
        if len(rows) < len(read) or not rows:
            # no position (or a source it does not have): the recipe only
            mod = f", read modulo {step.modulus}" if step.modulus else ""
            verdict = (f"fixes {', '.join(f'{_name(c)} to {v}' for c, v in step.fixes)}" if step.fixes
                       else "is a contradiction")
            lines.append(f"{head}{mod}: the bound rule {verdict}.")
            for c, v in step.fixes:
                fixed[c] = v
            return not step.fixes
        clue_cells: set[Cell] = set()
        for src, _, (cells, _, _) in rows:
            if src != "total":
                clue_cells.update(cells)
        others = {c for src, _, (cells, _, _) in rows if src == "total" for c in cells} - clue_cells
        away = bool(clue_cells)  # the total's other cells are "away from these clues" (or every cell)
        lines.append(head + (", where" if len(rows) > 1 or rows[0][1] != 1 else ":"))
        for _src, _, (cells, rhs, text) in rows:
            _said(lines, f"{indent}    {text}:", self.equation(cells, rhs, others=others, away=away), "  ")
        g: dict[Cell, int] = {}
        beta = 0
        for _, m, (cells, rhs, _) in rows:
            for c, a in cells.items():
                g[c] = g.get(c, 0) + m * a
            beta += m * rhs
        g = {c: a for c, a in g.items() if a}
        if len(rows) > 1 or rows[0][1] != 1:
            lines.append(f"{indent}  gives  {self.equation(g, beta, others=others, away=away)}.")
        known = {c: fixed[c] for c in g if c in fixed}
        if known:
            moved = sum(g.pop(c) * v for c, v in known.items())  # what those cells add to the left side
            before, beta = beta, beta - moved
            what = ", ".join(f"{_name(c)} {_status(v)}" for c, v in sorted(known.items()))
            known_or = "known or supposed" if indent else "known"  # inside a case, some values are supposed
            carried = (f"; the right side becomes {before} - {moved if moved > 0 else f'({moved})'} = {beta}"
                       if moved else "")
            _said(lines, f"{indent}  Substituting what is {known_or} ({what}{carried}) leaves",
                  f"{self.equation(g, beta, others=others, away=away)}.", "  ")
        p = step.modulus
        if p:
            def near(a: int) -> int:
                r = a % p
                return r - p if r > p // 2 else r

            g = {c: near(a) for c, a in g.items() if near(a)}
            reduced = self.equation(g, near(beta), others=others, relation='≡', away=away)
            lines.append(f"{indent}  Read modulo {p} (congruent coefficients give congruent sums),")
            changed = f" ({beta} ≡ {near(beta)})" if near(beta) != beta else ""
            lines.append(f"{indent}  each coefficient and the right side as its residue nearest 0{changed}:")
            lines.append(f"{indent}    {reduced} (mod {p}).")
        lo = sum(a for a in g.values() if a < 0)
        hi = sum(a for a in g.values() if a > 0)
        lies = f"{indent}  Each cell is 0 or 1, so the left side lies in [{lo}, {hi}]"
        if p:
            first = lo + (beta - lo) % p
            admissible = list(range(first, hi + 1, p))
            if not admissible:
                lines.append(f"{lies},")
                lines.append(f"{indent}  and no integer there is ≡ {near(beta)} (mod {p}): a contradiction.")
                return True
            if len(admissible) > 1 or admissible[0] not in (lo, hi):
                lines.append(f"{lies};")
                lines.append(f"{indent}  the values there ≡ {near(beta)} (mod {p}) are {admissible}: "
                             f"nothing is fixed" + (" (this step does not justify its fixes)." if step.fixes
                                                    else "."))
                return False
            end = admissible[0]
            lines.append(f"{lies};")
            lines.append(f"{indent}  the only value there ≡ {near(beta)} (mod {p}) is {end},")
        else:
            if not g and beta:
                lines.append(f"{indent}  No cell is left: 0 = {beta} is false, a contradiction.")
                return True
            if beta < lo or beta > hi:
                lines.append(f"{lies},")
                lines.append(f"{indent}  but it would have to be {beta}: a contradiction.")
                return True
            if beta not in (lo, hi):
                lines.append(f"{lies};")
                lines.append(f"{indent}  {beta} is inside: nothing is fixed"
                             + (" (this step does not justify its fixes)." if step.fixes else "."))
                return False
            end = beta
            lines.append(f"{lies};")
            side = "lowest" if end == lo else "highest"
            lines.append(f"{indent}  the right side {beta} is its {side} value,")
        has_pos = any(a > 0 for a in g.values())
        has_neg = any(a < 0 for a in g.values())
        if end == lo and lo != hi:
            rule = []
            if has_pos:
                rule.append("every cell with a positive coefficient is 0")
            if has_neg:
                rule.append("every cell with a negative coefficient is 1")
        else:
            rule = []
            if has_pos:
                rule.append("every cell with a positive coefficient is 1")
            if has_neg:
                rule.append("every cell with a negative coefficient is 0")
        low = end == lo and lo != hi  # the rule's values: positive coefficients 0 at the low end, else 1
        given = {c: int((a > 0) != low) for c, a in g.items()}
        unjustified = [(c, v) for c, v in step.fixes if given.get(c) != v]
        said = [f"so {rule[0]}", *(f"and {r}" for r in rule[1:])] if rule else ["so nothing is left to fix"]
        said[-1] += ":" if fixes and not unjustified else "."
        lines.extend(f"{indent}  {line}" for line in said)
        if unjustified:  # narrate what the rule gives, never the proof's wrong fix as its conclusion
            if given:
                lines.append(f"{indent}  That makes {_cells_text(sorted(given.items()))},")
            claimed = _cells_text(unjustified)
            lines.append(f"{indent}  not {claimed} as this step says: it does not justify that.")
            return False
        if fixes:
            lines.append(f"{indent}  {fixes}.")
        named = {c for c, _ in step.fixes}
        also = sorted((c, v) for c, v in given.items() if c not in named)
        if also and step.fixes:
            lines.append(f"{indent}  (The rule also makes {_cells_text(also)}; not needed here.)")
        for c, v in step.fixes:
            fixed[c] = v
        return False
