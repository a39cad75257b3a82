"""An example plugin: RREF with the pivot order reversed (report 002: the column order changes the RREF).

Report 002 notes that another order of the columns gives another RREF, and
so changes what one pass of the row bound rule finds.  This module registers
that variant as the method ``"rref-reversed"`` through the public API only, as
a researcher's own module would::

    sweeplab solve position.txt --plugin sweeplab.example_plugin --method rref-reversed
    sweeplab bench --plugin sweeplab.example_plugin --methods rref,rref-reversed ...

It is sound for the same reason ``rref`` is: every reduced row is a rational
combination of the clue rows, so every 0/1 layout meets it.

It also registers an agent, ``"border-first"`` (:class:`BorderFirstAgent`),
as a researcher's own agent would be::

    sweeplab compare trivial border-first --plugin sweeplab.example_plugin --level beginner
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import sweeplab
from sweeplab.agents import Agent
from sweeplab.agents.base import random_covered
from sweeplab.errors import InconsistentPositionError, MethodRefused

__all__ = ["rref_reversed", "BorderFirstAgent"]


def rref_reversed(obs, *, use_total=True):
    """The row bound rule on the exact RREF of ``[A | b]`` with the columns in reverse order.

    Examples
    --------
    >>> safe, mines = rref_reversed(sweeplab.Observation.from_text("??????\\n?1122?"))
    >>> sorted(safe), sorted(mines)
    ([(0, 1)], [(0, 4)])
    """
    import sympy

    system = sweeplab.clue_system(obs, use_total=use_total)
    if not system.exact:
        raise MethodRefused(f"rref-reversed needs exact clues, not noise {obs.noise!r}")
    if system.n_variables > 400:
        raise MethodRefused(f"rref-reversed (sympy) refuses {system.n_variables} variables (limit 400)")
    if system.n_equations == 0:
        return set(), set()
    order = np.arange(system.n_variables)[::-1]
    M = sympy.Matrix(np.column_stack([system.A[:, order], system.b]).tolist())
    R, _ = M.rref()
    safe: set[tuple[int, int]] = set()
    mines: set[tuple[int, int]] = set()
    for i in range(R.rows):
        row = [R[i, j] for j in range(R.cols - 1)]
        rhs = R[i, R.cols - 1]
        pos = sum(c for c in row if c > 0)
        neg = sum(c for c in row if c < 0)
        if rhs > pos or rhs < neg:
            raise InconsistentPositionError("a reduced row cannot be met by 0/1 cells")
        for j, c in enumerate(row):
            cell = system.cells[order[j]]
            if c != 0 and rhs == pos:
                (mines if c > 0 else safe).add(cell)
            elif c != 0 and rhs == neg:
                (safe if c > 0 else mines).add(cell)
    if safe & mines:
        raise InconsistentPositionError(f"cell {min(safe & mines)} is forced both safe and a mine")
    return safe, mines


@dataclass(frozen=True)
class BorderFirstAgent(Agent):
    """Single-clue rules, then the reversed RREF; a guess on the border first (report 000 §2.3).

    Report 000 found border cells "a bit better" to open first.  The guess is
    uniform among the covered cells of the board's border, else among all
    covered cells; the options are every agent's (``methods``, ``use_total``,
    ``first_move``, ``noise_aware``, ``max_nodes``).

    Examples
    --------
    >>> obs = sweeplab.Observation.from_text("???\\n?1?\\n???\\n???")
    >>> BorderFirstAgent().guess(obs, np.random.default_rng(0)) in {(1, 1), (2, 1)}
    False
    """

    methods: tuple[str, ...] = ("trivial", "rref-reversed")
    first_move: str | tuple[int, int] = "corner"

    def guess(self, obs, rng):
        border = np.zeros(obs.shape, dtype=bool)
        border[[0, -1], :] = border[:, [0, -1]] = True
        return random_covered(obs.grid, rng, border) or random_covered(obs.grid, rng)


# importing this module again registers the same definitions again, which needs no replace=True; after
# an edit, a reload asks for replace=True (or restart the process)
sweeplab.register_method(
    "rref-reversed", rref_reversed, sound=True, complete=False,
    summary="exact RREF (sympy) with the column order reversed, then the row bound rule",
    reference="002 Algorithm 1 (another pivot order)",
)
sweeplab.register_agent(
    "border-first", BorderFirstAgent,
    summary="single-clue rules, then the reversed RREF; guesses on the border first",
    reference="000 §2.3 (border cells seem a bit better)",
)
