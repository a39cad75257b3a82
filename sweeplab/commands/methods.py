"""``sweeplab methods``: the deduction methods, and one method's options.

Examples::

    sweeplab methods               # every method: sound, complete, what it does
    sweeplab methods gfp           # gfp's options, their defaults and what they do

Options go to ``sweeplab solve --method NAME --option KEY=VALUE`` and to
``sweeplab.deduce(obs, NAME, KEY=VALUE)``.  With ``--plugin MODULE`` the
methods a plugin registers are listed too.
"""

from __future__ import annotations

import argparse
import functools
import inspect

from . import _described, add_catalogue_parser, catalogue_entry, parameter_docs

__all__ = ["register", "run", "method_text", "methods_table"]


def register(sub: argparse._SubParsersAction) -> None:
    add_catalogue_parser(sub, "methods", kind="method", registry="METHODS", doc=__doc__, run=run)


def methods_table() -> str:
    """Every method of :data:`sweeplab.METHODS`: name, sound, complete, summary.

    Examples
    --------
    >>> print(methods_table().splitlines()[1])  # doctest: +NORMALIZE_WHITESPACE +ELLIPSIS
    trivial yes no one clue at a time ...
    """
    from ..methods import METHODS

    width = max(map(len, METHODS)) + 2
    lines = [f"{'method':{width}s}sound complete  summary"]
    lines += [f"{name:{width}s}{'yes' if info.sound else 'NO':6s}{'yes' if info.complete else 'no':10s}"
              f"{info.summary}" for name, info in METHODS.items()]
    return "\n".join(lines)


def method_text(name: str) -> str:
    """What method ``name`` promises, and its options with their defaults and documentation.

    Examples
    --------
    >>> print(method_text("gfp"))  # doctest: +ELLIPSIS
    gfp: ...
    options (sweeplab solve --method gfp --option KEY=VALUE; sweeplab.deduce(obs, 'gfp', KEY=VALUE)):
    ...
      p = 7
    ...
    """
    from ..methods import method_info, sound_label

    info = method_info(name)
    promise = sound_label(info.sound) + (
        ", complete" if info.complete else ", not complete")
    head = [f"{name}: {info.summary}", f"  {promise}" + (f"; reference: {info.reference}"
                                                         if info.reference else "")]
    function = info.function
    parameters = inspect.signature(function).parameters
    docs = parameter_docs(_docstring(function))
    from .solve import OWN_FLAGS

    found = [(o, _REQUIRED if parameters[o].default is inspect.Parameter.empty else parameters[o].default,
              _described(docs.get(o)) + (f" (sweeplab solve: {OWN_FLAGS[o]}, not --option)" if o in OWN_FLAGS
                                         else "")) for o in info.options]
    if info.takes_any_option:
        head.append("  takes any keyword option besides those below (it has **kwargs)")
    usage = f"sweeplab solve --method {name} --option KEY=VALUE; sweeplab.deduce(obs, {name!r}, KEY=VALUE)"
    return catalogue_entry(head, usage, found)


class _Required:
    """The default shown for an option without one."""

    def __repr__(self) -> str:
        return "(required)"


_REQUIRED = _Required()


def _docstring(function) -> str | None:
    """The docstring that documents a method's options: a ``functools.partial``'s function's, a
    callable object's ``__call__``'s (else its class's), a function's own."""
    if isinstance(function, functools.partial):
        return _docstring(function.func)
    if inspect.isfunction(function) or inspect.ismethod(function):
        return function.__doc__
    return type(function).__call__.__doc__ or type(function).__doc__


def run(args: argparse.Namespace) -> int:
    print(methods_table() if args.name is None else method_text(args.name))
    return 0
