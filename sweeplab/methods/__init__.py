"""The open registry of deduction methods: :func:`sweeplab.deduce`, :data:`sweeplab.METHODS` (SPEC §4).

A method is a function ``function(obs, *, use_total=True, **options) -> (safe,
mines)``, two sets of ``(row, col)``, that reads the position's clue system
(:func:`sweeplab.clue_system`).  The built-in methods live one per module of
this package and are imported on first use, so ``import sweeplab`` stays cheap
(``galois`` alone takes seconds to import).  :func:`register_method` adds a
method of your own; it then works wherever a built-in does: :func:`deduce`,
agents built from method chains, ``sweeplab solve``/``bench``/``play``/``sweep``
(with ``--plugin MODULE``) and the explorer.

Every call of a method goes through :func:`deduce`, which checks the options
against the function's signature, times the call, and adds the seconds to
every open :func:`method_seconds` clock (agents' games report them).
"""

from __future__ import annotations

import functools
import importlib
import inspect
import numbers
import os
import re
import sys
import time
import warnings
from collections.abc import Callable, Iterable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType, MemberDescriptorType
from typing import TYPE_CHECKING, Any

import numpy as np

from .._command_line import running_command
from ..errors import (
    ContradictoryClaimError,
    InconsistentPositionError,
    InvalidClaimError,
    MethodBugError,
    MethodRefused,
    check_flag,
    exact_clues_needed,
    interrupted,
    unknown_choice,
)
from ..positions import COVERED, Observation, as_observation, cell_pair
from ._common import _option
from ._consistency import has_layout

if TYPE_CHECKING:
    from ..proofs import Proof

__all__ = [
    "Deduction",
    "MethodInfo",
    "METHODS",
    "deduce",
    "load_plugins",
    "load_env_plugins",
    "plugin_names",
    "method_info",
    "method_seconds",
    "method_use_total",
    "no_layout_claims",
    "check_name",
    "check_not_taken",
    "register_method",
    "unregister_method",
    "untimed",
]

Cell = tuple[int, int]
MethodFunction = Callable[..., Any]
#: Environment variable naming the plugin modules, so worker processes import them too.
PLUGINS_ENV = "SWEEPLAB_PLUGINS"


