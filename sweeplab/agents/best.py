"""The strongest agent here (issue 13 work in progress: for now the same moves as ``best-v1``)."""

from __future__ import annotations

from dataclasses import dataclass

from .best_v1 import BestV1Agent, endgame_choice, endgame_layouts

__all__ = ["BestAgent", "endgame_layouts", "endgame_choice"]


@dataclass(frozen=True)
class BestAgent(BestV1Agent):
    """The same agent as :class:`~sweeplab.agents.best_v1.BestV1Agent` (for now)."""

    name = "best"
