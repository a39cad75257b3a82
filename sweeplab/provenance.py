"""Where results come from: the package version, the git commit and a fingerprint of the source.

Every file of results (sweep manifests, bench manifests, the report index)
records :func:`source_commit`, so a figure can be traced to the code that made
it.  Resumable runs also record :func:`code_fingerprint` and, for the methods
they use that are not sweeplab's own (plugins, methods registered in a script
or notebook), :func:`method_fingerprints`; they refuse to resume under other
code (:func:`check_same_code`): games played by two versions of an agent or a
method must not be counted as one sample.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import decimal
import dis
import enum
import fractions
import functools
import hashlib
import inspect
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import CodeType, MappingProxyType, ModuleType
from typing import Any

import numpy as np
import pandas as pd

from ._source_files import (
    PACKAGE_DIR,
    check_code,
    helper_modules,
    imported_in,
    module_file,
    outside_path,
    read_source,
)

__all__ = ["source_commit", "checkout_commit", "package_version", "made_by", "made_by_text",
           "code_fingerprint", "method_fingerprints", "fingerprint_subject", "function_fingerprint",
           "check_same_code", "environment", "version_differences", "machine", "OUTCOME_PACKAGES"]

#: The packages whose version can change the games played: numpy's random streams (it does not
#: promise the same draws across releases), numba's compiled arithmetic, scipy and HiGHS's programs.
OUTCOME_PACKAGES = ("numpy", "numba", "scipy", "highspy")


@cache
def source_commit() -> tuple[str | None, bool | None]:
    """``(commit, dirty)`` of the git checkout sweeplab is imported from; ``(None, None)`` outside one.

    Only a checkout whose top is the folder holding ``sweeplab/`` counts: an
    installed sweeplab in a virtual environment inside some other repository
    (``project/.venv``) has no commit of its own.  ``dirty`` says whether
    tracked files differ from that commit.  Cached: the answer does not
    change while a process runs.
    """
    return checkout_commit(PACKAGE_DIR.parent)


def package_version() -> str:
    """sweeplab's installed version (``"0+unknown"`` in a source tree never installed), as
    ``sweeplab.__version__`` gives it."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("sweeplab")
    except PackageNotFoundError:
        return "0+unknown"


def made_by() -> dict[str, Any]:
    """What files of results record of the code that made them: ``version``, ``git_commit``,
    ``git_dirty`` (tracked files differ from that commit) and ``code`` (:func:`code_fingerprint`).

    Examples
    --------
    >>> sorted(made_by())
    ['code', 'git_commit', 'git_dirty', 'version']
    """
    commit, dirty = source_commit()
    return {"version": package_version(), "git_commit": commit, "git_dirty": dirty,
            "code": code_fingerprint()}


def made_by_text() -> str:
    """The version, and the commit of a checkout, in one line: what to cite and what ``--version`` prints.

    Examples
    --------
    >>> made_by_text().startswith("sweeplab ")
    True
    """
    commit, dirty = source_commit()
    if commit is None:
        return f"sweeplab {package_version()}"
    return f"sweeplab {package_version()}, commit {commit[:12]}" + (", with local changes" if dirty else "")


def checkout_commit(root: Path) -> tuple[str | None, bool | None]:
    """``(commit, dirty)`` of the git checkout whose top folder is ``root``; ``(None, None)`` when ``root``
    is not the top of one (a folder inside some other repository included)."""
    root = Path(root).resolve()
    try:
        answer = subprocess.run(["git", "rev-parse", "--show-toplevel", "HEAD"], cwd=root,
                                capture_output=True, text=True, check=True, timeout=10).stdout
        top, commit = answer.splitlines()
        if Path(top).resolve() != root:
            return None, None
        dirty = bool(subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                                    capture_output=True, text=True, check=True, timeout=10).stdout.strip())
    except (OSError, ValueError, subprocess.SubprocessError):
        return None, None
    return commit or None, dirty


