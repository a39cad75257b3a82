"""A plugin's source files, and whether the code in memory is still what they hold (for provenance).

A plugin's methods are fingerprinted by their module's file and those of its
helper modules.  A file edited under a running process (a notebook's kernel,
a long script, a Dask worker) is not the code that process runs: hashing it
would record the new code's fingerprint for games the old code plays, and a
later resume from a fresh process would mix the two.  So before a file is
hashed, :func:`check_current` compiles it and compares it with its module in
memory: every function and method the module defines (their bytecode, names
and constants, not their line numbers), their literal defaults and its literal
constants.  A module reloaded after the edit (``importlib.reload``, IPython's
autoreload) matches again; one that was not refuses, and the process must
restart, as for sweeplab's own source
(:func:`sweeplab.provenance.code_fingerprint`).  :func:`check_code` checks the
function a registry holds the same way: a reload can leave it the old one.
"""

from __future__ import annotations

import ast
import copy
import dis
import hashlib
import importlib.machinery
import importlib.util
import inspect
import operator
import sys
import threading
from collections import Counter
from collections.abc import Mapping
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
    own loader (an import hook may rewrite code: pytest's rewrites asserts); the
    literal defaults of its functions and methods; every literal constant (numbers,
    strings, tuples of them, or arithmetic on them) it binds once at module level (in
    ``if``, ``try`` and ``with`` blocks too) or in a class body (a name
    set twice, or declared ``global``, may rightly hold another value); and each
    name it takes with ``from helper import name`` from a helper of its own, which
    must still be the helper's.  A file that no longer compiles has changed too.
    Arithmetic and subscripts on literals (``2 * 10``, ``CHAIN[:1]``) count as literals, and so does a
    helper's constant (``hconf.CHAIN``, as the helper now holds it); other values computed at
    import (a call, a ``partial``) are not compared.
    """
    file = getattr(module, "__file__", None)
    if not isinstance(file, str) or not file.endswith(".py") or not Path(file).is_file():
        return
    data = Path(file).read_bytes() if source is None else source
    stale = _stale_part(module, file, data)
    if stale:
        raise ValueError(
            f"{file} (module {module.__name__!r}) is not what this process runs ({stale}): the file changed "
            f"since this process imported it, or a value of the module was set in memory "
            f"({module.__name__}.NAME = ...), not in its file, which a fresh process (a resume, a worker) "
            f"may not have; its games would be recorded as the file's code. A setting belongs in an agent's "
            f"or a method's options, which a run records. Otherwise restart the process (in Jupyter: "
            f"restart the kernel) and run again; or reload the module (importlib.reload) and register "
            f"again, with replace=True, each method or agent it registers")


def _stale_part(module: ModuleType, file: str, data: bytes) -> str:
    """What of ``module`` differs from the source ``data`` of its ``file`` ("" when nothing does)."""
    parsed = _parsed(file, data)
    if parsed is None:
        return "the file no longer compiles"
    compiled, tree = parsed
    if _loaded_from_source(module):
        in_file = _file_codes(compiled)
        for code in _module_codes(module, file):
            if _code_text(code) not in in_file.get(code.co_qualname, ()):
                return f"{code.co_qualname} differs"
    scope = vars(module)
    helpers = _helpers_in(scope)
    after = f" (reload {module.__name__!r} after its helpers)" if helpers else ""
    differs = _differing_constant(scope, tree.body, helpers=helpers)
    if differs:
        return f"{differs} differs{after}"
    once = _classes_defined_once(tree)
    for node in tree.body:  # class attributes and dataclass field defaults written as literals
        if not isinstance(node, ast.ClassDef) or node.name not in once:  # a name defined twice: which?
            continue
        held_class = scope.get(node.name)
        if inspect.isclass(held_class) and held_class.__module__ == module.__name__:
            differs = _differing_constant(_class_values(held_class), node.body, helpers=helpers)
            if differs:
                return f"{node.name}.{differs} differs{after}"
    for qualname, defaults in _literal_defaults(tree):
        function = _unwrapped(_lookup(scope, qualname))
        code = getattr(function, "__code__", None)
        if code is None or code.co_qualname != qualname:  # a decorator's own function stands there
            continue
        held = _defaults_of(function)
        if held is not None and held != defaults:
            return f"the defaults of {qualname} differ"
    for here, source, there in _from_imports(module, tree):
        if here in scope and hasattr(source, there) and not _same(scope[here], getattr(source, there)):
            return f"{here} is not {source.__name__}.{there} (reload {module.__name__!r} too)"
    return ""


def check_code(function: Any) -> None:
    """Raise ``ValueError`` when the code of ``function`` (what a registry holds: a method, or each
    function of an agent class) is not in its file as it now is: a module reloaded after an edit can
    leave the registry holding the old function (a guarded or separate registration)."""
    if not _loaded_from_source(sys.modules.get(getattr(function, "__module__", "") or "")):
        return
    held = _defaults_of(_unwrapped(function))  # a function's own defaults (a class has none)
    files: dict[str, tuple[dict[str, set[str]], dict[str, tuple]]] = {}
    for code in _function_codes(function):
        if code.co_filename not in files:  # each file read and hashed once, not once per method
            if not code.co_filename.endswith(".py") or not Path(code.co_filename).is_file():
                continue
            parsed = _parsed(code.co_filename, Path(code.co_filename).read_bytes())
            files[code.co_filename] = ({}, {}) if parsed is None else (_file_codes(parsed[0]),
                                                                        dict(_literal_defaults(parsed[1])))
        in_file, written = files[code.co_filename]
        defaults_differ = (held is not None and code.co_qualname in written
                           and held != written[code.co_qualname])
        if _code_text(code) not in in_file.get(code.co_qualname, ()) or defaults_differ:
            _refuse_stale(code.co_filename, code.co_qualname)
    if inspect.isclass(function):
        _check_class_values(function)


def _check_class_values(klass: type) -> None:
    """Raise as :func:`check_code` does when a literal attribute or dataclass field default of ``klass``
    (an option's default) is not what its file's class body gives."""
    file = getattr(sys.modules.get(klass.__module__), "__file__", None)
    if not (isinstance(file, str) and file.endswith(".py") and Path(file).is_file()):
        return
    parsed = _parsed(file, Path(file).read_bytes())
    if parsed is None or klass.__qualname__.split(".")[0] not in _classes_defined_once(parsed[1]):
        return
    body = _class_body(parsed[1], klass.__qualname__)
    if body is None:
        return
    # a default given by a module constant (CHAIN, DEPTH + 1) compares with the constant in the file, and
    # one of a helper module (hconf.CHAIN) with the helper's (a reloaded helper leaves this class old)
    differs = _differing_constant(_class_values(klass), body, names=dict(_literal_constants(parsed[1])),
                                  helpers=_helpers_in(vars(sys.modules[klass.__module__])))
    if differs:
        _refuse_stale(file, f"{klass.__qualname__}.{differs}")


def _classes_defined_once(tree: ast.Module) -> set[str]:
    """The class names ``tree`` defines once, at its top level, and binds nowhere else (a class made in a
    loop, or a name defined twice, holds other values than one of its bodies says)."""
    bound = Counter(n.name if isinstance(n, ast.ClassDef) else n.id for n in ast.walk(tree)
                    if isinstance(n, ast.ClassDef)
                    or (isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)))
    return {n.name for n in tree.body if isinstance(n, ast.ClassDef) and bound[n.name] == 1}


def _class_values(klass: type) -> dict[str, Any]:
    """``klass``'s own attributes, its dataclass fields' defaults among them (a ``slots=True`` dataclass
    keeps them there only, not as class attributes)."""
    values = dict(vars(klass))
    values.update((name, f.default) for name, f in vars(klass).get("__dataclass_fields__", {}).items())
    return values


def _refuse_stale(file: str, qualname: str) -> None:
    raise ValueError(
        f"{file}: the registered {qualname} is not what the file now holds: this process plays the code "
        f"registered before the file changed. Register it again (replace=True) after reloading its module, "
        f"or restart the process, and run again")


def _class_body(tree: ast.Module, qualname: str) -> list[ast.stmt] | None:
    """The statements of the class ``qualname`` (``Outer.Inner`` too) in ``tree``; ``None`` when the file
    does not define it there (a class made in a function)."""
    body: list[ast.stmt] = tree.body
    for part in qualname.split("."):
        found = [n for n in body if isinstance(n, ast.ClassDef) and n.name == part]
        if len(found) != 1:
            return None
        body = found[0].body
    return body


def _function_codes(obj: Any) -> list[CodeType]:
    obj = inspect.unwrap(obj)
    if inspect.isclass(obj):
        return [c for value in vars(obj).values() for c in _function_codes(value)
                if c.co_qualname.startswith(obj.__qualname__ + ".")]
    if isinstance(obj, (staticmethod, classmethod)):
        return _function_codes(obj.__func__)
    if isinstance(obj, property):
        parts = [part for part in (obj.fget, obj.fset, obj.fdel) if part is not None]
        return [c for part in parts for c in _function_codes(part)]
    code = getattr(getattr(obj, "py_func", obj), "__code__", None)
    return [code] if isinstance(code, CodeType) else []


def _loaded_from_source(module: ModuleType | None) -> bool:
    """``module`` was loaded from its source by Python's own loader, so compiling the file gives its code
    (another loader may rewrite it: pytest's rewrites asserts)."""
    loader = getattr(getattr(module, "__spec__", None), "loader", None)
    return type(loader) is importlib.machinery.SourceFileLoader


def _differing_constant(scope: Mapping[str, Any], body: list[ast.stmt], *,
                        names: Mapping[str, Any] | None = None,
                        helpers: Mapping[str, ModuleType] | None = None) -> str:
    """The first literal constant ``body`` binds (:func:`_literal_constants`; a name of ``names``, the
    file's own constants, or a constant of ``helpers``, counts as its value) that ``scope`` holds with
    another plain value ("" when none)."""
    for name, value in _literal_constants(ast.Module(body=body, type_ignores=[]), names=names,
                                          helpers=helpers):
        if name in scope and _plain(scope[name]) and _plain(value) and scope[name] != value:
            return name
    return ""


def _file_codes(compiled: CodeType) -> dict[str, set[str]]:
    """The hashes of the code objects a compiled file holds, by qualified name."""
    in_file: dict[str, set[str]] = {}
    for code in _codes(compiled):
        in_file.setdefault(code.co_qualname, set()).add(_code_text(code))
    return in_file


def _lookup(scope: dict[str, Any], qualname: str) -> Any:
    value: Any = scope.get(qualname.split(".")[0])
    for part in qualname.split(".")[1:]:
        value = vars(value).get(part) if inspect.isclass(value) else None
    return getattr(value, "__func__", value)


def _unwrapped(function: Any) -> Any:
    try:
        return inspect.unwrap(getattr(function, "py_func", function))
    except ValueError:  # a cycle of __wrapped__
        return None


def _defaults_of(function: Any) -> tuple | None:
    function = getattr(function, "py_func", function)
    if not inspect.isfunction(function):
        return None
    kw = function.__kwdefaults__ or {}
    return tuple(function.__defaults__ or ()) + tuple(sorted(kw.items()))


def _literal_defaults(tree: ast.Module):
    """``(qualname, defaults)`` of the top-level functions and top-level classes' methods whose
    defaults are all literal (as :func:`_defaults_of` gives them)."""
    todo = [(node, "") for node in tree.body]
    for node, prefix in todo:
        if isinstance(node, ast.ClassDef) and not prefix:
            todo += [(inner, node.name + ".") for inner in node.body]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            try:
                positional = tuple(ast.literal_eval(d) for d in args.defaults)
                keywords = tuple(sorted((a.arg, ast.literal_eval(d)) for a, d in zip(args.kwonlyargs,
                                        args.kw_defaults, strict=True) if d is not None))
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue
            if all(_plain(v) for v in positional) and all(_plain(v) for _, v in keywords):
                yield prefix + node.name, positional + keywords


def _from_imports(module: ModuleType, tree: ast.Module):
    """``(name here, module, name there)`` of the top-level ``from x import y`` of ``module`` whose ``x``
    is a plugin's own module in memory (a constant taken from a helper stays old when only the helper is
    reloaded)."""
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            base = _resolve(module, node.module, node.level)
            source = sys.modules.get(base) if base else None
            file = getattr(source, "__file__", None)
            if source is None or not isinstance(file, str) or outside_path(Path(file)):
                continue
            for alias in node.names:
                if alias.name != "*" and not isinstance(getattr(source, alias.name, None), ModuleType):
                    yield alias.asname or alias.name, source, alias.name


def _same(here: Any, there: Any) -> bool:
    """The same object, or functions of the same code and defaults (IPython's autoreload patches a
    function's code in place, and a copy bound elsewhere then differs only by identity)."""
    if here is there:
        return True
    if inspect.isfunction(here) and inspect.isfunction(there):
        return (_code_text(here.__code__) == _code_text(there.__code__)
                and _defaults_of(here) == _defaults_of(there))
    return False


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
        if isinstance(const, CodeType):
            text = _code_text(const)
        elif isinstance(const, frozenset):  # a set literal: its order follows string hashes and history
            text = "frozenset(" + ", ".join(sorted(map(repr, const))) + ")"
        else:
            text = repr(const)
        digest.update(text.encode() + b"\0")
    return digest.hexdigest()


def _literal_constants(tree: ast.Module, *, names: Mapping[str, Any] | None = None,
                       helpers: Mapping[str, ModuleType] | None = None):
    """``(name, value)`` of the file's top-level assignments of a literal to a name bound nowhere else in
    the file and never declared ``global`` (a name set twice, or counted in a function, may rightly
    hold another value than its first); with ``names``, an assignment of one of them (a class field
    ``methods = CHAIN``) counts as one of its value, and with ``helpers`` one of a helper module's
    constant (``methods = hconf.CHAIN``)."""
    stores: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            stores[node.id] = stores.get(node.id, 0) + 1
        elif isinstance(node, ast.Global):
            for name in node.names:
                stores[name] = stores.get(name, 0) + 2
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stores[node.name] = stores.get(node.name, 0) + 1
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                stores[bound] = stores.get(bound, 0) + 1
    for node in _module_level(tree.body):
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, ast.AnnAssign) and node.value is not None else [])
        if len(targets) == 1 and isinstance(targets[0], ast.Name) and stores.get(targets[0].id) == 1:
            value = _field_default(node.value)  # type: ignore[attr-defined]
            if names or helpers:  # the constants in place of their names (DEPTH + 1, hconf.CHAIN[:1]), in
                # a copy: the tree is cached, and a helper's values change with its reloads
                value = _NameValues(names or {}, helpers or {}).visit(copy.deepcopy(value))
            try:
                yield targets[0].id, _constant(value)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue


class _NameValues(ast.NodeTransformer):
    """Names of plain constants, and a helper module's plain constants (``hconf.CHAIN``), replaced by
    their values, so that :func:`_constant` reads the expression."""

    def __init__(self, names: Mapping[str, Any], helpers: Mapping[str, ModuleType]) -> None:
        self.names = names
        self.helpers = helpers

    def visit_Name(self, node: ast.Name) -> ast.expr:  # noqa: N802 - ast's visitor protocol
        value = self.names.get(node.id, _MISSING)
        return ast.Constant(value) if value is not _MISSING and _plain(value) else node

    def visit_Attribute(self, node: ast.Attribute) -> ast.expr:  # noqa: N802
        helper = self.helpers.get(node.value.id) if isinstance(node.value, ast.Name) else None
        value: Any = getattr(helper, node.attr, _MISSING) if helper is not None else _MISSING
        return ast.Constant(value) if value is not _MISSING and _plain(value) else node


def _helpers_in(scope: Mapping[str, Any]) -> dict[str, ModuleType]:
    """The plugin's own modules ``scope`` binds by name (``import hconf``): their constants as they are
    in memory, reloaded after an edit or checked against their files (:func:`check_current`)."""
    out = {}
    for name, value in scope.items():
        file = getattr(value, "__file__", None) if isinstance(value, ModuleType) else None
        if isinstance(file, str) and not outside_path(Path(file)):
            out[name] = value
    return out


_MISSING = object()


def _field_default(node: ast.expr) -> ast.expr:
    """The ``default=`` of a dataclass ``field(default=...)`` call (what the class attribute holds), else
    ``node``."""
    if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "field":
        return next((k.value for k in node.keywords if k.arg == "default"), node)
    return node


def _module_level(body: list[ast.stmt]):
    """The statements of ``body``, and of the ``if``, ``try`` and ``with`` blocks in it (not of functions or
    classes): what runs at the module's own level."""
    for node in body:
        yield node
        if isinstance(node, (ast.If, ast.Try, ast.With)):
            inner = [*node.body, *getattr(node, "orelse", []), *getattr(node, "finalbody", [])]
            inner += [stmt for handler in getattr(node, "handlers", []) for stmt in handler.body]
            yield from _module_level(inner)


_OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
              ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow}


