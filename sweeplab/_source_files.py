"""The source files of plugins as this process loaded them (for :mod:`sweeplab.provenance`).

A plugin's methods are fingerprinted by their module's file, and that of its
helper modules.  A file edited under a running process (a notebook's kernel,
a long script) is not the code that process runs: hashing it would record the
new code's fingerprint for games the old code plays, and a later resume from a
fresh process would mix the two.  So each file is noted as it was when the
registry saw it (a plugin registers its methods as it is imported), or when
first read while its module was imported, and a file that changed since
refuses to be read: the process must restart, as for sweeplab's own source
(:func:`sweeplab.provenance.code_fingerprint`).  This module imports nothing
of sweeplab, so that the registries can call it.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

#: sweeplab's own source directory (its code is fingerprinted whole, not as a plugin's).
PACKAGE_DIR = Path(__file__).resolve().parent

#: Each plugin source file's module object and hash as this process loaded it (a module imported anew,
#: after it was dropped from ``sys.modules``, is another object: its file is noted afresh).
_LOADED: dict[Path, tuple[ModuleType, str]] = {}


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def note_registered(obj: object) -> None:
    """:func:`note_module` of the module that defines a registered method or agent (a function, a partial,
    a callable object or a class)."""
    obj = inspect.unwrap(obj)  # type: ignore[arg-type]
    while isinstance(obj, functools.partial):
        obj = obj.func
    holder = obj if inspect.isfunction(obj) or inspect.isclass(obj) else type(obj)
    module = getattr(holder, "__module__", None)
    if isinstance(module, str) and module != "__main__":
        note_module(module)


def note_module(module: str) -> None:
    """Note the files of ``module`` and of its helper modules as they are now (called on registration,
    which a plugin does as it is imported; registering again, after a reload, notes them again)."""
    loaded = sys.modules.get(module)
    file = getattr(loaded, "__file__", None) if loaded is not None else None
    paths = [] if file is None or not Path(file).is_file() else [Path(file).resolve()]
    if not paths or outside_path(paths[0]):
        return
    for name, path in [(module, paths[0]), *helper_modules(module)]:
        _LOADED[path] = (sys.modules[name], _digest(path.read_bytes()))


def read_source(path: Path, module: str | None = None) -> bytes:
    """The bytes of a plugin's source ``path``, checked against the file this process loaded.

    ``module`` is the file's module when it is imported (``None``: not yet, so the
    file on disk is what an import will load, and nothing is noted).

    Raises
    ------
    ValueError
        When the file changed since this process loaded its module.
    """
    data = path.read_bytes()
    loaded = sys.modules.get(module) if module is not None else None
    if loaded is None:
        return data
    now = _digest(data)
    held, then = _LOADED.get(path.resolve(), (None, None))
    if held is not loaded:
        _LOADED[path.resolve()] = (loaded, now)
    elif then != now:
        raise ValueError(
            f"{path} (module {module!r}) changed since this process imported it: this process still runs "
            f"the code it imported, and its games would be recorded as the new code's. Restart it (in "
            f"Jupyter: restart the kernel) and run again")
    return data


def helper_modules(module: str) -> list[tuple[str, Path]]:
    """The modules ``module`` takes names from, directly or through one another, that are neither
    sweeplab's, the standard library's nor an installed package's (a plugin's helper modules), with
    their source files, in file order."""
    seen, todo, found = {module}, [module], []
    while todo:
        for value in list(vars(sys.modules[todo.pop()]).values()):
            try:
                name = value.__name__ if isinstance(value, ModuleType) else getattr(value, "__module__", None)
            except Exception:  # noqa: BLE001 - an odd object (a lazy proxy) names no module
                continue
            if not isinstance(name, str) or name in seen or name not in sys.modules:
                continue
            seen.add(name)
            file = getattr(sys.modules[name], "__file__", None)
            path = None if file is None else Path(file).resolve()
            if path is None or path.suffix != ".py" or outside_path(path):
                continue
            found.append((name, path))
            todo.append(name)
    return sorted(found, key=lambda pair: pair[1])


def outside_path(path: Path) -> bool:
    """``path`` is sweeplab's, the standard library's or an installed package's."""
    path = path.resolve()
    return any(path.is_relative_to(o) for o in _outside_roots())


@cache
def _outside_roots() -> tuple[Path, ...]:
    return tuple({Path(p).resolve() for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}) + (PACKAGE_DIR,)