@dataclass(frozen=True)
class Deduction:
    """Cells a method proved (or, for unsound methods, claimed) safe or mined.

    Attributes
    ----------
    safe, mines : frozenset of (int, int)
    method : str
        The method's name (the function's name for an unregistered callable).
    seconds : float
        Wall time of the call.
    probabilities : numpy.ndarray or None
        Exact mine probabilities, from methods that give them when asked
        (``deduce(obs, "enumerate", probabilities=True)``).
    consistent : bool or None
        ``True`` when some layout is known to fit the position (the built-in
        complete methods prove it; for the others, a researcher's complete
        method too, :func:`deduce` checks it with exact enumeration whenever
        cells are claimed); ``None`` when it was not
        checked (nothing claimed, ``check_consistency=False``, or a position
        too large to enumerate quickly whose LP relaxation has a point).  No layout fitting is never a
        result: it raises :class:`~sweeplab.InconsistentPositionError`.
    proofs : mapping of (int, int) to Proof, or None
        With ``deduce(..., proofs=True)``: a checkable proof (SPEC §6) of each
        claimed cell, in the way the method reasons.
    over_budget : frozenset of (int, int)
        Claimed cells whose proof would pass the prover's documented size
        budget (:data:`sweeplab.prover.DEFAULT_BUDGET` combining steps,
        :data:`~sweeplab.prover.DEFAULT_MAX_DEPTH` nested splits), or that the
        search did not reach within its time (the method's ``time_limit``,
        default 20 s): the method says so instead of returning a huge proof.
    unproved : frozenset of (int, int)
        Every claimed cell without a proof: over budget, not forced (a wrong
        claim of an unsound method), or clues that are only bounds (proofs need
        exact clues, SPEC §6).
    registered : bool
        The method was called by its registered name, not given as a function
        (whose name may be a registered method's).

    Examples
    --------
    >>> from sweeplab import deduce
    >>> d = deduce("???\\n121", "rref")
    >>> sorted(d.safe), sorted(d.mines), len(d), d.consistent
    ([(0, 1)], [(0, 0), (0, 2)], 3, True)
    """

    safe: frozenset[Cell]
    mines: frozenset[Cell]
    method: str
    seconds: float
    probabilities: np.ndarray | None = field(default=None, repr=False, compare=False)
    consistent: bool | None = None
    proofs: Mapping[Cell, Proof] | None = field(default=None, repr=False, compare=False)
    over_budget: frozenset[Cell] = frozenset()
    unproved: frozenset[Cell] = frozenset()
    registered: bool = field(default=True, repr=False, compare=False)

    @property
    def cells(self) -> frozenset[Cell]:
        """Every cell the method decided."""
        return self.safe | self.mines

    def __len__(self) -> int:
        return len(self.safe) + len(self.mines)

    def unproved_reason(self, cell: Cell, obs: Observation) -> str:
        """Why a claimed ``cell`` of ``obs`` has no proof, in words ("" when it has one or is no claim).

        Examples
        --------
        >>> obs = Observation.from_text("?0?", noise="over")  # the true clue is at most 0
        >>> d = deduce(obs, "enumerate", proofs=True)
        >>> sorted(d.unproved), d.unproved_reason((0, 0), obs)
        ([(0, 0), (0, 2)], 'clues that are only bounds have no proof format')
        """
        pair = cell_pair(cell)
        if pair is None or not isinstance(obs, Observation):
            raise ValueError(f"unproved_reason takes a cell (row, col), then the Observation it was deduced "
                             f"on; got ({type(cell).__name__}, {type(obs).__name__})")
        if pair not in self.unproved:
            return ""
        if obs.noise in ("under", "over"):
            return "clues that are only bounds have no proof format"
        if pair in self.over_budget:
            return "the proof is over the prover's budget (its size, or the search's time_limit)"
        info = METHODS.get(self.method) if self.registered else None
        if info is not None and not info.sound:
            return "the method is unsound: the claim is not forced (a layout fits with the other value)"
        wrong = "the claim is wrong: a layout fits with the other value"
        return f"{wrong} (method {self.method!r} is registered sound: a bug in it)" if info else wrong


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
    summary : str
        One line.
    reference : str
        The seed report section it follows.
    gives_probabilities : bool
        Returns exact mine probabilities too when called with ``probabilities=True``.
    builtin : bool
        Shipped with sweeplab (its module is imported on first use).
    reads_bounds : bool
        Reads numbers as bounds (``lo <= A x <= hi``) under ``"under"``/``"over"``
        clue noise.  A method that does not is refused such positions, and
        agents put ``enumerate`` in its place in their chains.

    Examples
    --------
    >>> from sweeplab import METHODS
    >>> info = METHODS["lstsq"]
    >>> info.sound, info.complete, info.reference
    (False, False, '000 §3.1')
    >>> [name for name, i in METHODS.items() if i.complete and i.builtin]
    ['milp', 'enumerate', 'brute']
    """

    name: str
    sound: bool
    complete: bool
    summary: str
    reference: str
    target: str | MethodFunction = field(repr=False)
    gives_probabilities: bool = False
    builtin: bool = False
    reads_bounds: bool = False

    @property
    def function(self) -> MethodFunction:
        """The method's function (a built-in's module is imported on first use)."""
        return _resolve(self.target)

    @property
    def options(self) -> tuple[str, ...]:
        """Keyword options the function accepts besides ``use_total``."""
        accepted, _ = _signature(self.function)
        return tuple(sorted(accepted - {"use_total"}))

    @property
    def takes_any_option(self) -> bool:
        """The function takes ``**kwargs``: options besides :attr:`options` reach it too."""
        return _signature(self.function)[1]


@cache
def _resolve(target: str | MethodFunction) -> MethodFunction:
    if callable(target):
        return target
    return importlib.import_module(f"{__name__}.{target}").forced_cells


def _builtin(name, sound, complete, summary, reference, module, **kw) -> MethodInfo:
    return MethodInfo(name, sound, complete, summary, reference, module, builtin=True, **kw)


_BUILTINS = [
    _builtin("trivial", True, False,
             "one clue at a time (the total as one more clue): all mines or all safe; to a fixpoint",
             "000 §2.2; 003 Algorithm A; 001 Global Information", "trivial", reads_bounds=True),
    _builtin("subset", True, False,
             "pairs of clues (and the total): the difference rule, nested or overlapping; to a fixpoint",
             "001 Inference (A+B+C=1, A+C+D=2)", "subset"),
    _builtin("rref", True, False,
             "exact rational RREF of [A|b], then the row bound rule on each row",
             "002 Algorithm 1; 003 Algorithm B", "rref"),
    _builtin("lstsq", False, False,
             "minimum-norm least squares; values within tolerance of 0 or 1 are claimed (unsound)",
             "000 §3.1", "lstsq"),
    _builtin("lstsq-certified", True, False,
             "claims only cells determined by the system (exact row-space test), valued 0 or 1",
             "000 §3.1, with a proof", "lstsq_certified"),
    _builtin("gf2", True, False,
             "row reduction over GF(2) (flint; galois as engine option): a cell fixed mod 2 is fixed",
             "002 (finite fields)", "gf2"),
    _builtin("gfp", True, False,
             "row reduction over GF(p), option p (default 7), with the mod-p bound rule",
             "002 (GF(p))", "gfp"),
    _builtin("bounded", True, False,
             "bounds propagation of 0/1 cells on original and RREF rows, with substitution, to a fixpoint",
             "002 Algorithm 1; 003 Algorithm B, iterated", "bounded"),
    _builtin("lp", True, False,
             "LP relaxation (HiGHS, batched solves): max 0 -> safe, min 1 -> mine",
             "000 §2.4 (relaxed)", "lp", reads_bounds=True),
    _builtin("milp", True, True,
             "proof by contradiction with an integer program per cell",
             "000 §2.4 CSP; 001 reductio agent", "milp", reads_bounds=True),
    _builtin("enumerate", True, True,
             "every consistent assignment of each component (grouped cells, numba backtracking), "
             "combined with the total by binomial weights; also gives sweeplab.probabilities",
             "004 §3 (backtracking, split borders)", "enumerate", gives_probabilities=True,
             reads_bounds=True),
    _builtin("brute", True, True,
             "every 0/1 assignment of the whole frontier, no splitting; refuses above 20 frontier cells",
             "000 §2.4 (all solutions)", "brute", reads_bounds=True),
]

_REGISTRY: dict[str, MethodInfo] = {m.name: m for m in _BUILTINS}
#: What a method name may be: the command line's ``methods=[...]`` and the ``certain_<name>`` columns read it.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*")
#: Sources of an agent's moves other than methods (:class:`sweeplab.agents.Move`): no method is named so.
RESERVED_SOURCES = ("first", "guess")
#: Read-only, live mapping from method name to its :class:`MethodInfo` (built-ins and registered).
METHODS: MappingProxyType[str, MethodInfo] = MappingProxyType(_REGISTRY)


def register_method(
    name: str,
    function: MethodFunction,
    *,
    sound: bool,
    complete: bool,
    summary: str = "",
    reference: str = "",
    reads_bounds: bool = False,
    replace: bool = False,
) -> MethodInfo:
    """Add a deduction method to :data:`METHODS` (SPEC §4).

    Parameters
    ----------
    name : str
        The method's name, as ``deduce(obs, name)`` and the command line use it:
        letters, digits and ``_ . + -``, starting with a letter or digit.  Not
        ``"first"`` or ``"guess"`` (what agents' other moves are credited to),
        and not a name whose column ``certain_<name>`` (``-`` read as ``_``)
        another method has.
    function : callable
        ``function(obs, *, use_total=True, **options) -> (safe, mines)``: two
        iterables of ``(row, col)``.  It should read :func:`sweeplab.clue_system`
        (``obs`` is an :class:`~sweeplab.Observation`), raise
        :class:`~sweeplab.InconsistentPositionError` when it finds no layout
        fits and :class:`~sweeplab.MethodRefused` for positions it declines.
        An option ``time_limit`` (a budget in seconds) must accept ``None``,
        no limit: agents, dominance tables and board grades pass
        ``time_limit=None`` (:func:`untimed`), so that their results do not
        depend on the machine's speed.
    sound, complete : bool
        What the method promises; check them with
        :func:`sweeplab.testing.check_sound`.
    summary, reference : str
        One line (default: the first line of the function's docstring), and
        the report section (or paper) it follows.
    reads_bounds : bool, default False
        The function reads numbers as bounds (``clue_system(obs).lo <= A x <=
        hi``) when clues have ``"under"``/``"over"`` noise.  Otherwise
        :func:`deduce` refuses such positions for it (:class:`~sweeplab.MethodRefused`),
        since reading a bound as an exact number claims wrong cells, and
        agents put ``enumerate`` in its place in their chains.
    replace : bool, default False
        Replace an earlier registration of ``name`` (never a built-in).  Not
        needed to register the same definition again (a notebook cell or a
        module run twice: the same code, defaults and promises).

    Returns
    -------
    MethodInfo

    Examples
    --------
    >>> import sweeplab
    >>> def nothing(obs, *, use_total=True):
    ...     return set(), set()
    >>> sweeplab.register_method("nothing", nothing, sound=True, complete=False).name
    'nothing'
    >>> sweeplab.deduce("?1\\n11", "nothing").cells
    frozenset()
    >>> sweeplab.unregister_method("nothing")
    """
    check_name("a method", name)
    reserved = next((r for r in RESERVED_SOURCES if r == name.lower()), None)  # Guess too
    if reserved is not None:
        raise ValueError(f"method name {name!r} is reserved: an agent's {reserved!r} moves are counted "
                         f"under it; choose another name")
    if not callable(function):
        raise ValueError(f"method {name!r}: function must be callable, got {function!r}")
    if isinstance(function, functools.partial):  # its signature hides what the function does not take
        try:
            inspect.signature(function)
        except ValueError:
            taken, _ = _signature(function.func)
            raise ValueError(f"method {name!r}: {function!r} fixes arguments its function does not take "
                             f"(keyword options it takes: {sorted(taken - {'use_total'}) or 'none'}); fix "
                             f"only keyword options of the function") from None
    if not _takes_use_total(_signature(function)):
        raise ValueError(_NO_USE_TOTAL.format(name=name))
    _check_callable_as_method(name, function)
    for flag, value in (("sound", sound), ("complete", complete), ("reads_bounds", reads_bounds)):
        if not isinstance(value, bool):
            raise ValueError(f"method {name!r}: {flag} must be True or False, got {value!r}")
    summary = str(summary) or _first_doc_line(function)
    held = _REGISTRY.get(name)
    again = (held is not None and not held.builtin and same_function(held.target, function)
             and (held.sound, held.complete, held.summary, held.reference, held.reads_bounds)
             == (sound, complete, str(summary), str(reference), reads_bounds))
    check_not_taken("method", name, held, replace=replace or again)
    check_no_twin("method", name, _REGISTRY)
    _check_fixed_options(name, function)
    info = MethodInfo(name, sound, complete, str(summary), str(reference), function,
                      reads_bounds=reads_bounds)
    _REGISTRY[name] = info
    return info


def _first_doc_line(function: MethodFunction) -> str:
    """The first line of a method's docstring (a ``functools.partial``'s function's), else ``""``; ``""``
    too when the docstring opens with a numpydoc section (``Parameters`` over a line of dashes)."""
    doc = inspect.getdoc(function.func if isinstance(function, functools.partial) else function) or ""
    lines = doc.strip().splitlines() or [""]
    return "" if len(lines) > 1 and set(lines[1].strip()) == {"-"} else lines[0].strip()


def _check_callable_as_method(name: str, function: MethodFunction) -> None:
    """``ValueError`` when ``function(obs, use_total=True, **options)`` could never be called: no
    parameter for the position, or another that only a position can fill (``function(obs, system, /)``).
    Options without a default are options still: ``deduce`` names them when they are not given."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):  # builtins without a signature: let the call decide
        return
    try:
        signature.bind(None, **{**dict.fromkeys(required_options(function)), "use_total": True})
    except TypeError as exc:
        raise ValueError(f"method {name!r}: function{signature} cannot be called as function(obs, *, "
                         f"use_total=True, **options) ({exc}); take the position first and options by "
                         f"keyword") from None


def _check_fixed_options(name: str, function: MethodFunction) -> None:
    """``ValueError`` when ``function`` is a ``functools.partial`` of a built-in method's function that
    fixes an option value the built-in refuses (``p=4`` for ``gfp``): found now, not as a bug in every
    call.  The built-ins check their options before anything else; a position with no covered cell
    costs nothing.  A researcher's own function is not called here (it may keep state)."""
    if not isinstance(function, functools.partial):
        return
    if "use_total" in function.keywords:  # kept whatever the caller passes: a flag, checked now
        try:
            check_flag("use_total", function.keywords["use_total"])
        except ValueError as exc:
            raise ValueError(f"method {name!r}: {function!r} fixes a use_total that is not a flag ({exc}); "
                             f"fix the value the partial gives") from None
    # what deduce asks for per call: fixed on, it changes every answer (fixed off, it is the default)
    if check_flag("probabilities", function.keywords.get("probabilities", False)):
        raise ValueError(f"method {name!r}: {function!r} fixes probabilities, which deduce asks a method for "
                         f"per call (deduce(obs, {name!r}, probabilities=True)); leave it out of the partial")
    inner = function.func
    while isinstance(inner, functools.partial):
        inner = inner.func
    builtin = next((i for i in _REGISTRY.values() if i.builtin and _resolve(i.target) is inner), None)
    if builtin is None:
        return
    try:
        function(Observation.from_text("0"), use_total=True)
    except (MethodRefused, InconsistentPositionError):
        pass
    except ValueError as exc:
        raise ValueError(f"method {name!r}: {function!r} fixes an option that method {builtin.name!r} "
                         f"refuses: {exc}; fix the value the partial gives") from None


def required_options(function: MethodFunction) -> list[str]:
    """The options of ``function`` without a default (by keyword, after the position)."""
    try:
        parameters = list(inspect.signature(function).parameters.values())[1:]
    except (TypeError, ValueError):
        return []
    return [p.name for p in parameters
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.default is p.empty]


def same_function(a: object, b: object) -> bool:
    """Whether ``a`` and ``b`` are one function, or one definition run twice (a notebook cell run again).

    Run twice means the same module, name, code (line numbers included,
    file names not), defaults and closure; what the code reads from its
    globals is not compared.  Two ``functools.partial`` are one when their
    functions are and they fix the same arguments; two callable objects when
    their classes are (:func:`same_class`) and their attributes are equal
    (those named ``_like_this``, state it keeps as it plays, of one type).

    Examples
    --------
    >>> source = "def f(obs, *, use_total=True):\\n    return set(), set()\\n"
    >>> first, second = {}, {}
    >>> exec(source, first); exec(source, second)
    >>> same_function(first["f"], second["f"]), same_function(first["f"], check_name)
    (True, False)
    """
    return _same_function(a, b, set())


def _same_function(a: object, b: object, seen: set[tuple[int, int]]) -> bool:
    """:func:`same_function`, where ``seen`` holds the pairs being compared already (a function in its
    own closure)."""
    if a is b or (id(a), id(b)) in seen:
        return True
    if isinstance(a, functools.partial) and isinstance(b, functools.partial):  # README's gfp-11, run twice
        return (type(a) is type(b) and _same_function(a.func, b.func, seen)
                and _same_value(a.args, b.args, seen) and _same_value(a.keywords, b.keywords, seen))
    if _callable_object(a) and _callable_object(b):  # one class definition (run twice), equal attributes
        seen.add((id(a), id(b)))
        # attributes named _like_this are state it keeps as it plays (a call counter): by type, as the
        # fingerprints count them
        state_a, state_b = ({k: type(v) for k, v in vars(x).items() if k.startswith("_")} for x in (a, b))
        own_a, own_b = ({k: v for k, v in vars(x).items() if not k.startswith("_")} for x in (a, b))
        return _same_class(type(a), type(b), seen) and state_a == state_b and _same_value(own_a, own_b, seen)
    if not (inspect.isfunction(a) and inspect.isfunction(b)):
        return False
    if (a.__module__, a.__qualname__, a.__code__) != (b.__module__, b.__qualname__, b.__code__):
        return False
    seen.add((id(a), id(b)))
    try:  # the same code has the same free variables: closures of one length
        values = [(x.cell_contents, y.cell_contents)
                  for x, y in zip(a.__closure__ or (), b.__closure__ or (), strict=True)]
    except ValueError:  # an empty cell (a variable not yet assigned): not shown the same
        return False
    values += [(a.__defaults__, b.__defaults__), (a.__kwdefaults__, b.__kwdefaults__)]
    return all(_same_value(x, y, seen) for x, y in values)


def _callable_object(value: object) -> bool:
    """An instance of a class with ``__call__`` and attributes (not a function, method, class or partial)."""
    return (callable(value) and not isinstance(value, (type, functools.partial))
            and not inspect.isfunction(value) and not inspect.ismethod(value) and not inspect.isbuiltin(value)
            and isinstance(getattr(value, "__dict__", None), dict))


def _same_value(a: object, b: object, seen: set[tuple[int, int]]) -> bool:
    """``a`` and ``b`` of one type and equal, containers element by element (7 is not 7.0, nor 1 True;
    a defaultdict's factory too; a list that holds itself is compared once),
    arrays by dtype, shape and values; functions by :func:`same_function`; ``False`` where comparing
    fails or gives no single answer."""
    if a is b:
        return True
    if isinstance(a, type) and isinstance(b, type):  # their metaclasses by definition too
        return _same_class(a, b, seen)
    if type(a) is not type(b):
        return False
    if inspect.isfunction(a) or isinstance(a, functools.partial):
        return _same_function(a, b, seen)
    if isinstance(a, (staticmethod, classmethod, functools.cached_property, property)):
        return all(_same_value(x, y, seen) for x, y in zip(_wrapped(a), _wrapped(b), strict=True))
    if isinstance(a, MemberDescriptorType) and isinstance(b, MemberDescriptorType):  # a slot: its name, class
        return a.__name__ == b.__name__ and _same_class(a.__objclass__, b.__objclass__, seen)
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):  # == broadcasts: [0.5] would be [[0.5]]
        if (a.dtype, a.shape) != (b.dtype, b.shape) or a.dtype.hasobject:
            return False
        return bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))
    if isinstance(a, (tuple, list, dict, MappingProxyType)):
        if (id(a), id(b)) in seen:  # a list that holds itself: the same so far
            return True
        seen.add((id(a), id(b)))
        if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):  # one type (checked above)
            return len(a) == len(b) and all(_same_value(x, y, seen) for x, y in zip(a, b, strict=True))
        assert isinstance(a, (dict, MappingProxyType)) and isinstance(b, (dict, MappingProxyType))
        factories = (getattr(a, "default_factory", None), getattr(b, "default_factory", None))
        return (a.keys() == b.keys() and all(_same_value(a[k], b[k], seen) for k in a)
                and _same_value(*factories, seen))
    if isinstance(a, (set, frozenset)) and isinstance(b, (set, frozenset)):  # == takes 5 for 5.0
        return {(type(x), x) for x in a} == {(type(y), y) for y in b}
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 -- any comparison error means "not shown equal"
        return False


