"""The agent interface: observations in, moves out (SPEC §5).

An agent never sees a :class:`~sweeplab.game.Game`: the simulator hands it an
:class:`~sweeplab.positions.Observation` (the grid of codes, the total and the
noise kind, nothing else) and a random generator, and plays the moves it
returns.  Agents keep no state between calls, so the same observation and
generator state always give the same moves.
"""

from __future__ import annotations

import dataclasses
import numbers
import re
import typing
from collections.abc import KeysView, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, ClassVar, NamedTuple

import numpy as np

from ..errors import InconsistentPositionError, MethodRefused, unknown_choice
from ..game import first_click_fits
from ..methods import METHODS, RESERVED_SOURCES, deduce, method_info, untimed
from ..positions import COVERED, Observation, cell_pair, neighbour_counts, short_repr

__all__ = ["Agent", "Move", "FirstMove", "first_cell", "first_move_label", "option_default", "random_covered",
           "frontier_mask"]

Cell = tuple[int, int]
FirstMove = str | tuple[int, int]
FIRST_MOVES = ("corner", "centre", "center", "random", "auto")
#: Clue-noise kinds whose numbers are bounds, not equalities (report 004 §4).
INEQUALITY_NOISE = ("under", "over")


class Move(NamedTuple):
    """One move: ``kind`` is ``"reveal"`` or ``"flag"``; ``source`` says why.

    ``source`` is ``"first"`` (the opening move), ``"guess"`` (not proved), or
    the name of the method that proved the cell (``"trivial"``, ``"enumerate"``...).
    """

    kind: str
    row: int
    col: int
    source: str

    @property
    def claimed(self) -> bool:
        """Whether a method proved the move (neither the opening nor a guess): a claim about the cell.

        Examples
        --------
        >>> Move("flag", 0, 1, "trivial").claimed, Move("reveal", 0, 0, "guess").claimed
        (True, False)
        """
        return self.source not in RESERVED_SOURCES


