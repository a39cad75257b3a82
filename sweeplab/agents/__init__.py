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

from ..positions import Observation  # noqa: F401  (doctest namespace)
from .base import Agent, Move, first_cell
from .basic import ChainAgent, CspAgent, LstsqAgent, RandomAgent, RrefAgent, TrivialAgent
from .best import BestAgent
from .best_v1 import BestV1Agent
from .probability import ProbabilityAgent
from .reductio import ReductioAgent

__all__ = ["AGENTS", "AgentInfo", "Agent", "Move", "make_agent", "first_cell"]


@dataclass(frozen=True)
class AgentInfo:
    """An agent class, the report section it follows and a one-line summary."""

    name: str
    cls: type[Agent]
    reference: str
    summary: str
    sound: bool = True


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

#: Read-only mapping from agent name to :class:`AgentInfo`.
AGENTS: MappingProxyType[str, AgentInfo] = MappingProxyType({a.name: a for a in _INFOS})


def make_agent(agent: str | Agent | AgentInfo, **options: Any) -> Agent:
    """An agent from its name, its entry of :data:`AGENTS` (or a copy of an agent) with options applied.

    Raises ``ValueError`` for an unknown name or option.
    """
    if isinstance(agent, AgentInfo):
        agent = agent.name
    try:
        if isinstance(agent, Agent):
            return dataclasses.replace(agent, **options) if options else agent
        try:
            cls = AGENTS[agent].cls
        except KeyError:
            raise ValueError(f"unknown agent {agent!r}; choose from {sorted(AGENTS)}") from None
        known = ({f.name for f in dataclasses.fields(cls) if f.init} - getattr(cls, "unused_options", set())
                 if dataclasses.is_dataclass(cls) else set(options))  # else the agent checks its own
        unknown = sorted(set(options) - known)
        if unknown:
            raise ValueError(f"agent {agent!r} has no option {', '.join(map(repr, unknown))}; its options: "
                             f"{', '.join(sorted(known))}")
        return cls(**options)
    except TypeError as exc:
        raise ValueError(f"bad option for agent {agent!r}: {exc}") from None
