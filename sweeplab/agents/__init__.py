"""Agents: players that turn observations into moves (SPEC §5).

:data:`AGENTS` maps each name to its class and the report section it
reproduces; :func:`make_agent` builds one with options.  Every agent has
``next_moves(obs, rng) -> list[Move]`` and sees only the
:class:`~sweeplab.positions.Observation`.

Examples
--------
>>> agent = make_agent("trivial", first_move="corner")
>>> agent.next_moves(Observation.from_text("??\\n??"), np.random.default_rng(0))
[Move(kind='reveal', row=0, col=0, source='first')]
>>> AGENTS["csp"].reference
'000 §2.5'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np  # noqa: F401  (doctest namespace)

from ..errors import close_names, unknown_choice
from ..positions import COVERED, Observation  # noqa: F401  (doctest namespace)
from .base import Agent, Move, first_cell, random_covered  # noqa: F401  (random_covered: doctest)
from .basic import ChainAgent, CspAgent, LstsqAgent, RandomAgent, RrefAgent, TrivialAgent
from .best import BestAgent
from .best_v1 import BestV1Agent
from .probability import ProbabilityAgent
from .reductio import ReductioAgent

__all__ = ["AGENTS", "AgentInfo", "Agent", "Move", "make_agent", "first_cell", "register_agent",
           "unregister_agent"]


@dataclass(frozen=True)
class AgentInfo:
    """An agent class, the report section it follows and a one-line summary.

    ``sound``: its certain moves are never wrong with its default ``methods`` (a ``methods=`` naming an
    unsound method, as ``lstsq``, gives up that promise; the ``wrong_claims`` column counts them).
    """

    name: str
    cls: type[Agent]
    reference: str
    summary: str
    sound: bool = True
    builtin: bool = False


_INFOS = [
    AgentInfo("random", RandomAgent, "000 §2.1", "a uniformly random covered cell every move"),
    AgentInfo("trivial", TrivialAgent, "000 §2.2 (fixed first cell: §2.3); 004 basic agent",
              "single-clue rules, else a random guess"),
    AgentInfo("csp", CspAgent, "000 §2.5",
              "single-clue rules, then exact enumeration with the total, else random"),
    AgentInfo("lstsq", LstsqAgent, "000 §3.1", "single-clue rules, then least squares (unsound), else random",
              sound=False),
    AgentInfo("rref", RrefAgent, "003 Algorithm B", "row reduction and the row bound rule, else random"),
    AgentInfo("reductio", ReductioAgent, "001 advanced agent (global information, better decisions)",
              "single rules, proof by contradiction, lowest local estimate guess"),
    AgentInfo("probability", ProbabilityAgent, "004 improved agent",
              "exact probabilities with the total; lowest probability, border versus interior"),
    AgentInfo("best", BestAgent, "004 improved agent, extended (published rates: beginner 91.7%, "
              "intermediate 78.2%, expert 41.1% with a safe first click in the corner)",
              "exact probabilities, progress-aware guesses with lookahead, exhaustive endgame"),
    AgentInfo("best-v1", BestV1Agent, "issue 13: best as it was before (same games for a seed)",
              "best before issue 13, kept to measure gains on the same games"),
    AgentInfo("chain", ChainAgent, "any chain of methods", "the given methods in order, else random"),
]

_REGISTRY: dict[str, AgentInfo] = {a.name: dataclasses.replace(a, builtin=True) for a in _INFOS}
#: Read-only, live mapping from agent name to :class:`AgentInfo` (built-ins and registered).
AGENTS: MappingProxyType[str, AgentInfo] = MappingProxyType(_REGISTRY)


def register_agent(name: str, cls: type[Agent], *, summary: str = "", reference: str = "",
                   sound: bool = True, replace: bool = False) -> AgentInfo:
    """Add an agent class to :data:`AGENTS`, so its name works wherever a built-in agent's does.

    ``play``, ``compare``, sweeps (whose points hold names only), the command
    line (with ``--plugin MODULE`` importing the module that registers it) and
    the explorer's *Agent step* then take ``name``, with options as keyword
    arguments or ``KEY=VALUE``.

    Parameters
    ----------
    name : str
        Letters, digits and ``_ . + -``, starting with a letter or digit.
    cls : type
        A frozen dataclass subclassing :class:`Agent`: its fields are the
        options, and it overrides :meth:`Agent.guess` (and, for other
        moves, :meth:`Agent.next_moves`).  It must read only the observation.
        Its ``name`` (the games' ``agent`` column) becomes ``name`` while it
        is registered, so a class is registered under one name at a time
        (a subclass takes another).
    summary, reference : str
        One line, and the report section (or paper) it follows.
    sound : bool, default True
        Its certain moves come from sound methods only.
    replace : bool, default False
        Replace an earlier registration of ``name`` (never a built-in).  Not
        needed to register the same class, or the same definition run again
        (a notebook cell), with the same summary, reference and promise.

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Corners(Agent):
    ...     methods: tuple[str, ...] = ("trivial",)
    ...     def guess(self, obs, rng):  # the first covered corner, else a random cell
    ...         h, w = obs.shape
    ...         corners = [(r, c) for r, c in ((0, 0), (0, w - 1), (h - 1, 0), (h - 1, w - 1))
    ...                    if obs.grid[r, c] == COVERED]
    ...         return corners[0] if corners else random_covered(obs.grid, rng)
    >>> register_agent("corners", Corners, summary="single-clue rules, else a corner").name
    'corners'
    >>> make_agent("corners", first_move="centre").first_move
    'centre'
    >>> unregister_agent("corners")
    """
    from ..methods import check_name, check_no_twin, check_not_taken, same_class

    check_name("an agent", name)
    if not (isinstance(cls, type) and issubclass(cls, Agent) and dataclasses.is_dataclass(cls)):
        raise ValueError(f"agent {name!r}: cls must be a dataclass subclassing sweeplab.agents.Agent "
                         f"(@dataclass(frozen=True) class Mine(Agent): ...), got {cls!r}")
    if not isinstance(sound, bool):
        raise ValueError(f"agent {name!r}: sound must be True or False, got {sound!r}")
    old = _REGISTRY.get(name)
    again = (old is not None and not old.builtin and same_class(old.cls, cls)
             and (old.summary, old.reference, old.sound) == (str(summary), str(reference), sound))
    check_not_taken("agent", name, old, replace=replace or again)
    check_no_twin("agent", name, _REGISTRY)
    elsewhere = next((a.name for a in _REGISTRY.values() if a.cls is cls and a.name != name), None)
    if elsewhere is not None:
        raise ValueError(f"agent {name!r}: this class is registered as {elsewhere!r} already (its games' "
                         f"'agent' column); register a subclass for another name "
                         f"(class Other({cls.__name__}): pass), or unregister {elsewhere!r} first")
    # as written, or its class name; none at all (None) when a parent's __init_subclass__ skipped Agent's
    own = _OWN_NAMES[cls] if cls in _OWN_NAMES else vars(cls).get("name")
    if isinstance(own, str) and own != name:
        raise ValueError(f"agent {name!r}: the class names itself {own!r} (its games' 'agent' column); "
                         f"register it under that name, or drop its name attribute")
    if old is not None:
        _forget(old.cls)
    _OWN_NAMES[cls] = own
    cls.name = name  # the games' "agent" column
    info = AgentInfo(name, cls, str(reference), str(summary), sound)
    _REGISTRY[name] = info
    return info


def unregister_agent(name: str) -> None:
    """Remove an agent added by :func:`register_agent` (built-ins stay); its class gets its own name back.

    Raises
    ------
    ValueError
        ``name`` is not registered (the message names the agents) or is built in.

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> from sweeplab.agents import AGENTS, TrivialAgent, make_agent, register_agent, unregister_agent
    >>> @dataclass(frozen=True)
    ... class Careful(TrivialAgent):  # single-clue rules, then subset rules; else a random cell
    ...     methods: tuple[str, ...] = ("trivial", "subset")
    >>> _ = register_agent("careful", Careful)
    >>> make_agent("careful").name
    'careful'
    >>> unregister_agent("careful")
    >>> "careful" in AGENTS, Careful.name  # its own name again: its class's
    (False, 'Careful')
    >>> unregister_agent("best")
    Traceback (most recent call last):
    ...
    ValueError: agent 'best' is built in and cannot be removed
    """
    info = _REGISTRY.get(name)
    if info is None:
        raise ValueError(f"unknown agent {name!r}; choose from {sorted(_REGISTRY)}")
    if info.builtin:
        raise ValueError(f"agent {name!r} is built in and cannot be removed")
    del _REGISTRY[name]
    _forget(info.cls)


#: The ``name`` each registered class had before :func:`register_agent` set it (as its body wrote it, or
#: the descriptor naming it after its class; ``None``: inherited).
_OWN_NAMES: dict[type[Agent], object] = {}


def _forget(cls: type[Agent]) -> None:
    """Give a class that is no longer registered the name it had before."""
    if cls in _OWN_NAMES:
        own = _OWN_NAMES.pop(cls)
        if own is None:
            del cls.name
        else:
            cls.name = own  # type: ignore[assignment]  # a string, or the class-name descriptor


def make_agent(agent: str | Agent | AgentInfo, **options: Any) -> Agent:
    """An agent from its name, its entry of :data:`AGENTS` (or a copy of an agent) with options applied.

    Raises ``ValueError`` for an unknown name or option.

    Examples
    --------
    >>> from sweeplab.agents import make_agent
    >>> agent = make_agent("best", lookahead=3)
    >>> agent.name, agent.lookahead
    ('best', 3)
    >>> make_agent("best", look_ahead=3)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: agent 'best' has no option 'look_ahead'; its options: ... (did you mean lookahead?)
    """
    if isinstance(agent, AgentInfo):
        agent = agent.name
    if not isinstance(agent, str | Agent):
        raise ValueError(f"agent must be a name (one of {sorted(AGENTS)}) or an Agent, got "
                         f"{type(agent).__name__} {agent!r:.40}")
    try:
        if isinstance(agent, Agent):
            if not options:
                return agent
            cls: type = type(agent)
        else:
            try:
                cls = AGENTS[agent].cls
            except KeyError:
                raise ValueError(unknown_choice("agent", agent, AGENTS)) from None
        known = ({f.name for f in dataclasses.fields(cls) if f.init} - getattr(cls, "unused_options", set())
                 if dataclasses.is_dataclass(cls) else set(options))  # else the agent checks its own
        unknown = sorted(set(options) - known)
        if unknown:
            meant = close_names(unknown, known)
            hint = f" (did you mean {' or '.join(meant)}?)" if meant else ""
            name = agent if isinstance(agent, str) else agent.name
            raise ValueError(f"agent {name!r} has no option {', '.join(map(repr, unknown))}; its options: "
                             f"{', '.join(sorted(known))}{hint}")
        return dataclasses.replace(agent, **options) if isinstance(agent, Agent) else cls(**options)
    except TypeError as exc:
        raise ValueError(f"bad option for agent {agent!r}: {exc}") from None
