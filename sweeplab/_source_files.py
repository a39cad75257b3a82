"""A plugin's source files, and whether the code in memory is still what they hold (for provenance).

A plugin's methods are fingerprinted by their module's file and those of its
helper modules.  A file edited under a running process (a notebook's kernel,
a long script, a Dask worker) is not the code that process runs: hashing it
would record the new code's fingerprint for games the old code plays, and a
later resume from a fresh process would mix the two.  So before a file is
hashed, :func:`check_current` compiles it and compares it with its module in
memory: every function and method the module defines (their bytecode, names
and constants, not their line numbers) and its top-level constants.  A module
reloaded after the edit (``importlib.reload``, IPython's autoreload) matches
again; one that was not refuses, and the process must restart, as for
sweeplab's own source (:func:`sweeplab.provenance.code_fingerprint`).
"""

from __future__ import annotations

import ast
import dis
import hashlib
import importlib.machinery
import inspect
import sys
import threading
from functools import cache, lru_cache
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any

#: sweeplab's own source directory (its code is fingerprinted whole, not as a plugin's).
PACKAGE_DIR = Path(__file__).resolve().parent

_PLAIN = (str, bytes, int, float, complex, bool, type(None))


def read_source(path: Path, module: str | None = None) -> bytes:
    """The bytes of a plugin's source ``path``; when its ``module`` is imported, checked to be the code
    in memory (:func:`check_current`).  ``None``: not imported yet, so the file is what an import loads."""
    data = path.read_bytes()
    loaded = sys.modules.get(module) if module is not None else None
    if loaded is not None:
        check_current(loaded, data)
    return data


def check_current(module: ModuleType, source: bytes | None = None) -> None:
    """Raise ``ValueError`` when ``module`` in memory is not what its source file (``source``: its bytes,
    read here when ``None``) now holds.

    Compared: the code of every function, method, property and nested function the
    module defines in that file (bytecode, names, constants; not line numbers, so
    moving code is no change), when the module was loaded from source by Python's
    own loader (an import hook may rewrite code: pytest's rewrites asserts), and
    every top-level constant (a number, string or tuple of them) the file assigns.
    A file that no longer compiles has changed too.
    """
    file = getattr(module, "__file__", None)
    if not isinstance(file, str) or not file.endswith(".py") or not Path(file).is_file():
        return
    data = Path(file).read_bytes() if source is None else source
    stale = _stale_part(module, file, data)
    if stale:
        raise ValueError(
            f"{file} (module {module.__name__!r}) changed since this process imported it ({stale}): this "
            f"process still runs the code it imported, and its games would be recorded as the new code's. "
            f"Reload the module (importlib.reload), or restart the process (in Jupyter: restart the kernel), "
            f"and run again")


def _stale_part(module: ModuleType, file: str, data: bytes) -> str:
    """What of ``module`` differs from the source ``data`` of its ``file`` ("" when nothing does)."""
    parsed = _parsed(file, data)
    if parsed is None:
        return "the file no longer compiles"
    compiled, tree = parsed
    loader = getattr(getattr(module, "__spec__", None), "loader", None)
    if type(loader) is importlib.machinery.SourceFileLoader:  # another loader may rewrite the code (pytest's)
        in_file: dict[str, set[str]] = {}
        for code in _codes(compiled):
            in_file.setdefault(code.co_qualname, set()).add(_code_text(code))
        for code in _module_codes(module, file):
            if _code_text(code) not in in_file.get(code.co_qualname, ()):
                return f"{code.co_qualname} differs"
    scope = vars(module)
    for name, value in _literal_constants(tree):
        if name in scope and _plain(scope[name]) and _plain(value) and scope[name] != value:
            return f"{name} differs"
    return ""


#: CPython 3.11's parser keeps its recursion count per interpreter: two threads parsing at once (a Dask
#: worker's threads) fail with "AST constructor recursion depth mismatch".
_PARSING = threading.Lock()


@lru_cache(maxsize=256)
def _parsed(file: str, data: bytes) -> tuple[CodeType, ast.Module] | None:
    """The code and syntax tree of the source ``data`` of ``file`` (``None``: it does not compile)."""
    with _PARSING:
        try:
            return compile(data, file, "exec", dont_inherit=True), ast.parse(data)
        except (SyntaxError, ValueError):
            return None


def _codes(code: CodeType):
    """``code`` and every code object nested in it."""
    yield code
    for const in code.co_consts:
        if isinstance(const, CodeType):
            yield from _codes(const)