def _source_hash(root: Path) -> str:
    """A hash of every ``.py`` file under ``root``: names and bytes."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


#: The fingerprint of sweeplab's source when this process imported it (``import sweeplab`` takes it).
IMPORTED_FINGERPRINT = _source_hash(PACKAGE_DIR)


def code_fingerprint(root: Path = PACKAGE_DIR) -> str:
    """A hash of every ``.py`` file under ``root`` (the installed sweeplab by default): names and bytes.

    Unlike the git commit it sees uncommitted edits, and it exists outside a
    git checkout.  For sweeplab itself it is the code this process runs: the
    files as they were when it was imported.

    Raises
    ------
    ValueError
        When sweeplab's files changed on disk since this process imported it
        (a ``git pull`` or an edit under a running notebook): games played now
        would be the code in memory's, recorded as the code on disk's.

    Examples
    --------
    >>> len(code_fingerprint()), code_fingerprint() == IMPORTED_FINGERPRINT
    (16, True)
    """
    now = _source_hash(root)
    if root == PACKAGE_DIR and now != IMPORTED_FINGERPRINT:
        raise ValueError(
            f"sweeplab's source under {root} changed since this process imported it (fingerprint "
            f"{IMPORTED_FINGERPRINT} then, {now} now): this process still runs the code it imported. "
            f"Restart it (in Jupyter: restart the kernel) and run again; a sweep's folder resumes only under "
            f"the code that started it: undo the change to resume it, or give the new code a new folder")
    return now


def method_fingerprints(points: Any) -> dict[str, str]:
    """A hash of each method (and agent, keyed ``"agent <name>"``) named in ``points`` that is
    registered but not sweeplab's own.

    ``points`` are a run's parameters (dicts, lists, strings, numbers, or
    dataclasses such as an agent); every string in them that names such a
    method (``methods=[...]`` of the chain agent, ``method=`` of
    :func:`~sweeplab.reach.run_games`) counts, and so does every string in the
    option defaults of a registered agent they name (its default ``methods``), and every string
    constant in the code of such a method or agent that names another (a method that calls
    ``deduce(obs, "other")``), in turn.  A method is hashed by
    :func:`function_fingerprint`; :func:`code_fingerprint` covers sweeplab's
    own methods.

    Examples
    --------
    >>> method_fingerprints([{"agent": "chain", "methods": ["trivial", "rref"]}])  # built-ins only
    {}
    """
    from .agents import AGENTS
    from .methods import METHODS

    names: set[str] = set()
    _strings(points, names)
    for name in list(names):  # a registered agent's defaults name methods too (its ``methods``)
        info = AGENTS.get(name.removeprefix(AGENT_KEY))
        if info is not None and not info.builtin and dataclasses.is_dataclass(info.cls):
            for field in dataclasses.fields(info.cls):
                _strings(field.default, names)
                if field.default_factory is not dataclasses.MISSING:  # methods=field(default_factory=...)
                    with contextlib.suppress(Exception):  # a factory that needs more than a call: no names
                        _strings(field.default_factory(), names)
    # a method or agent that calls another registered one by name (deduce(obs, "inner")) runs its code too
    todo = sorted(names)
    while todo:
        name = todo.pop()
        registered = AGENTS.get(name.removeprefix(AGENT_KEY))
        code: Any = (METHODS[name].function if name in METHODS and not METHODS[name].builtin
                     else registered.cls if registered is not None and not registered.builtin else None)
        if code is None:
            continue
        for other in _strings_in_code(code, set()) - names:
            if (other in METHODS and not METHODS[other].builtin) or (
                    other in AGENTS and not AGENTS[other].builtin):
                names.add(other)
                todo.append(other)
    found = {name: function_fingerprint(METHODS[name].function)
             for name in sorted(names) if name in METHODS and not METHODS[name].builtin}
    for name in sorted(names):  # registered agents, as "agent <name>" (an agent may share a method's name)
        agent = name.removeprefix(AGENT_KEY)
        if agent in AGENTS and not AGENTS[agent].builtin:
            found[AGENT_KEY + agent] = function_fingerprint(AGENTS[agent].cls)
    return found


def _strings_in_code(obj: Any, seen: set[int]) -> set[str]:
    """The string constants of the code ``obj`` runs: a function's (nested code too) and those of its
    script's or plugin's functions and classes it reads, a partial's function and arguments, a class's
    functions, a callable object's class.  Among them: the names of registered methods it calls."""
    if id(obj) in seen:
        return set()
    seen.add(id(obj))
    out: set[str] = set()
    if isinstance(obj, functools.partial):
        _strings([*obj.args, *obj.keywords.values()], out)
        return out | _strings_in_code(obj.func, seen)
    obj = getattr(obj, "py_func", obj)  # a numba-compiled helper: its Python code
    if inspect.isclass(obj):
        for klass in obj.__mro__:
            if klass is not object and not _outside(klass.__module__):
                for value in vars(klass).values():
                    value = getattr(value, "__func__", value)
                    out |= _strings_in_code(value.fget if isinstance(value, property) else value, seen)
        return out
    if inspect.isfunction(obj):
        out |= _code_strings(obj.__code__)
        scope = getattr(obj, "__globals__", {})
        for name in _global_names(obj.__code__, _READS):
            value = scope.get(name)
            if (inspect.isfunction(value) or inspect.isclass(value)) and not _outside(value.__module__):
                out |= _strings_in_code(value, seen)
        return out
    if callable(obj) and not _outside(type(obj).__module__):
        return _strings_in_code(type(obj), seen)
    return out