def same_class(a: object, b: object) -> bool:
    """Whether ``a`` and ``b`` are one class, or one class definition run twice (a notebook cell run again).

    Run twice means the same module and name, bases and metaclass (one class,
    or one definition run twice too), and the same attributes:
    functions (a dataclass's generated ones with their defaults too) by
    :func:`same_function`, other values by equality.  Docstrings, and the
    ``name`` that registering an agent sets, are not compared.

    Examples
    --------
    >>> source = "class A:\\n    x = 1\\n    def f(self):\\n        return self.x\\n"
    >>> first, second, third = {}, {}, {}
    >>> exec(source, first); exec(source, second); exec(source.replace("x = 1", "x = 2"), third)
    >>> same_class(first["A"], second["A"]), same_class(first["A"], third["A"])
    (True, False)
    """
    return _same_class(a, b, set())


#: Class attributes :func:`same_class` does not compare: documentation, bookkeeping that differs between
#: runs of one definition (descriptors, dataclass records), and the agent name registration sets.
_CLASS_BOOKKEEPING = frozenset({"__dict__", "__weakref__", "__doc__", "__module__", "__qualname__",
                                "__dataclass_fields__", "__dataclass_params__", "__firstlineno__",
                                "__static_attributes__", "name"})


def _same_class(a: object, b: object, seen: set[tuple[int, int]]) -> bool:
    if a is b or (id(a), id(b)) in seen:
        return True
    if not (isinstance(a, type) and isinstance(b, type)):
        return False
    if (a.__module__, a.__qualname__, len(a.__bases__)) != (b.__module__, b.__qualname__, len(b.__bases__)):
        return False
    seen.add((id(a), id(b)))  # a class's methods refer to it (a frozen dataclass's __setattr__)
    # bases and metaclasses by definition too: a cell's class and its subclass (class Other(Mine)) run again
    if not all(_same_class(x, y, seen) for x, y in zip((type(a), *a.__bases__), (type(b), *b.__bases__),
                                                          strict=True)):
        return False
    own_a = {k: v for k, v in vars(a).items() if k not in _CLASS_BOOKKEEPING}
    own_b = {k: v for k, v in vars(b).items() if k not in _CLASS_BOOKKEEPING}
    return own_a.keys() == own_b.keys() and all(_same_value(own_a[k], own_b[k], seen) for k in own_a)