def _constant(node: ast.expr) -> Any:
    """The value of a literal, or of arithmetic on literals (``2 * 10``, ``1 / 3``, ``"a" + "b"``), kept
    small (a power of at most 64 on numbers below 2**64, a repetition of at most 10,000 items);
    ``ValueError`` for anything else."""
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left, right = _constant(node.left), _constant(node.right)
        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (left, right))
        if isinstance(node.op, ast.Pow) and not (numbers and abs(right) <= 64 and abs(left) < 2**64):
            raise ValueError("too large a power")
        if isinstance(node.op, ast.Mult) and not numbers:  # a repetition: "ab" * 3, (0,) * 5
            count, items = (left, right) if isinstance(left, int) else (right, left)
            if not isinstance(count, int) or not hasattr(items, "__len__") or count * len(items) > 10_000:
                raise ValueError("too long a repetition")
        try:
            return _OPERATORS[type(node.op)](left, right)
        except (ArithmeticError, TypeError) as exc:
            raise ValueError(str(exc)) from None
    if isinstance(node, ast.Subscript):  # CHAIN[:1], NAMES[0]
        value = _constant(node.value)
        part = node.slice
        key = (slice(*(None if p is None else _constant(p) for p in (part.lower, part.upper, part.step)))
               if isinstance(part, ast.Slice) else _constant(part))
        if not isinstance(value, (tuple, str, bytes)):
            raise ValueError("not a sequence")
        try:
            return value[key]
        except (IndexError, TypeError) as exc:
            raise ValueError(str(exc)) from None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _constant(node.operand)
        if not isinstance(value, (int, float, complex)):
            raise ValueError("not a number")
        return -value if isinstance(node.op, ast.USub) else value
    return ast.literal_eval(node)