def _code_strings(code: CodeType) -> set[str]:
    """The string constants of ``code`` and of the code nested in it."""
    out: set[str] = set()
    for const in code.co_consts:
        if isinstance(const, str):
            out.add(const)
        elif isinstance(const, CodeType):
            out |= _code_strings(const)
        elif isinstance(const, (tuple, frozenset)):
            out |= {c for c in const if isinstance(c, str)}
    return out


#: Prefix of a registered agent's key in :func:`method_fingerprints`.
AGENT_KEY = "agent "


def fingerprint_subject(key: str) -> str:
    """What a key of :func:`method_fingerprints` names, for a message: ``"method 'x'"``, ``"agent 'y'"``."""
    if key.startswith(AGENT_KEY):
        return f"agent {key.removeprefix(AGENT_KEY)!r}"
    return f"method {key!r}"


def _strings(value: Any, out: set[str]) -> None:
    """Every string in ``value``: JSON-like values, and the fields of dataclasses (an agent's methods)."""
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            _strings(v, out)
    elif isinstance(value, list | tuple):
        for v in value:
            _strings(v, out)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            _strings(getattr(value, f.name), out)


def function_fingerprint(function: Any) -> str:
    """A hash of a method's code, as :func:`method_fingerprints` takes it.

    Its module's source file when it has one (not ``__main__``: helpers in that
    file count too) and its name in it, with the files of the modules it takes names from that
    are neither sweeplab's, the standard library's nor installed packages' (a
    plugin's helper modules, directly or through one another, or imported in
    its body), else its code object without line numbers (a script's or
    notebook's function) with what it reads: the values in its closure and
    of the globals it names (numbers, strings, bytes and tuples of them by
    value; anything mutable, such as a list, a dict or a numpy array, only by
    its type, and an array by its shape too, since a method may fill it as it
    plays; enums, frozen dataclasses and a ``types.MappingProxyType`` of such values count by value), its
    defaults, and the functions of the same script it calls (a numba-compiled one by its Python source),
    in turn; a plugin file's function also by its name, code, defaults and closure; a partial's function
    and arguments (lists, dicts, sets and arrays by value too: settings it was made with); a callable
    object's class and attributes, or a bound method's function and its
    object's class and attributes, or a classmethod's class (by the same rules; attributes named with a
    leading underscore, state it keeps as it plays, by type only); a ``functools.wraps`` wrapper by its
    own code and what it wraps; for a class (an agent), each
    class of its bases that is not sweeplab's: its module's file, else the
    code of its functions and its plain values (field defaults).  Nothing is
    hashed by a text that changes between processes (a set's order, an
    address).  A plugin's file edited since this process imported its module
    (and not reloaded), or a registered function or class that is not the
    file's code, raises ``ValueError``: the process runs the old code
    (:func:`~sweeplab._source_files.check_current`, ``check_code``).

    Examples
    --------
    >>> import functools
    >>> from sweeplab.example_plugin import rref_reversed
    >>> len(function_fingerprint(rref_reversed))
    16
    >>> without_total = functools.partial(rref_reversed, use_total=False)
    >>> function_fingerprint(without_total) == function_fingerprint(rref_reversed)
    False
    """
    inner = getattr(function, "__wrapped__", None)
    if inner is not None and inner is not function and not isinstance(function, functools.partial):
        # functools.wraps: the wrapper's own code counts, and what it wraps (a decorator that changes
        # the answer is other code)
        layers = f"wrapper\0{_fingerprint(function)}\0{function_fingerprint(inner)}"
        return hashlib.sha256(layers.encode()).hexdigest()[:16]
    return _fingerprint(function)