def _wrapped(member: Any) -> tuple[Any, ...]:
    """The functions a class member wraps (a property's three, a static or class method's one)."""
    if isinstance(member, property):
        return member.fget, member.fset, member.fdel
    return (member.func if isinstance(member, functools.cached_property) else member.__func__,)


def check_name(what: str, name: object) -> None:
    """``ValueError`` unless ``name`` is letters, digits and ``_ . + -``, starting with a letter or digit.

    Examples
    --------
    >>> check_name("a method", "rref+subset")
    >>> check_name("a method", "my method")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: a method name is letters, digits and '_.+-', ... got 'my method'
    """
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ValueError(f"{what} name is letters, digits and '_.+-', starting with a letter or digit "
                         f"(the command line and column names read it), got {name!r}")


def check_not_taken(what: str, name: str, held: Any, *, replace: bool) -> None:
    """``ValueError`` when ``held`` (the registry's entry of ``name``) is a built-in ``what`` (method,
    agent), or a registered one and ``replace`` is false."""
    if held is not None and (held.builtin or not replace):
        why = f"a built-in {what}" if held.builtin else "registered already (pass replace=True)"
        raise ValueError(f"{what} {name!r} is {why}; choose another name")


def check_no_twin(what: str, name: str, names: Iterable[str]) -> None:
    """``ValueError`` when ``name`` differs from a registered ``what``'s name only in case or in ``-``
    against ``_`` (``Best`` beside ``best``; a method's ``my-m`` and ``my_m`` would share a column).

    Examples
    --------
    >>> check_no_twin("agent", "Best", ["best", "trivial"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: agent 'Best' differs from the agent 'best' only in case or in '-' and '_' ...
    """
    key = name.lower().replace("-", "_")
    twin = next((m for m in names if m != name and m.lower().replace("-", "_") == key), None)
    if twin is not None:
        raise ValueError(f"{what} {name!r} differs from the {what} {twin!r} only in case or in '-' and '_' "
                         f"(the two would be confused on the command line and in result columns); "
                         f"choose another name")