def _plain(value: Any) -> bool:
    """An immutable value of numbers and strings (a list or dict may be filled as the module runs)."""
    if isinstance(value, _PLAIN):
        return True
    return isinstance(value, (tuple, frozenset)) and all(_plain(v) for v in value)


def helper_modules(module: str) -> list[tuple[str, Path]]:
    """The modules ``module`` imports (``import x``, ``from x import y``, anywhere in its file, function
    bodies included) or takes names from, directly or through one another, that are neither sweeplab's,
    the standard library's nor an installed package's (a plugin's helper modules; an installed plugin
    package's own submodules too), with their files, in file order.  Found from the files, imported yet
    or not, so the list is the same before and after a method's first call imports one."""
    seen, todo, found = {module}, [module], []
    # an installed plugin package's own submodules count too (a package that imports sweeplab: not
    # pandas, whose modules count by its version)
    top = module.split(".")[0]
    imports_sweeplab = "sweeplab" in {*_imported_names(top), *_imported_names(module)}
    package = top if top != "sweeplab" and imports_sweeplab else None
    while todo:
        current = todo.pop()
        names: set[str] = set(_imported_names(current))
        loaded = sys.modules.get(current)
        for value in list(vars(loaded).values()) if loaded is not None else ():
            try:
                name = value.__name__ if isinstance(value, ModuleType) else getattr(value, "__module__", "")
            except Exception:  # noqa: BLE001 - an odd object (a lazy proxy) names no module
                continue
            if isinstance(name, str) and name in sys.modules:
                names.add(name)
        for name in sorted(names - seen):
            seen.add(name)
            # never import an outside package to find a submodule
            ours = name.split(".")[0] == package
            path = module_file(name) if ours or _own_package(name.split(".")[0]) else None
            if path is None or (outside_path(path) and not ours):
                continue
            found.append((name, path))
            todo.append(name)
    return sorted(found, key=lambda pair: pair[1])