def _fingerprint(fn: Any) -> str:
    """:func:`function_fingerprint` of one layer (a wrapper's own code, not what it wraps)."""
    digest = hashlib.sha256()
    if isinstance(fn, functools.partial):
        digest.update((function_fingerprint(fn.func) + _partial_arguments(fn)).encode())
        return digest.hexdigest()[:16]
    if inspect.isclass(fn):
        _hash_class(digest, fn, set())
        return digest.hexdigest()[:16]
    if inspect.ismethod(fn):  # a bound method: its function, and its class or its object and class
        owner = fn.__self__
        digest.update(function_fingerprint(fn.__func__).encode())
        if inspect.isclass(owner):  # a classmethod: the class it reads (a subclass's attributes)
            digest.update(function_fingerprint(owner).encode())
        else:
            digest.update(_attributes_text(owner).encode() + _class_text(type(owner)).encode())
        return digest.hexdigest()[:16]
    holder = fn if inspect.isfunction(fn) else type(fn)
    name = getattr(holder, "__module__", None) or "__main__"
    called = fn if holder is fn else vars(holder).get("__call__")
    code = getattr(called, "__code__", None)
    if _hash_module_file(digest, name):
        # which function of the file: two of one plugin would otherwise share a fingerprint (a review: a
        # Dask worker kept the one registered first, and a resume pooled the games of both)
        digest.update(f"function\0{holder.__qualname__}\0".encode())
        if code is not None:
            check_code(called)  # the function the registry holds is the file's, not one from before an edit
            _hash_code(digest, code)  # which lambda of the file
            if inspect.isfunction(called):  # the defaults and closure a factory made it with
                digest.update(b"defaults\0" + _defaults_text(called).encode())
                for value, kept in _closure(called):  # (itself, when it calls itself: its code says it)
                    text = "" if kept else "itself" if value is called else _value_text(value)
                    digest.update((b"kept\0" if kept else b"read\0") + text.encode())
            _hash_modules_named(digest, code)
    elif code is not None:
        _hash_function(digest, called, set())
    else:
        digest.update(f"{name}.{holder.__qualname__}".encode())
    if holder is not fn:  # a callable object: its attributes too (``Rule(slack=1)`` is not ``Rule(0)``)
        digest.update(_attributes_text(fn).encode() + _class_text(holder).encode())  # and its helpers
    return digest.hexdigest()[:16]


def _sort_key(value: Any) -> str:
    """An order of a frozenset's items that is the same in every process (not their hash order)."""
    return _plain_text(value) or f"{type(value).__qualname__} {getattr(value, '__qualname__', '')}"


def _partial_arguments(fn: functools.partial) -> str:
    """A partial's fixed arguments, by :func:`_argument_text`."""
    arguments = [_argument_text(a) for a in fn.args]
    arguments += [f"{k}={_argument_text(v)}" for k, v in sorted(fn.keywords.items())]
    return repr(arguments)


def _hash_class(digest: Any, klass: type, seen: set[int]) -> None:
    """An agent class and its bases, but sweeplab's own (:func:`code_fingerprint`'s), the standard
    library's and installed packages' (by their versions): each by its module's file, else by its body
    (:func:`_hash_class_body`); ``seen``: the classes and functions already hashed on this path (a
    method that names its own class)."""
    seen.add(id(klass))
    digest.update(b"class\0" + klass.__qualname__.encode())
    own = (klass.__module__ or "__main__").split(".")[0]  # an installed plugin package's classes count
    for base in klass.__mro__:
        module = base.__module__ or "__main__"
        if (module.split(".")[0] == own and own != "sweeplab") or not _outside(module):
            digest.update(b"class\0" + base.__qualname__.encode())
            if _hash_module_file(digest, module):
                check_code(base)  # the class the registry holds is the file's
            else:
                _hash_class_body(digest, base, seen)


def _class_text(klass: Any) -> str:
    """The fingerprint of an object's class, its helper methods included, unless the class is built in,
    sweeplab's or an installed package's."""
    return "" if _outside(klass.__module__) else "class " + function_fingerprint(klass)


def _attributes_text(obj: Any) -> str:
    """A callable object's attributes by the rules of :func:`_value_text`; those named with a leading
    underscore only by their type: state it keeps as it plays (a count) must not make its own resume
    look like other code."""
    return "".join(f"attribute\0{key}\0{_type_text(value) if key.startswith('_') else _value_text(value)}\0"
                   for key, value in sorted(_attributes(obj).items()))