def sound_label(sound: bool) -> str:
    """How listings (``sweeplab methods``, ``sweeplab agents``, the explorer) state a promise of soundness."""
    return "sound" if sound else "UNSOUND: may claim wrong cells"


def unregister_method(name: str) -> None:
    """Remove a method added by :func:`register_method` (built-ins stay).

    Raises
    ------
    ValueError
        ``name`` is not registered (the message names the methods) or is built in.

    Examples
    --------
    >>> import sweeplab
    >>> def nothing(obs, *, use_total=True):
    ...     return set(), set()
    >>> _ = sweeplab.register_method("nothing", nothing, sound=True, complete=False)
    >>> sweeplab.unregister_method("nothing")
    >>> "nothing" in sweeplab.METHODS
    False
    >>> sweeplab.unregister_method("rref")
    Traceback (most recent call last):
    ...
    ValueError: method 'rref' is built in and cannot be removed
    """
    info = method_info(name)
    if info.builtin:
        raise ValueError(f"method {name!r} is built in and cannot be removed")
    del _REGISTRY[name]


def method_info(name: str) -> MethodInfo:
    """The :class:`MethodInfo` of ``name``; ``ValueError`` naming the choices if there is none."""
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise ValueError(unknown_choice("method", name, _REGISTRY)) from None


def untimed(method: str | MethodFunction) -> dict[str, Any]:
    """``{"time_limit": None}`` when ``method`` (a name or a function) takes a time budget, else ``{}``.

    For results that must not depend on the machine: an agent's moves (they
    depend on the observation and its generator only), a board's grade, a
    dominance table.  A method cut short by its time budget on a loaded or
    suspended machine would change them.  Node and memory caps, which do not
    depend on the machine, still apply.

    Examples
    --------
    >>> untimed("rref"), untimed("trivial")
    ({'time_limit': None}, {})
    """
    accepted, _ = _signature(method if callable(method) else method_info(method).function)
    return {"time_limit": None} if "time_limit" in accepted else {}


def method_use_total(method: str | MethodFunction, use_total: bool) -> bool:
    """The ``use_total`` that ``deduce(obs, method, use_total=use_total)`` runs under (a name or a function).

    A method registered as ``functools.partial(f, use_total=...)`` keeps its
    own; whatever labels its claims (``check_sound``, ``bench``, the fuzzer)
    must take the truth under that value, or true claims read as wrong.

    Examples
    --------
    >>> method_use_total("rref", False)
    False
    """
    function = method if callable(method) else method_info(method).function
    return _use_total_of(function, check_flag("use_total", use_total))


def _use_total_of(function: MethodFunction, use_total: bool) -> bool:
    if isinstance(function, functools.partial) and "use_total" in function.keywords:
        return check_flag("use_total", function.keywords["use_total"])  # fixed by its registered name
    return use_total


_NO_USE_TOTAL = "method {name!r}: function must accept the keyword use_total (signature function(obs, *, " \
                "use_total=True, **options))"


def _takes_use_total(signature: tuple[frozenset[str], bool]) -> bool:
    """A function of this :func:`_signature` can be called with ``use_total=``."""
    accepted, var_kw = signature
    return "use_total" in accepted or var_kw


@cache
def _signature(function: MethodFunction) -> tuple[frozenset[str], bool]:
    """Keyword names ``function`` accepts, and whether it takes ``**kwargs``."""
    try:
        params = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):  # builtins without a signature: let the call decide
        return frozenset(), True
    # the first parameter is the position; options are the keywords after it
    names = frozenset(p.name for p in list(params)[1:] if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD))
    return names, any(p.kind is p.VAR_KEYWORD for p in params)