def _module_codes(module: ModuleType, file: str):
    """The code objects of the functions ``module`` defines in ``file``: its functions, its classes'
    functions, methods, properties, and their nested code."""
    seen: set[int] = set()
    todo: list[Any] = list(vars(module).values())
    while todo:
        value = todo.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        if isinstance(value, (staticmethod, classmethod)):
            todo.append(value.__func__)
        elif isinstance(value, property):
            todo += [part for part in (value.fget, value.fset, value.fdel) if part is not None]
        elif inspect.isclass(value):
            if value.__module__ == module.__name__:
                todo += list(vars(value).values())
        elif callable(value):
            function = getattr(value, "py_func", value)  # a numba-compiled function: its Python source
            try:
                function = inspect.unwrap(function)
            except ValueError:  # a cycle of __wrapped__
                continue
            code = getattr(function, "__code__", None)
            if isinstance(code, CodeType) and code.co_filename == file:
                yield code


def _code_text(code: CodeType) -> str:
    """A hash of ``code`` without line numbers: bytecode, names, and constants (nested code in turn)."""
    digest = hashlib.sha256(code.co_code)
    digest.update(repr((code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars)).encode())
    for const in code.co_consts:
        digest.update((_code_text(const) if isinstance(const, CodeType) else repr(const)).encode() + b"\0")
    return digest.hexdigest()


def _literal_constants(tree: ast.Module):
    """``(name, value)`` of the file's top-level assignments of a literal to one name."""
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, ast.AnnAssign) and node.value is not None else [])
        if len(targets) == 1 and isinstance(targets[0], ast.Name):
            try:
                yield targets[0].id, ast.literal_eval(node.value)  # type: ignore[attr-defined,arg-type]
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue


def _plain(value: Any) -> bool:
    """An immutable value of numbers and strings (a list or dict may be filled as the module runs)."""
    if isinstance(value, _PLAIN):
        return True
    return isinstance(value, (tuple, frozenset)) and all(_plain(v) for v in value)


def helper_modules(module: str) -> list[tuple[str, Path]]:
    """The imported modules ``module`` takes names from or imports (``import x``, ``from x import y``,
    anywhere in its file), directly or through one another, that are neither sweeplab's, the standard
    library's nor an installed package's (a plugin's helper modules), with their files, in file order."""
    seen, todo, found = {module}, [module], []
    while todo:
        current = sys.modules[todo.pop()]
        names: set[Any] = set(_imported_names(current))
        for value in list(vars(current).values()):
            try:
                name = value.__name__ if isinstance(value, ModuleType) else getattr(value, "__module__", "")
                names.add(name)
            except Exception:  # noqa: BLE001 - an odd object (a lazy proxy) names no module
                continue
        for name in sorted(n for n in names if isinstance(n, str)):
            if name in seen or name not in sys.modules:
                continue
            seen.add(name)
            file = getattr(sys.modules[name], "__file__", None)
            path = None if not isinstance(file, str) else Path(file).resolve()
            if path is None or path.suffix != ".py" or outside_path(path):
                continue
            found.append((name, path))
            todo.append(name)
    return sorted(found, key=lambda pair: pair[1])


def _imported_names(module: ModuleType) -> list[str]:
    """The modules the file of ``module`` imports, relative imports resolved (``from a import b``: ``a``
    and ``a.b``, which may be a module)."""
    file = getattr(module, "__file__", None)
    if not isinstance(file, str) or not file.endswith(".py"):
        return []
    try:
        parsed = _parsed(file, Path(file).read_bytes())
    except OSError:
        return []
    if parsed is None:
        return []
    tree = parsed[1]
    package = module.__package__ or ""
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".") if package else []
                parts = parts[: len(parts) - node.level + 1] if node.level > 1 else parts
                base = ".".join([*parts, *([base] if base else [])])
            if base:
                names += [base] + [f"{base}.{alias.name}" for alias in node.names]
    return names


def imported_in(code: CodeType) -> list[str]:
    """The top-level modules ``code`` (and the code nested in it) imports (``import x`` in a body)."""
    names = []
    for inner in _codes(code):
        names += [str(i.argval).split(".")[0] for i in dis.get_instructions(inner)
                  if i.opname == "IMPORT_NAME"]
    return sorted(set(names))


def outside_path(path: Path) -> bool:
    """``path`` is sweeplab's, the standard library's or an installed package's."""
    path = path.resolve()
    return any(path.is_relative_to(o) for o in _outside_roots())


@cache
def _outside_roots() -> tuple[Path, ...]:
    return tuple({Path(p).resolve() for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}) + (PACKAGE_DIR,)