def _own_package(top: str) -> bool:
    """The top-level module or package ``top`` is a plugin's own (not sweeplab's, the standard library's
    or an installed package's): by its file, or for a folder without ``__init__.py`` (a namespace
    package), by its folders."""
    path = module_file(top)
    if path is not None:
        return not outside_path(path)
    try:
        loaded = sys.modules.get(top)
        if loaded is not None:
            folders = list(getattr(loaded, "__path__", None) or [])
        else:
            spec = importlib.util.find_spec(top) if top.isidentifier() else None
            folders = list(spec.submodule_search_locations or []) if spec is not None else []
    except Exception:  # noqa: BLE001 - a finder's error: nothing of its own to hash
        return False
    return bool(folders) and not any(outside_path(Path(folder)) for folder in folders)


def module_file(name: str) -> Path | None:
    """The ``.py`` file of module ``name``, imported or not (a dotted name imports its parents to be found);
    ``None`` without one."""
    try:
        module = sys.modules.get(name)
        origin = getattr(module, "__file__", None) if module is not None else None
        if module is None and all(part.isidentifier() for part in name.split(".")):
            spec = importlib.util.find_spec(name)
            origin = spec.origin if spec is not None else None
    except Exception:  # noqa: BLE001 - a lazy module's __getattr__, a finder's error: no file to hash
        return None
    path = Path(origin).resolve() if isinstance(origin, str) and origin.endswith(".py") else None
    return path if path is not None and path.is_file() else None