def _check_options(name: str, function: MethodFunction, options: dict[str, Any]) -> None:
    if isinstance(function, functools.partial):  # options are fixed per registered name (README); a
        # time limit is a budget, not what the method is: a caller's (untimed() for agents) replaces it
        clash = sorted(k for k, v in function.keywords.items()
                       if k in options and k != "time_limit" and not _same(options[k], v))
        if clash:
            raise ValueError(
                f"method {name!r} fixes {', '.join(f'{k}={function.keywords[k]!r}' for k in clash)} "
                f"(registered with functools.partial), so {', '.join(f'{k}={options[k]!r}' for k in clash)} "
                f"cannot be passed to it; use the method it was built from, or register another name")
    key: tuple | None = (function, *options)
    try:
        if key in _CHECKED_OPTIONS:  # agents pass the same options on every call
            return
    except TypeError:  # an unhashable callable: checked every time
        key = None
    accepted, var_kw = _signature(function)
    unknown = sorted(set(options) - accepted)
    if unknown and not var_kw:
        allowed = sorted(accepted - {"use_total"}) or "none"
        raise ValueError(f"method {name!r} has no option {', '.join(map(repr, unknown))}; "
                         f"its options: {allowed}")
    if key is not None and len(_CHECKED_OPTIONS) < 1024:
        _CHECKED_OPTIONS.add(key)


def _same(a: Any, b: Any) -> bool:
    """Whether a caller's option value is the one a partial fixed: equal and of one kind (``11.0`` is not
    ``p=11`` and ``1`` is not ``iterate=True``: the caller's value would reach the method in its place)."""
    if a is not b and _kind(a) != _kind(b):
        return False
    try:
        return a is b or bool(a == b)
    except Exception:  # noqa: BLE001 - arrays and other values without a plain ==: not the same
        return False


def _kind(value: Any) -> str | type:
    """A truth value, an integer, a real number, a string or else the type (numpy's scalars as Python's)."""
    if isinstance(value, (bool, np.bool_)):
        return "bool"
    if isinstance(value, numbers.Integral):
        return "int"
    if isinstance(value, numbers.Real):
        return "real"
    return "str" if isinstance(value, str) else type(value)  # np.str_ is a str


#: ``(function, *option names)`` already checked by :func:`_check_options`.
_CHECKED_OPTIONS: set[tuple] = set()


_CLOCKS: ContextVar[tuple[dict[str, float], ...]] = ContextVar("sweeplab_method_clocks", default=())


class method_seconds:  # noqa: N801 - used like a function: ``with method_seconds() as clock``
    """Collect the seconds :func:`deduce` spends per method inside a ``with`` block.

    Methods are those of :data:`METHODS`, by name; a function given to :func:`deduce` directly is
    not one (its ``__name__``, perhaps a method's, does not name it), and is not counted here.

    A class rather than a generator-based context manager: it is entered once per game played.

    Examples
    --------
    >>> with method_seconds() as clock:
    ...     _ = deduce("?1\\n11", "trivial")
    >>> sorted(clock)
    ['trivial']
    """

    __slots__ = ("clock", "token")

    def __enter__(self) -> dict[str, float]:
        self.clock: dict[str, float] = {}
        self.token = _CLOCKS.set(_CLOCKS.get() + (self.clock,))
        return self.clock

    def __exit__(self, *exc: object) -> None:
        _CLOCKS.reset(self.token)


_NO_LAYOUT_CLAIMS: ContextVar[tuple[list[tuple[str, Observation, bool]], ...]] = ContextVar(
    "sweeplab_no_layout_claims", default=())


class no_layout_claims:  # noqa: N801 - used like a function: ``with no_layout_claims() as claims``
    """Collect, inside a ``with`` block, the positions on which a method of :data:`METHODS` raised
    ``InconsistentPositionError`` in :func:`deduce`: ``(name, observation, use_total)`` each.

    Where the layout is known (a game), a claim on a position it fits
    (:func:`~sweeplab.positions.layout_fits`) is wrong: :func:`sweeplab.play`
    counts it in ``wrong_claims``, as a wrong cell, and reach refuses a method
    registered sound that makes one.

    Examples
    --------
    >>> with no_layout_claims() as claims:
    ...     try:
    ...         _ = deduce("?2\\n11", "enumerate")  # a 2 beside one covered cell
    ...     except InconsistentPositionError:
    ...         pass
    >>> [(name, use_total) for name, _, use_total in claims]
    [('enumerate', True)]
    """

    __slots__ = ("claims", "token")

    def __enter__(self) -> list[tuple[str, Observation, bool]]:
        self.claims: list[tuple[str, Observation, bool]] = []
        self.token = _NO_LAYOUT_CLAIMS.set(_NO_LAYOUT_CLAIMS.get() + (self.claims,))
        return self.claims

    def __exit__(self, *exc: object) -> None:
        _NO_LAYOUT_CLAIMS.reset(self.token)


