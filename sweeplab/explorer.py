"""An interactive explorer for JupyterLab, and the tables it shows.

:func:`clue_table` and :func:`rref_table` label the clue system ``A x = b``
of a position (SPEC §2) and its exact reduced row echelon form (report 002
Algorithm 1) with the cells behind every row and column; the teaching
notebooks use them too.  :class:`Explorer` is an ipywidgets application:
play by clicking, or step an agent; pick a method and see its deductions and
the exact mine probabilities overlaid; see the clue matrix and its RREF for
the current position.

Examples
--------
>>> from sweeplab import Observation
>>> clue_table(Observation.from_text("???\\n121"), use_total=False)
       x0 (0,0)  x1 (0,1)  x2 (0,2)  b
(1,0)         1         1         0  1
(1,1)         1         1         1  2
(1,2)         0         1         1  1
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import pandas as pd

from .agents import AGENTS
from .clue_system import ClueSystem, clue_system
from .errors import MethodRefused
from .game import Game, new_game
from .methods import METHODS, deduce, method_info
from .plotting import plot_position
from .positions import COVERED, FLAG, MINE, NOCLUE, InconsistentPositionError, Observation, as_observation
from .referee import referee

__all__ = ["clue_table", "rref_table", "rref_steps", "bound_table", "Explorer"]


def _labels(system: ClueSystem) -> tuple[list[str], list[str]]:
    cols = [f"x{j} ({r},{c})" for j, (r, c) in enumerate(system.cells)]
    rows = ["total" if cell is None else f"({cell[0]},{cell[1]})" for cell in system.clues]
    return rows, cols


def clue_table(obs: Observation | str | ClueSystem, *, use_total: bool = True) -> pd.DataFrame:
    """The augmented matrix ``[A | b]`` as a labelled table (SPEC §2).

    Parameters
    ----------
    obs : Observation, str or ClueSystem
        A position (or its text form), or a system already built.
    use_total : bool, default True
        Include the total-mines row when the position knows its total.

    Returns
    -------
    pandas.DataFrame
        One row per equation, labelled by its clue cell (``"total"`` for the
        total-mines row); one column per variable ``x{j} (row,col)``, then ``b``.
    """
    system = obs if isinstance(obs, ClueSystem) else clue_system(as_observation(obs), use_total=use_total)
    rows, cols = _labels(system)
    frame = pd.DataFrame(system.A, index=rows, columns=cols)
    frame["b"] = system.b
    return frame


def rref_table(obs: Observation | str | ClueSystem, *, use_total: bool = True) -> pd.DataFrame:
    """The exact reduced row echelon form of ``[A | b]`` (sympy, rational arithmetic).

    This is the matrix report 002 Algorithm 1 and report 003 Algorithm B read
    their deductions from; zero rows are dropped.  Entries are
    :class:`fractions.Fraction`.

    Examples
    --------
    Report 001's pattern ``A+B+C=1, B+C+D=2``: the first reduced row reads
    ``A - D = -1``, so ``A = 0`` and ``D = 1``.

    >>> from sweeplab import Observation
    >>> t = rref_table(Observation.from_text("????\\n-12-"), use_total=False)
    >>> t.astype(str).values.tolist()
    [['1', '0', '0', '-1', '-1'], ['0', '1', '1', '1', '2']]
    """
    from fractions import Fraction

    import sympy

    system = obs if isinstance(obs, ClueSystem) else clue_system(as_observation(obs), use_total=use_total)
    _, cols = _labels(system)
    if system.n_equations == 0:
        return pd.DataFrame(columns=[*cols, "b"])
    aug = sympy.Matrix(np.column_stack([system.A, system.b]).tolist())
    reduced, pivots = aug.rref()
    rank = sum(1 for p in pivots if p < system.n_variables)
    # the non-zero rows of an RREF are exactly its pivot rows
    values = [[Fraction(int(v.p), int(v.q)) for v in reduced.row(i)] for i in range(len(pivots))]
    index = [f"pivot {cols[p].split()[0]}" if p < system.n_variables else "inconsistent" for p in pivots]
    return pd.DataFrame(values, columns=[*cols, "b"], index=index).rename_axis(f"rank {rank}")


def rref_steps(obs: Observation | str | ClueSystem, *, use_total: bool = True) -> list[tuple[str, Any]]:
    """Gauss-Jordan elimination of ``[A | b]``, one pivot at a time, for display (sympy).

    Returns ``(description, matrix)`` pairs: the starting matrix, then the
    matrix after each pivot column is cleared (row swap, scaling and
    elimination of that column together).  The last matrix is the RREF of
    :func:`rref_table`.

    Examples
    --------
    >>> from sweeplab import Observation
    >>> steps = rref_steps(Observation.from_text("????\\n-12-"), use_total=False)
    >>> [d for d, _ in steps]
    ['start: [A | b]', 'pivot x0 (row 1)', 'pivot x1 (row 2)']
    >>> steps[-1][1].tolist()
    [[1, 0, 0, -1, -1], [0, 1, 1, 1, 2]]
    """
    import sympy

    system = obs if isinstance(obs, ClueSystem) else clue_system(as_observation(obs), use_total=use_total)
    rows = np.column_stack([system.A, system.b]).tolist() if system.n_equations else []
    m = sympy.Matrix(rows) if rows else sympy.zeros(0, system.n_variables + 1)
    steps: list[tuple[str, Any]] = [("start: [A | b]", m.copy())]
    row = 0
    for col in range(system.n_variables):
        pivot = next((i for i in range(row, m.rows) if m[i, col] != 0), None)
        if pivot is None:
            continue
        if pivot != row:
            m.row_swap(pivot, row)
        m[row, :] = m[row, :] / m[row, col]
        for i in range(m.rows):
            if i != row and m[i, col] != 0:
                m[i, :] = m[i, :] - m[i, col] * m[row, :]
        steps.append((f"pivot x{col} (row {row + 1})", m.copy()))
        row += 1
        if row == m.rows:
            break
    return steps


def bound_table(table: pd.DataFrame) -> pd.DataFrame:
    """The row bound rule (report 002 Algorithm 1, report 003 Algorithm B) read off each row, for display.

    For each row of an ``[A | b]`` table (:func:`clue_table` or
    :func:`rref_table`), with 0/1 variables the left side lies between the sum
    of its negative coefficients and the sum of its positive ones; when ``b``
    equals one of those ends, every variable of the row is fixed.  The
    library's ``rref`` method applies the same rule; this table explains it.

    Examples
    --------
    >>> from sweeplab import Observation
    >>> t = bound_table(rref_table(Observation.from_text("????\\n-12-"), use_total=False))
    >>> t[["low", "high", "b", "fixes"]].astype(str).values.tolist()
    [['-1', '1', '-1', 'x0=0, x3=1'], ['0', '3', '2', '']]
    """
    coeffs = table.drop(columns="b")
    names = [c.split()[0] for c in coeffs.columns]
    rows = []
    for label, values in coeffs.iterrows():
        vals = list(values)
        low = sum(v for v in vals if v < 0)
        high = sum(v for v in vals if v > 0)
        b = table.at[label, "b"]
        fixed = []
        if b in (low, high) and low != high:
            at_low = b == low
            for name, v in zip(names, vals, strict=True):
                if v != 0:
                    fixed.append(f"{name}={int((v < 0) == at_low)}")
        rows.append({"row": label, "low": low, "high": high, "b": b, "fixes": ", ".join(fixed)})
    return pd.DataFrame(rows).set_index("row")


class Explorer:
    """A JupyterLab widget to play, step an agent, and inspect deductions.

    Click a covered cell to reveal it (or flag it with the *flag* toggle);
    *Apply* plays every deduction of the chosen method; *Agent step* lets
    the chosen agent make one move.  The figure overlays the method's safe
    cells (green circles) and mines (red crosses) and, optionally, the exact
    mine probabilities; the tabs show ``[A | b]`` and its RREF.

    Parameters
    ----------
    game : Game, optional
        The game to explore; a new one from ``level`` and ``seed`` otherwise.
    level : str, default "beginner"
    seed : int, default 0
    method : str, default "rref"
        Initial method, a key of :data:`sweeplab.METHODS`.
    first_click : str, default "zero"

    Examples
    --------
    >>> ex = Explorer(level="beginner", seed=1)
    >>> ex.click(4, 4) > 0
    True
    >>> ex.set_method("trivial").deduction.method
    'trivial'
    >>> ex.agent_box.value = "trivial"
    >>> len(ex.agent_step()) >= 1
    True
    """

    def __init__(
        self,
        game: Game | None = None,
        *,
        level: str = "beginner",
        seed: int = 0,
        method: str = "rref",
        first_click: str = "zero",
    ) -> None:
        import ipywidgets as w

        method_info(method)  # ValueError naming the choices
        self._level, self._seed, self._first_click = level, seed, first_click
        self.game = game if game is not None else new_game(level, first_click=first_click, seed=seed)
        self.method = method
        self._rng = np.random.default_rng(seed)
        self.deduction = None
        self.probabilities: np.ndarray | None = None
        self.message = ""
        h, wd = self.game.shape
        layout = w.Layout(width="28px", height="28px", padding="0")
        self.buttons = [[w.Button(layout=layout) for _ in range(wd)] for _ in range(h)]
        for r in range(h):
            for c in range(wd):
                self.buttons[r][c].on_click(lambda _b, r=r, c=c: self._on_cell(r, c))
        self.method_box = w.Dropdown(options=list(METHODS), value=method, description="method")
        self.method_box.observe(lambda ch: self.set_method(ch["new"]), names="value")
        self.agent_box = w.Dropdown(options=list(AGENTS), value="best", description="agent")
        self.flag_mode = w.ToggleButton(description="flag", tooltip="clicks flag instead of reveal")
        self.show_probabilities = w.Checkbox(description="probabilities", value=False)
        self.show_probabilities.observe(lambda _ch: self.refresh(), names="value")
        apply_button = w.Button(description="Apply", tooltip="play every deduction of the method")
        apply_button.on_click(lambda _b: self.apply())
        step_button = w.Button(description="Agent step", tooltip="one move of the chosen agent")
        step_button.on_click(lambda _b: self.agent_step())
        new_button = w.Button(description="New game")
        new_button.on_click(lambda _b: self.new(seed=self._seed + 1))
        self.status = w.HTML()
        self.figure = w.HTML()
        self.matrix = w.HTML()
        self.rref = w.HTML()
        self.tabs = tabs = w.Tab(children=[self.figure, self.matrix, self.rref])
        for i, title in enumerate(["overlay", "[A | b]", "RREF"]):
            tabs.set_title(i, title)
        # the exact RREF costs more than a move: computed only while its tab is open
        tabs.observe(lambda _ch: self._draw_tables(self.game.observation), names="selected_index")
        board = w.GridBox([b for row in self.buttons for b in row],
                          layout=w.Layout(grid_template_columns=f"repeat({wd}, 28px)", grid_gap="1px"))
        controls = w.HBox([self.method_box, self.show_probabilities, apply_button])
        agents = w.HBox([self.agent_box, step_button, self.flag_mode, new_button])
        self.widget = w.VBox([controls, agents, self.status, w.HBox([board, tabs])])
        self.refresh()

    # actions --------------------------------------------------------------
    def click(self, row: int, col: int) -> int:
        """Reveal a cell (as a click does); returns the cells opened."""
        if self.game.status != "playing":
            return 0
        opened = self.game.reveal(row, col)
        self.refresh()
        return opened

    def flag(self, row: int, col: int) -> None:
        """Flag or unflag a covered cell."""
        if self.game.status != "playing":
            return
        if self.game.observation.grid[row, col] == FLAG:
            self.game.unflag(row, col)
        else:
            self.game.flag(row, col)
        self.refresh()

    def set_method(self, method: str) -> Explorer:
        """Choose the deduction method shown."""
        method_info(method)  # ValueError naming the choices
        self.method = method
        if self.method_box.value != method:
            self.method_box.value = method
        self.refresh()
        return self

    def apply(self) -> int:
        """Play the current deductions: reveal the safe cells, flag the mines; returns moves made."""
        if self.deduction is None or self.game.status != "playing":
            return 0
        moves = 0
        for r, c in sorted(self.deduction.mines):
            if self.game.observation.grid[r, c] == COVERED:
                self.game.flag(r, c)
                moves += 1
        for r, c in sorted(self.deduction.safe):
            if self.game.status == "playing" and self.game.observation.grid[r, c] == COVERED:
                self.game.reveal(r, c)
                moves += 1
        self.refresh()
        return moves

    def agent_step(self) -> list[tuple[str, int, int, str]]:
        """Let the chosen agent play one turn (its next moves); returns the moves played.

        The agent sees only the observation (SPEC §5); its random choices come
        from the explorer's own generator, seeded with the game's seed.
        """
        from .agents import make_agent

        played: list[tuple[str, int, int, str]] = []
        if self.game.status != "playing":
            return played
        agent = make_agent(self.agent_box.value)
        for p in referee(agent, self.game, self._rng, max_turns=1):
            played.append(tuple(p.move))
        self.message = ", ".join(f"{k} ({r},{c}) [{src}]" for k, r, c, src in played)
        self.refresh(keep_message=True)
        return played

    def new(self, *, seed: int) -> Explorer:
        """Start a new game on the same level."""
        self._seed = seed
        self.game = new_game(self._level, first_click=self._first_click, seed=seed)
        self._rng = np.random.default_rng(seed)
        self.refresh()
        return self

    # display ----------------------------------------------------------------
    def _on_cell(self, row: int, col: int) -> None:
        if self.flag_mode.value:
            self.flag(row, col)
        elif self.game.observation.grid[row, col] == COVERED:
            self.click(row, col)

    def refresh(self, *, keep_message: bool = False) -> None:
        """Recompute the deductions and probabilities and redraw everything."""
        obs = self.game.observation
        self.deduction, self.probabilities = None, None
        if not keep_message:
            self.message = ""
        if self.game.status == "playing" and (obs.grid >= 0).any():
            try:
                self.deduction = deduce(obs, method=self.method)
                if self.show_probabilities.value:
                    from . import probabilities

                    self.probabilities = probabilities(obs)
            except InconsistentPositionError as exc:
                self.message = f"inconsistent position: {exc}"
            except MethodRefused as exc:  # e.g. a frontier too large for brute force
                self.message = f"{self.method} declines this position: {exc}"
        self._draw_buttons(obs)
        self._draw_figure(obs)
        self._draw_tables(obs)

    def _draw_buttons(self, obs: Observation) -> None:
        safe = self.deduction.safe if self.deduction else frozenset()
        mines = self.deduction.mines if self.deduction else frozenset()
        grid = obs.grid
        for r, row in enumerate(self.buttons):
            for c, button in enumerate(row):
                v = int(grid[r, c])
                button.description = {COVERED: "", FLAG: "F", MINE: "*", NOCLUE: "-", 0: ""}.get(v, str(v))
                button.button_style = ("success" if (r, c) in safe else "danger" if (r, c) in mines else "")
                button.disabled = v not in (COVERED, FLAG)
                p = None if self.probabilities is None else self.probabilities[r, c]
                button.tooltip = f"({r},{c})" + ("" if p is None or np.isnan(p) else f" P(mine)={p:.3f}")
        info = METHODS[self.method]
        found = "" if self.deduction is None else (
            f"{len(self.deduction.safe)} safe, {len(self.deduction.mines)} mines in "
            f"{1000 * self.deduction.seconds:.1f} ms")
        sound = "sound" if info.sound else "<b>unsound</b>"
        self.status.value = (f"<b>{self.game.status}</b> &middot; {self.method} ({sound}, report "
                             f"{info.reference}): {found} {self.message}")

    def _draw_figure(self, obs: Observation) -> None:
        import matplotlib.pyplot as plt

        h, w = obs.shape
        fig, ax = plt.subplots(figsize=(min(12, 0.35 * w + 1), min(8, 0.35 * h + 0.6)))
        plot_position(obs, ax=ax, safe=self.deduction.safe if self.deduction else None,
                      mines=self.deduction.mines if self.deduction else None,
                      probabilities=self.probabilities)
        ax.set_title(f"{self.method}: green = safe, red = mine", fontsize=9)
        buf = io.StringIO()
        fig.savefig(buf, format="svg", bbox_inches="tight")
        plt.close(fig)
        self.figure.value = buf.getvalue()

    def _draw_tables(self, obs: Observation) -> None:
        if self.tabs.selected_index not in (1, 2):
            return
        system = clue_system(obs)
        if system.n_variables > 60:
            note = f"<i>{system!r}: too large to print; showing the first component.</i>"
            parts = system.components()
            system = parts[0] if parts else system
        else:
            note = f"<i>{system!r}</i>"
        if system.n_variables > 60 or system.n_equations == 0:
            self.matrix.value = self.rref.value = note
            return
        self.matrix.value = note + clue_table(system).to_html()
        self.rref.value = note + rref_table(system).astype(str).to_html()

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)