def _attributes(obj: Any) -> dict[str, Any]:
    """An object's own attributes: its ``__dict__`` and ``__slots__``."""
    out = dict(getattr(obj, "__dict__", {}))
    for klass in type(obj).__mro__:
        slots = vars(klass).get("__slots__", ())
        for slot in (slots,) if isinstance(slots, str) else slots:
            if slot not in ("__dict__", "__weakref__") and hasattr(obj, slot):
                out[slot] = getattr(obj, slot)
    return out


def _hash_function(digest: Any, fn: Any, seen: set[int]) -> None:
    """A script's or notebook's function: its code and what it reads (:func:`function_fingerprint`)."""
    seen.add(id(fn))
    _hash_code(digest, fn.__code__)
    digest.update(b"defaults\0" + _defaults_text(fn).encode())
    reads: list[tuple[str, Any]] = []
    for value, kept in _closure(fn):
        if kept:
            digest.update(b"kept\0")
        else:
            reads.append(("", value))
    scope = getattr(fn, "__globals__", {})
    reads += [(name, scope[name]) for name in sorted(_global_names(fn.__code__, _READS)) if name in scope]
    state = _global_names(fn.__code__, _STORES)
    for name, value in reads:
        digest.update(b"read\0" + name.encode() + b"\0")
        if name in state:  # a global it assigns (global count; count += 1): by its type only
            digest.update(_type_text(value).encode())
            continue
        value = _called_function(digest, value)  # a helper made by partial, functools.cache, ...
        text = _plain_text(value)
        if text is not None:
            digest.update(text.encode())
        elif isinstance(value, np.ndarray):
            digest.update(f"array {value.dtype.str} {value.shape}".encode())
        elif inspect.isfunction(getattr(value, "py_func", value)) and not _outside(value.__module__):
            value = getattr(value, "py_func", value)  # a numba-compiled helper: its Python source
            if id(value) not in seen and not _hash_module_file(digest, value.__module__ or "__main__"):
                _hash_function(digest, value, seen)
        elif inspect.isclass(value) and not _outside(value.__module__):
            if id(value) in seen:  # a method naming its own class (or super()): hashed on this path
                digest.update(b"seen class\0" + value.__qualname__.encode())
            else:
                _hash_class(digest, value, seen)
        elif isinstance(value, (tuple, frozenset, MappingProxyType)):  # helpers held in a table of them
            items = (sorted(value.items(), key=lambda kv: repr(kv[0])) if isinstance(value, MappingProxyType)
                     else enumerate(sorted(value, key=_sort_key) if isinstance(value, frozenset) else value))
            digest.update(f"{type(value).__name__} of {len(value)}".encode())
            reads.extend((f"{name}[{key!r}]", item) for key, item in items)
        elif inspect.ismethod(value):  # a helper object's bound method: its function, its object
            reads.extend([(f"{name}.__func__", value.__func__), (f"{name}.__self__", value.__self__)])
        elif not _outside(type(value).__module__) and id(value) not in seen:  # a helper object of the script
            seen.add(id(value))
            if id(type(value)) not in seen:
                _hash_class(digest, type(value), seen)
            digest.update(_attributes_text(value).encode())
        elif isinstance(value, ModuleType) and not _outside(value.__name__):
            _hash_module_file(digest, value.__name__)
        else:
            digest.update(f"{type(value).__module__}.{type(value).__qualname__}".encode())
    _hash_modules_named(digest, fn.__code__)


def _closure(fn: Any) -> Iterator[tuple[Any, bool]]:
    """The values in a function's closure, each with whether the function assigns it (``nonlocal count;
    count += 1``, or a table filled on first use, ``None`` then a dict): state it keeps as it plays,
    which counts by its place only (by value, a method's own fingerprint changed as it played, and the
    same sweep run again was refused).  Cells not yet filled are left out."""
    kept = _kept_names(fn.__code__)
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or (), strict=True):
        with contextlib.suppress(ValueError):  # a cell not yet filled
            yield cell.cell_contents, name in kept


def _kept_names(code: CodeType) -> set[str]:
    """The free variables of ``code`` it assigns, itself or through code nested in it that takes them
    from it (not a nested function's own variable of the same name)."""
    names = {ins.argval for ins in dis.get_instructions(code) if ins.opname in _KEEPS}
    for const in code.co_consts:
        if isinstance(const, CodeType):
            names |= _kept_names(const)
    return names & set(code.co_freevars)