def deduce(
    obs: Observation | str,
    method: str | MethodFunction = "rref",
    *,
    use_total: bool = True,
    check_consistency: bool = True,
    proofs: bool = False,
    proof_time_limit: float | None = None,
    **options: Any,
) -> Deduction:
    """Deduce safe cells and mines of a position with one method (SPEC §4).

    Parameters
    ----------
    obs : Observation or str
        The position (its text form is accepted too).
    method : str or callable, default "rref"
        A key of :data:`METHODS`, or a function ``function(obs, *, use_total,
        **options) -> (safe, mines)`` run once without registering it (trusted
        to read ``"under"``/``"over"`` clues as the bounds they are, as a
        method registered with ``reads_bounds=True``).
    use_total : bool, default True
        Use the board's total number of mines when the position knows it
        (a method registered as ``functools.partial(f, use_total=...)`` keeps
        its own: options are fixed per registered name).
    check_consistency : bool, default True
        When a method that is not complete claims cells, check with exact
        enumeration (:func:`~sweeplab.methods._consistency.has_layout`, a small budget) that some
        layout fits, and past that budget that the LP relaxation has a point,
        so that no claim is returned for a position found to have no layout
        (incomplete methods cannot see every contradiction: ``"??0"`` with 2
        mines looks fine to ``gf2``); a position too large for the first and
        passing the second is returned with ``consistent=None``.  Not counted
        in ``seconds``.
    proofs : bool, default False
        Also find a proof of every claimed cell (``Deduction.proofs``), checkable
        by :func:`sweeplab.check_proof`; costs nothing when False.
    proof_time_limit : float, optional
        Seconds for the proof search of ``proofs=True``; the claims it has not
        proved by then are in ``Deduction.over_budget``.  Default: the
        method's ``time_limit`` option when given, else 20 s
        (:func:`sweeplab.prover.prove_all`); a method without that option
        (``trivial``, say) is bounded here.
    **options
        Method options (for example ``p`` for ``"gfp"``); ``probabilities=True``
        asks a method that gives exact probabilities for them too.

    Returns
    -------
    Deduction

    Raises
    ------
    ValueError
        For an unknown method, an option the method does not take, or a
        function given directly that does not take ``use_total``.
    InconsistentPositionError
        When the method detects that no mine layout fits the clues.
    MethodRefused
        When the method declines the position (too large, needs exact clues).

    Examples
    --------
    >>> d = deduce("?1\\n11", method="trivial")
    >>> sorted(d.mines), sorted(d.safe)
    ([(0, 0)], [])
    >>> deduce("?1\\n11", lambda obs, *, use_total=True: ({(0, 0)}, set())).method
    '<lambda>'
    """
    info = _REGISTRY.get(method) if type(method) is str else None  # the usual call: one dict lookup
    if info is None and callable(method):
        name, function, gives_probabilities = getattr(method, "__name__", repr(method)), method, False
        complete = builtin = False
    else:
        info = info or method_info(method)  # type: ignore[arg-type]  # ValueError for a non-name
        name, function, gives_probabilities = info.name, info.function, info.gives_probabilities
        complete, builtin = info.complete, info.builtin
    use_total = _use_total_of(function, check_flag("use_total", use_total))
    check_consistency = check_flag("check_consistency", check_consistency)
    proofs = check_flag("proofs", proofs)
    search_timed = proof_time_limit is not None  # (a number past float's range reads as no limit)
    if search_timed:
        try:
            proof_time_limit = _option(name, "proof_time_limit", proof_time_limit, "")
        except ValueError:
            raise ValueError(f"proof_time_limit must be a positive number of seconds (None: the default), "
                             f"got {proof_time_limit!r}") from None
    want_probabilities = False
    if options:
        want_probabilities = check_flag("probabilities", options.get("probabilities", False))
        if "probabilities" in options and not gives_probabilities:
            if want_probabilities:
                raise ValueError(f"method {name!r} gives no probabilities; 'enumerate' does")
            del options["probabilities"]
        if options:
            _check_options(name, function, options)
    if type(obs) is not Observation:
        obs = as_observation(obs)
    if not builtin and info is not None and not info.reads_bounds and obs.noise in ("under", "over"):
        raise exact_clues_needed(name, obs.noise)  # built-ins refuse on their own (methods._common)
    start = time.perf_counter()
    try:
        result = function(obs, use_total=use_total, **options)
    except MethodRefused:  # the method's answer: the message says it
        raise
    except InconsistentPositionError:  # an answer too, that a game can check (no_layout_claims)
        for claims in _NO_LAYOUT_CLAIMS.get() if info is not None else ():
            claims.append((name, obs, use_total))
        raise
    except Exception as exc:  # a bug or a bad option value: say which method, and on what, in its traceback
        if interrupted(exc):  # a Ctrl-C that compiled code wrapped: not the method's fault
            raise KeyboardInterrupt from exc
        if (info is None and isinstance(exc, TypeError)  # a function given directly: as register_method says
                and not _takes_use_total(_signature.__wrapped__(function))):
            raise ValueError(_NO_USE_TOTAL.format(name=name)) from None
        missing = [o for o in required_options(function) if o not in options and o != "use_total"]
        if isinstance(exc, TypeError) and missing:
            raise ValueError(f"method {name!r} needs the option {missing[0]!r} (it has no default): "
                             f"deduce(obs, {name!r}, {missing[0]}=...) (sweeplab solve: --option "
                             f"{missing[0]}=VALUE); agents pass their methods no options: register a name "
                             f"that fixes it, functools.partial(function, {missing[0]}=...)") from None
        where = _where(obs, options)
        if not builtin and isinstance(exc, ValueError) and not isinstance(exc, MethodBugError):
            # not bad input (the command line's exit 2): a method may raise only the two above (SPEC §4)
            bug = MethodBugError(f"method {name!r} raised {type(exc).__name__}: {exc} (a bug in the method: "
                                 f"it may raise only MethodRefused, to decline, or "
                                 f"InconsistentPositionError, when no layout fits; SPEC §4)")
            bug.add_note(f"raised by method {name!r} {where}")
            raise bug from exc
        exc.add_note(f"raised by method {name!r} {where}")
        raise
    seconds = time.perf_counter() - start
    # clocks are kept by method name: a function given directly has none (its own name may be a method's)
    for clock in _CLOCKS.get() if info is not None else ():
        clock[name] = clock.get(name, 0.0) + seconds
    probabilities = None
    try:
        if want_probabilities:
            safe, mines, probabilities = result
        else:
            safe, mines = result
        # built-ins return sets of (int, int); anything else is normalised (numpy ints, lists)
        safe, mines = (frozenset(safe), frozenset(mines)) if builtin else (_cells(safe), _cells(mines))
    except (TypeError, ValueError) as exc:
        raise TypeError(f"method {name!r} must return (safe, mines), two iterables of (row, col) pairs of "
                        f"integers; got {type(result).__name__} ({exc})") from None
    if not builtin:
        try:
            _check_claims(name, obs, safe, mines, use_total=use_total)
        except (InvalidClaimError, ContradictoryClaimError) as exc:  # reproducible: the position said
            exc.add_note(f"claimed by method {name!r} {_where(obs, options)}")
            raise
    consistent = True if complete and builtin else None  # a researcher's promise is checked, not taken
    if consistent is None and check_consistency and (safe or mines):
        consistent = has_layout(obs, use_total=use_total)
    if not proofs:
        return _deduction(safe, mines, name, seconds, probabilities, consistent, info is not None)
    from ..prover import proofs_for

    # a function given directly is proved by cases, whatever its name (a "gfp" of one's own has no modulus);
    # the proofs' size budget is the documented one: a method's own option budget, max_depth or max_lps
    # (only a method that takes them gets here with them) means something else to it
    own = {k: v for k, v in options.items() if k not in _PROVER_BUDGETS}
    if search_timed:
        own["time_limit"] = proof_time_limit
    found, over = proofs_for(obs, name, safe, mines, use_total=use_total,
                             style=None if info is not None else "case", **own)
    return Deduction(safe, mines, name, seconds, probabilities, consistent, MappingProxyType(found),
                     frozenset(over), (safe | mines) - frozenset(found), registered=info is not None)