def _resolve(module: ModuleType | str, name: str | None, level: int) -> str:
    """The absolute name of ``from <level dots><name> import ...`` written in ``module``."""
    if not level:
        return name or ""
    if isinstance(module, str):
        loaded = sys.modules.get(module)
        package = (getattr(loaded, "__package__", None) if loaded is not None else None) or (
            module if _is_package(module) else module.rpartition(".")[0])
    else:
        package = module.__package__ or ""
    parts = package.split(".") if package else []
    parts = parts[: len(parts) - level + 1] if level > 1 else parts
    return ".".join([*parts, *([name] if name else [])])


def _is_package(module: str) -> bool:
    path = module_file(module)
    return path is not None and path.name == "__init__.py"


def _imported_names(module: str) -> list[str]:
    """The modules the file of ``module`` imports anywhere (``from a import b``: ``a`` and ``a.b``, which
    may be a module), relative imports resolved."""
    file = module_file(module)
    if file is None:
        return []
    try:
        parsed = _parsed(str(file), file.read_bytes())
    except OSError:
        return []
    if parsed is None:
        return []
    names = []
    for node in ast.walk(parsed[1]):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, node.module, node.level)
            if base:
                names += [base] + [f"{base}.{alias.name}" for alias in node.names if alias.name != "*"]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            target = node.args[0].value
            if called in _IMPORTERS and isinstance(target, str):  # import_module("helper"), (".helper", pkg)
                dots = len(target) - len(target.lstrip("."))
                base = _resolve(module, target[dots:] or None, dots) if dots else target
                if base:
                    names.append(base)
    return names


#: Functions that import a module named by a string: ``importlib.import_module("helper")``.
_IMPORTERS = frozenset({"import_module", "__import__"})


def imported_in(code: CodeType) -> list[str]:
    """The top-level modules ``code`` (and the code nested in it) imports (``import x`` in a body, or
    ``importlib.import_module("x")``: the string constants of code that calls an importer by name)."""
    names = []
    for inner in _codes(code):
        names += [str(i.argval).split(".")[0] for i in dis.get_instructions(inner)
                  if i.opname == "IMPORT_NAME"]
        if _IMPORTERS & set(inner.co_names):
            names += [c.split(".")[0] for c in inner.co_consts
                      if isinstance(c, str) and c and all(part.isidentifier() for part in c.split("."))]
    return sorted(set(names))


def outside_path(path: Path) -> bool:
    """``path`` is sweeplab's, the standard library's or an installed package's."""
    path = path.resolve()
    return any(path.is_relative_to(o) for o in _outside_roots())


@cache
def _outside_roots() -> tuple[Path, ...]:
    return tuple({Path(p).resolve() for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}) + (PACKAGE_DIR,)