def _defaults_text(fn: Any) -> str:
    """A function's defaults, positional and keyword-only, by the rules of :func:`_value_text`."""
    defaults = [_value_text(v) for v in fn.__defaults__ or ()]
    defaults += [f"{k}={_value_text(v)}" for k, v in sorted((fn.__kwdefaults__ or {}).items())]
    return repr(defaults)


#: The instructions by which code reads a global name (not attribute names: ``obs.shape`` reads no global
#: ``shape``, and a Dask worker receives only the globals its code reads)...
_READS = frozenset({"LOAD_GLOBAL", "LOAD_NAME"})
#: ...and by which it assigns or deletes one: state it keeps as it plays (a counter), not a constant.
_STORES = frozenset({"STORE_GLOBAL", "DELETE_GLOBAL"})
#: The instructions by which code assigns a variable of an enclosing function (``nonlocal count``).
_KEEPS = frozenset({"STORE_DEREF", "DELETE_DEREF"})


def _global_names(code: CodeType, opnames: frozenset[str]) -> set[str]:
    """The global names ``code`` and the code nested in it use by the instructions ``opnames``."""
    names = {ins.argval for ins in dis.get_instructions(code) if ins.opname in opnames}
    for const in code.co_consts:
        if isinstance(const, CodeType):
            names |= _global_names(const, opnames)
    return names


def _hash_modules_named(digest: Any, code: CodeType) -> None:
    """The files of a plugin's own modules that ``code`` imports (``import helper`` in a function's body):
    the same bytes whether the module is imported yet or not."""
    for name in imported_in(code):
        file = module_file(name)
        if file is not None and not outside_path(file):
            digest.update(b"named\0" + name.encode() + b"\0" + read_source(file, name))


def _plain_text(value: Any) -> str | None:
    """A text that stands for an immutable ``value`` in every process: numbers (numpy's, fractions and
    decimals too), strings, bytes, ``None``, ranges, dates and durations, and tuples and frozensets of
    them (sorted); ``None`` for anything else."""
    if value is None or isinstance(value, (str, bytes, int, float, complex)):
        return repr(value)
    if isinstance(value, np.generic) and not isinstance(value, np.void):  # a numpy scalar: a number too
        return f"{type(value).__name__}({value.item()!r})"
    if isinstance(value, (fractions.Fraction, decimal.Decimal, range, datetime.date, datetime.time,
                          datetime.timedelta)):  # immutable, with a repr that says their value
        return repr(value)
    if isinstance(value, (tuple, frozenset)):
        parts = [_plain_text(v) for v in value]
        if any(p is None for p in parts):
            return None
        texts = [p for p in parts if p is not None]
        if isinstance(value, frozenset):
            return f"frozenset({', '.join(sorted(texts))})"
        return f"tuple({', '.join(texts)})"
    if isinstance(value, enum.Enum):  # a setting's name, and its value
        inner = _plain_text(value.value)
        return None if inner is None else f"{type(value).__qualname__}.{value.name}={inner}"
    if (dataclasses.is_dataclass(value) and not isinstance(value, type)
            and type(value).__dataclass_params__.frozen):  # type: ignore[attr-defined]
        fields = [(f.name, _plain_text(getattr(value, f.name))) for f in dataclasses.fields(value)]
        if any(text is None for _, text in fields):
            return None
        return f"{type(value).__qualname__}({', '.join(f'{k}={t}' for k, t in fields)})"
    if isinstance(value, MappingProxyType):  # a read-only mapping: how a method's table of settings counts
        items = [(_plain_text(k), _plain_text(v)) for k, v in value.items()]
        if any(k is None or v is None for k, v in items):
            return None
        return f"mapping({', '.join(sorted(f'{k}: {v}' for k, v in items))})"
    return None


def _outside(module: str | None) -> bool:
    """Module ``module`` is built in, sweeplab's, the standard library's or an installed package's
    (not a script's or notebook's (``__main__``) nor a plugin's own)."""
    if not module or module == "__main__":
        return False
    try:
        file = getattr(sys.modules.get(module), "__file__", None)
    except Exception:  # noqa: BLE001 - a lazy module whose __getattr__ raises: not a script's own
        return True
    return not isinstance(file, str) or outside_path(Path(file))