#: Options of :func:`sweeplab.prover.proofs_for` that size its search, never taken from a method's options.
_PROVER_BUDGETS = ("budget", "max_depth", "max_lps")


def _deduction(safe: frozenset[Cell], mines: frozenset[Cell], method: str, seconds: float,
               probabilities: np.ndarray | None, consistent: bool | None, registered: bool) -> Deduction:
    """``Deduction(safe, mines, method, seconds, probabilities, consistent)`` without proofs, built
    without the frozen dataclass's ``__init__`` (one ``object.__setattr__`` per field): agents make
    one per method call."""
    d = object.__new__(Deduction)
    d.__dict__.update(safe=safe, mines=mines, method=method, seconds=seconds, probabilities=probabilities,
                      consistent=consistent, proofs=None, over_budget=_EMPTY, unproved=_EMPTY,
                      registered=registered)
    return d


_EMPTY: frozenset[Cell] = frozenset()


def _where(obs: Observation, options: Mapping[str, Any]) -> str:
    """The position and options of a call, for the note of a method's error."""
    given = "".join(f", {k}={v!r}" for k, v in options.items())  # agents pass time_limit=None
    return f"on this position (mines={obs.mines}, noise={obs.noise}{given}):\n{obs.to_text()}"


def _check_claims(name: str, obs: Observation, safe: frozenset[Cell], mines: frozenset[Cell], *,
                  use_total: bool) -> None:
    """A method that is not built in claims only covered cells on the board, and a cell both safe and a
    mine only on a position with no layout (``InconsistentPositionError`` then)."""
    h, w = obs.shape
    for r, c in sorted(safe | mines):
        if not (0 <= r < h and 0 <= c < w):
            raise InvalidClaimError(f"method {name!r} claimed the cell {(r, c)}, outside the {h}x{w} "
                                    f"board; a method claims covered cells of the position it is given",
                                    (r, c))
        if obs.grid[r, c] != COVERED:
            raise InvalidClaimError(f"method {name!r} claimed the cell {(r, c)}, which is not covered (code "
                                    f"{int(obs.grid[r, c])}); a method claims covered cells only", (r, c))
    both = safe & mines
    if both:  # sound reasoning on a position with no layout proves anything: a bug only if a layout fits
        if has_layout(obs, use_total=use_total, time_limit=None) is None:
            raise InconsistentPositionError(
                f"method {name!r} claimed {sorted(both)} both safe and a mine: no layout fits if it is "
                f"sound (enumeration could not tell within its budget)")
        raise ContradictoryClaimError(f"method {name!r} claimed {sorted(both)} both safe and a mine, "
                                      f"yet layouts fit the position: a bug in the method", safe, mines)


def _cells(cells: Iterable) -> frozenset[Cell]:
    """A registered method's cells as ``(int, int)``; ``TypeError`` for anything but pairs of integers
    (a float, a string such as ``"02"`` or a 2-element set must not turn into some cell)."""
    out = set()
    for cell in cells:
        pair = cell_pair(cell)
        if pair is None:
            raise TypeError(f"a cell is a pair of integers (row, col), got {cell!r}")
        out.add(pair)
    return frozenset(out)


def load_plugins(modules: Iterable[str]) -> list[str]:
    """Import modules that register methods (``--plugin MODULE`` on the command line).

    The names are also put in the environment (:data:`PLUGINS_ENV`, read back
    by :func:`plugin_names`), so worker processes started afterwards import
    them too (:mod:`sweeplab.executor` passes them on).

    Raises
    ------
    ValueError
        When a module cannot be imported (its error is named).
    """
    loaded = []
    for module in modules:
        if module.endswith(".py") or "/" in module or os.sep in module:
            raise ValueError(f"plugin {module!r} is a file path; a plugin (--plugin or {PLUGINS_ENV}) is an "
                             f"importable module name: put its folder on PYTHONPATH and name the module "
                             f"({os.path.splitext(os.path.basename(module))[0]!r})")
        try:
            importlib.import_module(module)
        except Exception as exc:  # noqa: BLE001 - any failure of a plugin is reported as bad input
            missing = isinstance(exc, ModuleNotFoundError) and exc.name == module.split(".")[0]
            hint = ("; the sweeplab command looks in the current folder: run it from the folder that holds "
                    "the module, or put that folder on PYTHONPATH") if missing else ""
            raise ValueError(f"plugin {module!r} (--plugin or {PLUGINS_ENV}) could not be imported: "
                             f"{type(exc).__name__}: {exc}{hint}") from exc
        loaded.append(module)
    if loaded:
        os.environ[PLUGINS_ENV] = ",".join(dict.fromkeys(plugin_names() + tuple(loaded)))
    return loaded


def search_current_folder() -> None:
    """Under the ``sweeplab`` command, put the current folder first on ``sys.path``, as ``python -m
    sweeplab`` does: a ``--plugin`` or :data:`PLUGINS_ENV` module there is found by either (the command's
    own folder, the environment's ``bin``, comes first otherwise)."""
    if running_command(module_run=False) and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())


def load_env_plugins() -> list[str]:
    """Import the plugins :data:`PLUGINS_ENV` names (``import sweeplab`` does, README).

    A name that fails warns rather than raises (importing sweeplab still works;
    ``--plugin`` raises instead) and is dropped from the variable, so worker
    processes do not try it again.
    """
    loaded = []
    for name in plugin_names():
        try:
            loaded += load_plugins([name])
        except ValueError as exc:
            text = f"{exc}; skipped, here and in worker processes"
            if running_command():  # a line of the command's own, not Python's warning with its source line
                print(f"sweeplab: warning: {text}", file=sys.stderr)
            else:
                warnings.warn(text, RuntimeWarning, stacklevel=3)
    if PLUGINS_ENV in os.environ:
        os.environ[PLUGINS_ENV] = ",".join(loaded)
    return loaded


def plugin_names() -> tuple[str, ...]:
    """The plugin modules loaded so far in this process or its parent (:data:`PLUGINS_ENV`)."""
    return tuple(m for m in os.environ.get(PLUGINS_ENV, "").split(",") if m)