def first_cell(first_move: FirstMove, shape: tuple[int, int], rng: np.random.Generator) -> Cell:
    """The opening cell for a first-move option.

    ``"corner"`` is (0, 0), ``"centre"`` the middle cell, ``"random"`` a uniform
    cell, and a ``(row, col)`` pair that cell (report 000 §2.3).  ``"auto"``
    lets the agent choose from the game's rules (:meth:`Agent.for_rules`); it
    is the corner when the rules are not given.

    Examples
    --------
    >>> first_cell("centre", (16, 30), np.random.default_rng(0))
    (8, 15)
    >>> first_cell((2, 3), (9, 9), np.random.default_rng(0))
    (2, 3)
    """
    h, w = shape
    if isinstance(first_move, str):
        if first_move in ("corner", "auto"):
            return (0, 0)
        if first_move in ("centre", "center"):
            return (h // 2, w // 2)
        if first_move == "random":
            i = int(rng.integers(h * w))
            return (i // w, i % w)
        raise _unknown_first_move(first_move)
    checked = check_first_move(first_move)
    assert not isinstance(checked, str)  # every name returned above
    r, c = checked
    if not (0 <= r < h and 0 <= c < w):
        raise ValueError(f"first_move {first_move!r} is outside the {h}x{w} board")
    return (r, c)


def first_move_label(first_move: FirstMove, shape: tuple[int, int]) -> str:
    """The results tables' ``first_move`` column: one label for one opening cell.

    ``"random"``, or the cell a fixed first move opens: ``"corner"`` for (0, 0),
    ``"centre"`` for the middle cell (``"center"`` too), otherwise ``"row,col"``;
    so two spellings of one opening are one group of a summary.

    Examples
    --------
    >>> [first_move_label(m, (16, 30)) for m in [(0, 0), "center", (8, 15), (2, 2), "random"]]
    ['corner', 'centre', 'centre', '2,2', 'random']
    """
    if first_move == "random":
        return "random"
    rng = np.random.default_rng(0)  # a fixed move draws nothing
    cell = first_cell(first_move, shape, rng)
    names = {first_cell(name, shape, rng): name for name in ("corner", "centre")}
    return names.get(cell, f"{cell[0]},{cell[1]}")


def ordered_names(names: Any) -> tuple:
    """``names`` (one name, or names in order) as a tuple; ``TypeError`` for a set, whose order is the
    hash's (it changes between processes), a mapping (its values would be dropped) or a non-iterable."""
    if isinstance(names, str):
        return (names,)
    if isinstance(names, Mapping) or (isinstance(names, AbstractSet) and not isinstance(names, KeysView)):
        raise TypeError(f"{type(names).__name__} has no order of names")
    return tuple(names)


def _unknown_first_move(name: str) -> ValueError:
    """A first move that is no name of :data:`FIRST_MOVES`; ``"3,3"`` meant a pair.

    >>> print(_unknown_first_move("3,3"))  # doctest: +ELLIPSIS
    first_move must be one of (...) or a (row, col) pair, got '3,3' (a pair is written [3,3])
    """
    pair = re.fullmatch(r"\s*\(?\s*(\d+)\s*,\s*(\d+)\s*\)?\s*", name)
    hint = f" (a pair is written [{pair[1]},{pair[2]}])" if pair else ""  # no space: --agent "best x=[3,3]"
    return ValueError(f"first_move must be one of {FIRST_MOVES} or a (row, col) pair, got {name!r}{hint}")


def check_first_move(first_move: FirstMove) -> FirstMove:
    """Validate a first-move option (the board size is checked when the game starts)."""
    if isinstance(first_move, str):
        if first_move not in FIRST_MOVES:
            raise _unknown_first_move(first_move)
        return first_move
    cell = cell_pair(first_move)
    if cell is None or min(cell) < 0:
        floats = " (floats, as a DataFrame row holds them, are not cells: give int(row), int(col))"
        hint = floats if isinstance(first_move, tuple | list | np.ndarray) and len(first_move) == 2 and any(
            isinstance(v, float | np.floating) for v in first_move) else ""
        raise ValueError(f"first_move must be one of {FIRST_MOVES} or a (row, col) pair of non-negative "
                         f"integers, got {short_repr(first_move)}{hint}")
    return cell


def option_default(option: dataclasses.Field) -> Any:
    """An agent option's default (its factory's value), or ``dataclasses.MISSING`` when it has none."""
    return option.default if option.default_factory is dataclasses.MISSING else option.default_factory()


_PLAIN = {bool: "true or false", int: "a whole number", float: "a number", str: "a string"}


_PLAIN_FIELDS: dict[type, tuple[tuple[str, type, Any, bool], ...]] = {}


def _plain_fields(cls: type) -> tuple[tuple[str, type, Any, bool], ...]:
    """``(name, type, default, optional)`` of the options of an agent class declared ``bool``,
    ``int``, ``float`` or ``str``, or one of those or ``None`` (``optional``; cached per class)."""
    if cls not in _PLAIN_FIELDS:
        hints = typing.get_type_hints(cls)
        found = []
        for f in dataclasses.fields(cls):
            kind, args = hints[f.name], typing.get_args(hints[f.name])
            optional = len(args) == 2 and type(None) in args
            if optional:
                kind = args[0] if args[1] is type(None) else args[1]
            if kind in _PLAIN:
                found.append((f.name, kind, f.default, optional))
        _PLAIN_FIELDS[cls] = tuple(found)
    return _PLAIN_FIELDS[cls]


def _allowed(limit: tuple) -> str:
    """An option's limit in words: ``one of (...)`` for choices, ``at least 0``, ``from 0 to 1``."""
    if limit and all(isinstance(v, str) for v in limit):
        return f"one of {limit}"
    low, high = limit
    if low is None and high is None:
        return "that is finite"
    if high is None:
        return f"at least {low}"
    return f"at most {high}" if low is None else f"from {low} to {high}"


def check_option_types(agent: Agent) -> None:
    """Raise ``ValueError`` for an option of the wrong type or out of its range.

    Options declared ``bool``, ``int``, ``float`` or ``str`` (or one of those
    or ``None``, which then passes) are checked (an int is a float here; a
    bool is neither) unless they hold the class's own default (a plugin's
    ``limit: int = None`` still works); the others are
    checked by the agent itself.  A number must be finite and within the
    class's :attr:`~Agent.option_limits` (``(low, high)``, ``None`` unbounded);
    a string named there must be one of its choices.  The message names the
    value, what is allowed and the default.

    Examples
    --------
    >>> from sweeplab.agents.best import BestAgent
    >>> BestAgent(lookahead="ten")
    Traceback (most recent call last):
    ...
    ValueError: best: option lookahead must be a whole number at least 0, got 'ten' (default 5)
    >>> BestAgent(tolerance=-0.1)
    Traceback (most recent call last):
    ...
    ValueError: best: option tolerance must be a number at least 0, got -0.1 (default 0.03)
    >>> BestAgent(endgame_budget=1e6)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: best: option endgame_budget must be a whole number ...; write it as digits, 1000000
    """
    limits = type(agent).option_limits
    for name, kind, default, optional in _plain_fields(type(agent)):
        value = getattr(agent, name)
        if value is default or (optional and value is None):
            continue
        limit = limits.get(name)
        if kind is bool:
            ok = isinstance(value, (bool, np.bool_))
        elif kind is str:
            ok = isinstance(value, str) and (limit is None or value in limit)
        else:
            numbers = (int, np.integer) if kind is int else (int, float, np.integer, np.floating)
            ok = isinstance(value, numbers) and not isinstance(value, (bool, np.bool_))
            if ok and limit is not None:
                low, high = limit
                finite = not isinstance(value, (float, np.floating)) or bool(np.isfinite(value))
                ok = finite and (low is None or value >= low) and (high is None or value <= high)
        if not ok:
            if limit is None:
                allowed = _PLAIN[kind]
            elif kind is str:
                allowed = _allowed(limit)
            else:
                allowed = f"{_PLAIN[kind]} {_allowed(limit)}"
            low, high = limit if limit is not None and kind is not str else (None, None)
            whole = (isinstance(value, (float, np.floating)) and bool(np.isfinite(value))
                     and float(value).is_integer() and abs(float(value)) < 2**53)
            digits = (kind is int and whole and (low is None or float(value) >= low)
                      and (high is None or float(value) <= high))
            hint = f"; write it as digits, {int(value)}" if digits else ""
            raise ValueError(f"{agent.name}: option {name} must be {allowed}{' or None' * optional}, "
                             f"got {value!r} (default {default!r}){hint}")


def _as_declared(agent: Agent) -> None:
    """Checked options as their declared types: ``1`` as ``1.0`` for a ``float`` option (when exact:
    ``10**30`` stays), numpy scalars as Python's.  Two spellings of one setting then make equal agents,
    as sweeps and ``compare`` take agents with equal settings to play the same games.

    Examples
    --------
    >>> from sweeplab.agents.best import BestAgent
    >>> BestAgent(progress_bonus=0) == BestAgent(), BestAgent(lookahead=np.int64(3)).lookahead
    (True, 3)
    """
    for name, kind, _default, _optional in _plain_fields(type(agent)):
        value = getattr(agent, name)
        if kind is bool and isinstance(value, np.bool_):
            value = bool(value)
        elif kind is int and isinstance(value, np.integer):
            value = int(value)
        elif kind is float and isinstance(value, numbers.Real) and not isinstance(value, bool):
            try:
                value = float(value) if float(value) == value else value
            except OverflowError:  # an int past any float keeps its own, exact value
                continue
        else:
            continue
        object.__setattr__(agent, name, value)


def random_covered(grid: np.ndarray, rng: np.random.Generator, mask: np.ndarray | None = None) -> Cell | None:
    """A uniformly random covered, unflagged cell (within ``mask`` if given), or ``None``."""
    cand = grid == COVERED
    if mask is not None:
        cand &= mask
    idx = np.flatnonzero(cand)
    if idx.size == 0:
        return None
    i = int(idx[rng.integers(idx.size)])
    return divmod(i, grid.shape[1])  # type: ignore[return-value]


def frontier_mask(grid: np.ndarray) -> np.ndarray:
    """Covered cells touching at least one revealed clue (a number, not NOCLUE or a mine)."""
    return (neighbour_counts(grid >= 0) > 0) & (grid == COVERED)


def read_as_exact(obs: Observation) -> Observation:
    """The position with its noise kind dropped: numbers read as exact (a noise-unaware player).

    The total is dropped too when misread clues led to more flags than mines.
    """
    mines = obs.mines if obs.mines is None or obs.known_mines <= obs.mines else None
    return Observation(obs.grid, mines=mines)


def moves_from(safe, mines, source: str) -> list[Move]:
    """Reveal every safe cell, flag every mine, sorted so the order never depends on set order.

    The cells are ``(int, int)``, as :func:`~sweeplab.deduce` returns them; the
    moves are built without the named tuple's Python-level constructor (agents
    make tens of them per game).
    """
    out = [_new(Move, ("reveal", r, c, source)) for r, c in sorted(safe)]
    out += [_new(Move, ("flag", r, c, source)) for r, c in sorted(mines)]
    return out


_new = tuple.__new__


class _ClassName:
    """The ``name`` of an agent class whose body gives none: the class's own name, in every subclass too.

    So an unregistered subclass of a built-in played directly is not taken for it in the games'
    ``agent`` column (a ``class Mine(BestAgent)`` played as ``"best"`` would join ``best``'s games).
    """

    def __get__(self, agent: object, cls: type) -> str:
        return cls.__name__


_CLASS_NAME: Any = _ClassName()


@dataclass(frozen=True)
class Agent:
    """Base class: a first move, a chain of deduction methods, and a guess.

    Subclasses set ``methods`` (tried in order until one proves a cell) and
    override :meth:`guess`.  ``next_moves`` is the whole interface the
    simulator uses: it receives the :class:`~sweeplab.Observation` (what a
    player sees) and a random generator for the agent's own choices.

    Python cannot wall the game off from code in the same process: an agent
    could find the board among the interpreter's objects.  (Its generator's
    seed sequence does not name the game's root seed and index, from which
    the board could be rebuilt, :func:`~sweeplab.simulate.agent_generator`;
    yet a search over small seeds and indices can match the generator's
    state to them in a fraction of a second.)
    The agents here read only the
    observation (the tests play ``best`` and ``best-v1`` with the layout
    hidden); an agent of your own should too, or its wins mean nothing.

    Parameters
    ----------
    first_move : "corner", "centre" (or "center"), "random", "auto" or (row, col), default "random"
        The opening move on an untouched board; ``"auto"`` lets the agent
        choose from the game's rules (:meth:`for_rules`).
    use_total : bool
        Let the methods use the board's total number of mines.
    noise_aware : bool
        When clues are bounds (noise ``"under"``/``"over"``), replace the
        method chain by exact enumeration over the inequalities (report 004 §4).
    methods : tuple of str
        Deduction methods (keys of :data:`sweeplab.METHODS`), tried in order
        until one proves a cell.
    max_nodes : int, default 200_000
        Backtracking nodes per block for exact enumeration; past it the block
        is counted by dynamic programming instead (exact: the same moves).
        Only past that programme's caps (:class:`~sweeplab.MethodRefused`)
        does the agent move on to its next method or its guess.

    Examples
    --------
    An agent of single-clue rules, then subset rules, that guesses the first
    covered cell in reading order (the base class guesses at random;
    :func:`sweeplab.register_agent` makes it playable by name):

    >>> from dataclasses import dataclass
    >>> import numpy as np
    >>> from sweeplab import Observation
    >>> from sweeplab.agents import Agent
    >>> from sweeplab.positions import COVERED
    >>> @dataclass(frozen=True)
    ... class FirstCovered(Agent):
    ...     methods: tuple[str, ...] = ("trivial", "subset")
    ...     def guess(self, obs, rng):
    ...         r, c = np.argwhere(obs.grid == COVERED)[0]
    ...         return int(r), int(c)
    >>> agent, rng = FirstCovered(), np.random.default_rng(0)
    >>> agent.next_moves(Observation.from_text("1?\\n?1\\n11", mines=1), rng)  # proved by the 1s
    [Move(kind='reveal', row=0, col=1, source='trivial'), Move(kind='flag', row=1, col=0, source='trivial')]
    >>> agent.next_moves(Observation.from_text("1??\\n???", mines=2), rng)  # nothing proved: a guess
    [Move(kind='reveal', row=0, col=1, source='guess')]
    """

    first_move: FirstMove = "random"
    use_total: bool = False
    noise_aware: bool = True
    methods: tuple[str, ...] = ()
    # enumerate's own cap: past it the exact dynamic programme takes over, which on
    # loose noisy bounds is ~5x faster than searching ten times longer (same results).
    max_nodes: int = 200_000

    # the games' "agent" column: a subclass that gives none is named after its class (_ClassName), and a
    # registered one after its registration
    name: ClassVar[str] = "agent"
    #: Allowed values of options, checked on construction: ``(low, high)`` for a number (``None``:
    #: unbounded), a tuple of choices for a string.  A subclass extends its parent's.
    option_limits: ClassVar[Mapping[str, tuple]] = MappingProxyType({"max_nodes": (0, None)})
    #: A method refusing a position (past its budget) raises :class:`~sweeplab.MethodRefused` rather than
    #: passing to the next method or a guess (:class:`~sweeplab.noguess.ReachAgent`: no forced guess there).
    refusals_stop: ClassVar[bool] = False
    #: Options of the base class an agent never reads: :func:`~sweeplab.agents.make_agent` refuses them.
    unused_options: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "name" not in vars(cls):  # not its parent's name: a subclass of "best" is not "best"
            cls.name = _CLASS_NAME

    def __post_init__(self) -> None:
        check_option_types(self)
        _as_declared(self)
        object.__setattr__(self, "first_move", check_first_move(self.first_move))
        try:
            methods = ordered_names(self.methods)
        except TypeError:
            raise ValueError(f"methods must be method names in order, a tuple such as ('trivial', 'rref') "
                             f"(or () for guesses only; a set has no order), got {short_repr(self.methods)}"
                             ) from None
        seen: dict[str, str] = {}
        for m in methods:
            try:
                canonical = method_info(m).name
            except ValueError:  # an item of the list: "rref,trivial" was meant as two
                raise ValueError(unknown_choice("method", m, METHODS, in_list=True)) from None
            if canonical in seen:
                raise ValueError(f"methods {methods!r} name {canonical!r} twice ({seen[canonical]!r} and "
                                 f"{m!r}); name each method once: a second try proves nothing new")
            seen[canonical] = m
        object.__setattr__(self, "methods", methods)

    def for_rules(self, *, first_click: str, shape: tuple[int, int], mines: int | None = None) -> Agent:
        """The agent set up for a game's public rules (never its layout).

        Resolves ``first_move="auto"``: the corner, or under the "zero" rule
        the cell (2, 2), whose guaranteed zero opens a larger area (measured:
        intermediate 89.6% against 85.0% from the corner, 500 games each),
        unless the total leaves no room for its nine cells.  ``mines``, the
        total when the rules give it, lets an agent choose by the board's
        density (``best`` does).
        """
        if self.first_move != "auto":
            return self
        zero_at_22 = first_click == "zero" and min(shape) >= 5  # (2, 2) and its neighbours on the board
        room = zero_at_22 and (mines is None or first_click_fits("zero", shape, mines, (2, 2)))
        return replace(self, first_move=(2, 2) if room else "corner")

    # the interface -------------------------------------------------------
    def next_moves(self, obs: Observation, rng: np.random.Generator) -> list[Move]:
        """The moves to play now, given only what the player sees.

        Returns at least one move while a covered, unflagged cell remains.
        """
        grid = obs.grid
        if not np.count_nonzero(grid != COVERED):
            r, c = first_cell(self.first_move, obs.shape, rng)
            return [Move("reveal", r, c, "first")]
        moves = self.certain_moves(obs)
        if moves:
            return moves
        cell = self.guess(obs, rng)
        return [] if cell is None else [Move("reveal", cell[0], cell[1], "guess")]

    # building blocks ---------------------------------------------------------
    def chain(self, obs: Observation) -> tuple[str, ...]:
        """The deduction methods to run on this observation.

        Under "under"/"over" noise a noise-aware agent keeps the methods that
        read numbers as bounds (``METHODS[name].reads_bounds``) and puts exact
        enumeration (inequalities, report 004 §4) in place of the others.
        """
        if self.noise_aware and obs.noise in INEQUALITY_NOISE:
            out: list[str] = []
            for m in self.methods:
                m = m if method_info(m).reads_bounds else "enumerate"
                if m not in out:
                    out.append(m)
            return tuple(out)
        return self.methods

    def certain_moves(self, obs: Observation) -> list[Move]:
        """Moves proved (or claimed) by the first method of the chain that finds any.

        An agent that is not noise-aware reads noisy numbers as exact.
        """
        if not self.noise_aware and obs.noise is not None:
            obs = read_as_exact(obs)
        return self.moves_proved_by(obs, self.chain(obs))

    def moves_proved_by(self, obs: Observation, chain: tuple[str, ...]) -> list[Move]:
        """Moves proved by the first of the methods ``chain`` that finds any, on ``obs`` as given."""
        for name in chain:
            try:
                options = untimed(name)
                if name == "enumerate":
                    options["max_nodes"] = self.max_nodes
                # no consistency check: claims on a position made inconsistent by the agent's own
                # wrong flags are the referee's to count (as wrong claims), as before
                d = deduce(obs, name, use_total=self.use_total, check_consistency=False, **options)
            except InconsistentPositionError:
                # Only after wrong claims or misread noise: fall back to a guess.
                return []
            except MethodRefused:
                if self.refusals_stop:
                    raise
                continue  # e.g. enumeration over a huge block (noisy bounds): the next method, or a guess
            if d.safe or d.mines:
                return moves_from(d.safe, d.mines, name)
        return []

    def guess(self, obs: Observation, rng: np.random.Generator) -> Cell | None:
        """A uniformly random covered cell (report 000 §2.1-2.2)."""
        return random_covered(obs.grid, rng)