def _hash_module_file(digest: Any, module: str) -> bool:
    """Hash the source file of ``module`` and of the plugin's helper modules it takes names from; ``False``
    when it has none (``__main__``: a script's or notebook's code travels to Dask workers by value)."""
    file = None if module == "__main__" else getattr(sys.modules.get(module), "__file__", None)
    if file is None or not Path(file).is_file():
        return False
    digest.update(b"file\0" + read_source(Path(file), module))
    for name, helper in helper_modules(module):  # a plugin's own modules it takes code from
        digest.update(b"helper\0" + helper.name.encode() + b"\0" + read_source(helper, name))
    return True


def _hash_class_body(digest: Any, klass: type, seen: set[int]) -> None:
    """A class defined in a script or notebook: its functions (methods, static and class methods,
    properties) with what they read, as :func:`_hash_function` hashes a script's function (its helpers
    and constants too: an agent's ``guess`` calling a notebook helper), and its plain values (field
    defaults, constants), in name order."""
    for key, value in sorted(vars(klass).items()):
        if key in ("name", "__doc__", "__module__", "__qualname__", "__dict__", "__weakref__"):
            continue  # the name is the registry's (the points hold it); the rest says nothing of the play
        digest.update(key.encode() + b"\0")
        value = getattr(value, "__func__", value)  # staticmethod, classmethod
        parts = [value.fget, value.fset] if isinstance(value, property) else [value]
        for part in parts:
            part = _called_function(digest, part)  # a cached_property's, an lru_cache method's, a partial's
            code = getattr(part, "__code__", None)
            text = _plain_text(part)
            if inspect.isfunction(part) and id(part) not in seen:
                _hash_function(digest, part, seen)
            elif code is not None:
                _hash_code(digest, code)
            elif text is not None:  # a frozenset's repr has another order in another process
                digest.update(text.encode() + b"\0")
            else:
                digest.update(type(part).__qualname__.encode() + b"\0")


def _called_function(digest: Any, value: Any) -> Any:
    """The function a value read or held in a class body calls: a ``functools.cached_property``'s, what a
    ``functools.cache``/``lru_cache`` wrapper wraps, a ``partial``'s (its arguments hashed), else
    ``value``."""
    for _ in range(8):  # a few layers; never a wrapper loop
        if isinstance(value, functools.cached_property):
            value = value.func
        elif isinstance(value, functools.partial):
            digest.update(b"partial\0" + _partial_arguments(value).encode())
            value = value.func
        elif not inspect.isfunction(value) and callable(value) and inspect.isfunction(
                getattr(value, "__wrapped__", None)):
            digest.update(f"wrapper {type(value).__qualname__}".encode())
            value = value.__wrapped__
        else:
            break
    return value


def _hash_code(digest: Any, code: CodeType) -> None:
    digest.update(code.co_code + b"\0" + repr((code.co_names, code.co_varnames)).encode())
    for const in code.co_consts:
        if isinstance(const, CodeType):
            _hash_code(digest, const)
        else:  # a set literal is a frozenset constant: its repr's order changes from process to process
            digest.update(_value_text(const).encode() + b"\0")


def _value_text(value: Any) -> str:
    """:func:`_plain_text`, else a function's fingerprint, else the value's type (never an address)."""
    text = _plain_text(value)
    if text is not None:
        return text
    if inspect.isfunction(value) or isinstance(value, functools.partial):
        return "function " + function_fingerprint(value)
    return _type_text(value)


def _argument_text(value: Any, _inside: frozenset[int] = frozenset()) -> str:
    """A partial's argument: :func:`_value_text`, but lists, dicts, sets, arrays and pandas objects by
    their values too (what the partial was made with is a setting, ``methods=["rref", "trivial"]``, not
    state it keeps as it plays; by type only, a resume pooled the games of two lists).  A container
    holding itself counts as ``"itself"`` there."""
    if id(value) in _inside:
        return "itself"
    # (a tuple of plain values counts as _value_text has it)
    if isinstance(value, (list, set, dict, tuple)) and not (isinstance(value, tuple) and _plain_text(value)):
        inside = _inside | {id(value)}
        if isinstance(value, dict):
            texts = [f"{_argument_text(k, inside)}: {_argument_text(v, inside)}" for k, v in value.items()]
        else:
            texts = [_argument_text(v, inside) for v in value]
        if isinstance(value, (list, tuple)):
            return f"{type(value).__name__}({', '.join(texts)})"
        return f"{type(value).__name__}({', '.join(sorted(texts))})"  # a set's order varies by process
    if isinstance(value, np.ndarray) and value.dtype != object:
        return f"array {value.dtype.str} {value.shape} {hashlib.sha256(value.tobytes()).hexdigest()[:16]}"
    if isinstance(value, (pd.Series, pd.DataFrame)):  # its values, index and labels
        try:
            rows = pd.util.hash_pandas_object(value, index=True).to_numpy().tobytes()
        except TypeError:  # cells holding lists or dicts: their texts, row by row
            rows = _argument_text(value.to_dict("split"), _inside | {id(value)}).encode()
        labels = repr(list(value.columns) if isinstance(value, pd.DataFrame) else value.name).encode()
        return f"{type(value).__name__} {hashlib.sha256(rows + labels).hexdigest()[:16]}"
    return _value_text(value)


