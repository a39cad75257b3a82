"""``sweeplab agents``: the agents, and one agent's options.

Examples::

    sweeplab agents                # every agent: sound, what it does
    sweeplab agents best           # best's options, their defaults and what they do

Options go to ``sweeplab play --agent "NAME KEY=VALUE"`` (or ``--option
KEY=VALUE``), to ``sweeplab compare`` the same way, and to
``sweeplab.play(NAME, KEY=VALUE, ...)``.  With ``--plugin MODULE`` the agents
a plugin registers are listed too.
"""

from __future__ import annotations

import argparse
import dataclasses

from . import _described, add_catalogue_parser, catalogue_entry, parameter_docs

__all__ = ["register", "run", "agent_text", "agents_table"]


def register(sub: argparse._SubParsersAction) -> None:
    add_catalogue_parser(sub, "agents", kind="agent", registry="AGENTS", doc=__doc__, run=run)


def agents_table() -> str:
    """Every agent of :data:`sweeplab.AGENTS`: name, sound and summary.

    Examples
    --------
    >>> print(agents_table().splitlines()[1])  # doctest: +NORMALIZE_WHITESPACE
    random  yes  a uniformly random covered cell every move
    """
    from ..agents import AGENTS

    width = max(map(len, AGENTS)) + 2
    lines = [f"{'agent':{width}s}sound  summary"]
    lines += [f"{name:{width}s}{'yes' if info.sound else 'NO':7s}{info.summary}"
              for name, info in AGENTS.items()]
    return "\n".join(lines)


def agent_text(name: str) -> str:
    """Agent ``name``: what it does, and its options with their defaults and documentation.

    An option documented on a parent class (``use_total`` of every agent) is
    described from there.

    Examples
    --------
    >>> print(agent_text("best"))  # doctest: +ELLIPSIS
    best: ...
    options (sweeplab play --agent "best KEY=VALUE"; sweeplab.play('best', KEY=VALUE, ...)):
    ...
      lookahead = 5
    ...
    """
    from ..agents import AGENTS
    from ..agents.base import option_default
    from ..errors import unknown_choice
    from ..methods import sound_label

    if name not in AGENTS:
        raise ValueError(unknown_choice("agent", name, AGENTS))
    info = AGENTS[name]
    cls = info.cls
    docs: dict[str, tuple[str, str]] = {}
    for klass in reversed(cls.__mro__):  # a subclass's entry replaces its parent's
        docs.update(parameter_docs(klass.__doc__))
    unused: set[str] = getattr(cls, "unused_options", set())
    found = []
    for f in dataclasses.fields(cls):  # register_agent takes dataclasses only
        if f.init and f.name not in unused:
            found.append((f.name, option_default(f), _described(docs.get(f.name))))
    methods = any(option == "methods" for option, _, _ in found)
    head = [f"{name}: {info.summary}", f"  {sound_label(info.sound)}"
            + (" with sound methods (its default; methods= may name an unsound one, as lstsq)"
               if info.sound and methods else "")
            + (f"; reference: {info.reference}" if info.reference else "")]
    usage = f'sweeplab play --agent "{name} KEY=VALUE"; sweeplab.play({name!r}, KEY=VALUE, ...)'
    return catalogue_entry(head, usage, found)


def run(args: argparse.Namespace) -> int:
    print(agents_table() if args.name is None else agent_text(args.name))
    return 0