def _type_text(value: Any) -> str:
    return f"{type(value).__module__}.{type(value).__qualname__}"


@cache
def environment() -> dict[str, str]:
    """Python's version (major.minor) and those of :data:`OUTCOME_PACKAGES`, as a run records them.

    Examples
    --------
    >>> sorted(environment()) == sorted(("python",) + OUTCOME_PACKAGES)
    True
    """
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": f"{sys.version_info.major}.{sys.version_info.minor}"}
    for name in OUTCOME_PACKAGES:
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = "not installed"
    return out


def machine() -> dict[str, Any]:
    """The machine a run is timed on (its seconds depend on it): platform, processor and CPU count.

    Examples
    --------
    >>> sorted(machine())
    ['cpus', 'platform', 'processor']
    """
    import os
    import platform

    return {"platform": platform.platform(), "processor": platform.processor() or platform.machine(),
            "cpus": os.cpu_count()}


def version_differences(theirs: dict[str, str]) -> list[str]:
    """``"<package> <theirs> there, <ours> here"`` for each version in ``theirs`` that differs from
    :func:`environment` (empty when they agree).

    Examples
    --------
    >>> version_differences(environment())
    []
    >>> version_differences({"numpy": "0.1"})[0].startswith("numpy 0.1 there, ")
    True
    """
    ours = environment()
    return [f"{name} {v} there, {ours.get(name, 'not recorded')} here" for name, v in theirs.items()
            if ours.get(name, "not recorded") != v]


def check_same_code(manifest: dict[str, Any], path: Path) -> None:
    """Raise ``ValueError`` if the run in ``path`` was started by other sweeplab code, other code
    of a method it uses that is not sweeplab's own (see :func:`method_fingerprints`), or other
    versions of the packages that can change its games (:func:`environment`).

    A manifest written before fingerprints were recorded is refused too: nothing tells which code
    played its games.  One without versions passes their check, but its code fingerprint is older
    than any code that records them, so it is refused all the same.
    """
    changed = version_differences(manifest.get("environment") or {})
    if changed:
        raise ValueError(
            f"{path} was started with other versions of packages that can change its games "
            f"({'; '.join(changed)}); resuming would count games of two environments as one sample. "
            f"Choose another output directory, or install those versions to resume")
    theirs, mine = manifest.get("code"), code_fingerprint()
    if theirs is None:
        raise ValueError(
            f"{path} was started by sweeplab code from before runs recorded its fingerprint, so nothing "
            f"tells which code played its games; resuming could count games of two versions as one "
            f"sample. Choose another output directory, or delete this one to start again")
    if theirs != mine:
        raise ValueError(
            f"{path} was started by other sweeplab code (fingerprint {theirs} there, {mine} here: the "
            f"package changed since); resuming would count games of two versions as one sample. Choose "
            f"another output directory, or delete this one to start again")
    started = manifest.get("methods") or {}
    now = method_fingerprints(list(started))
    for name, fingerprint in started.items():
        if name not in now:
            raise ValueError(
                f"{path} was started with {fingerprint_subject(name)}, which is not registered here: import "
                f"the module that registers it first (on the command line, --plugin MODULE)")
        if now[name] != fingerprint:
            raise ValueError(
                f"{path} was started by other code of {fingerprint_subject(name)} (fingerprint {fingerprint} "
                f"there, {now[name]} here: its code, its file or one it imports, or a value it reads, "
                f"changed since); resuming would count games of two versions as one sample. Choose another "
                f"output directory, or delete this one to start again")
