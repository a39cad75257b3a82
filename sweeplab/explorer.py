"""An interactive explorer for JupyterLab, and the tables it shows.

:func:`clue_table` and :func:`rref_table` label the clue system ``A x = b``
of a position (SPEC §2) and its exact reduced row echelon form (report 002
Algorithm 1) with the cells behind every row and column; the teaching
notebooks use them too.  :class:`Explorer` plays a game on one interactive
board (:class:`sweeplab.board.BoardWidget`, an anywidget): click to reveal,
right click to flag, step an agent; the chosen method's deductions, their
proofs and the exact mine probabilities are drawn on the board, with the clue
matrix and its RREF (:func:`panel_table`) beside it.

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

from typing import Any

import numpy as np
import pandas as pd

from .agents import AGENTS
from .agents.base import frontier_mask
from .clue_system import ClueSystem, clue_system
from .errors import MethodBugError, MethodRefused, count_text, mines_text, unknown_choice
from .executor import root_seed
from .game import LEVELS, Game, new_game
from .methods import METHODS, Deduction, MethodInfo, deduce, method_info, same_function, sound_label
from .positions import (
    COVERED,
    FLAG,
    MINE,
    NOCLUE,
    InconsistentPositionError,
    Observation,
    as_observation,
    cell_pair,
    layout_fits,
)
from .probability import probabilities
from .proofs import Assume, Combine, Proof, Split
from .referee import referee
from .rollouts import sample_layouts
from .simulate import agent_generator_beside

__all__ = ["clue_table", "rref_table", "rref_steps", "bound_table", "panel_table", "Explorer"]


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
        total-mines row); one column per variable ``x{j} (row,col)``, then ``b``;
        under clue noise ``"under"``/``"over"``, whose numbers are bounds, ``lo``
        and ``hi`` in its place (``lo <= A x <= hi``: no reader takes a bound for an
        equality, SPEC §2).

    Examples
    --------
    >>> from sweeplab import Observation
    >>> clue_table(Observation.from_text("??\\n-1", noise="over"), use_total=False).columns.tolist()
    ['x0 (0,0)', 'x1 (0,1)', 'lo', 'hi']
    """
    system = obs if isinstance(obs, ClueSystem) else clue_system(as_observation(obs), use_total=use_total)
    rows, cols = _labels(system)
    frame = pd.DataFrame(system.A, index=rows, columns=cols)
    if system.exact:
        frame["b"] = system.b
    else:
        frame["lo"], frame["hi"] = system.lo, system.hi
    return frame


def _exact_system(obs: Observation | str | ClueSystem, use_total: bool, what: str) -> ClueSystem:
    """The clue system of ``obs``; ``ValueError`` when its clues are bounds (noise): ``what`` reads them
    as equations."""
    system = obs if isinstance(obs, ClueSystem) else clue_system(as_observation(obs), use_total=use_total)
    if not system.exact:
        raise ValueError(f"{what} reads the clues as equations, but this position's are bounds (noise "
                         f"{system.noise!r}): read lo <= A x <= hi with clue_table, or deduce with "
                         f"'trivial', 'lp' or 'enumerate'")
    return system


def rref_table(obs: Observation | str | ClueSystem, *, use_total: bool = True) -> pd.DataFrame:
    """The exact reduced row echelon form of ``[A | b]`` (sympy, rational arithmetic).

    This is the matrix report 002 Algorithm 1 and report 003 Algorithm B read
    their deductions from; zero rows are dropped.  Entries are
    :class:`fractions.Fraction`.

    Examples
    --------
    Report 001's pattern ``A+B+C=1, A+C+D=2``, with ``B, A, C, D`` the top
    row from the left: the first reduced row reads ``B - D = -1``, report
    001's ``D - B = 1``, so ``B = 0`` and ``D = 1``.

    >>> from sweeplab import Observation
    >>> t = rref_table(Observation.from_text("????\\n-12-"), use_total=False)
    >>> t.astype(str).values.tolist()
    [['1', '0', '0', '-1', '-1'], ['0', '1', '1', '1', '2']]
    """
    from fractions import Fraction

    import sympy

    system = _exact_system(obs, use_total, "rref_table")
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
    ['start: [A | b]', 'pivot x0 (row 0)', 'pivot x1 (row 1)']
    >>> steps[-1][1].tolist()
    [[1, 0, 0, -1, -1], [0, 1, 1, 1, 2]]
    """
    import sympy

    system = _exact_system(obs, use_total, "rref_steps")
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
        steps.append((f"pivot x{col} (row {row})", m.copy()))
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
    A table of bounds (``lo``, ``hi``: clue noise) fixes a row only when its
    bound meets the other end (``hi`` at the low end, ``lo`` at the high one).

    Examples
    --------
    >>> from sweeplab import Observation
    >>> t = bound_table(rref_table(Observation.from_text("????\\n-12-"), use_total=False))
    >>> t[["low", "high", "b", "fixes"]].astype(str).values.tolist()
    [['-1', '1', '-1', 'x0=0, x3=1'], ['0', '3', '2', '']]
    """
    bounds = "b" not in table.columns and {"lo", "hi"} <= set(table.columns)
    coeffs = table.drop(columns=["lo", "hi"] if bounds else "b")
    names = [c.split()[0] for c in coeffs.columns]
    rows = []
    for label, values in coeffs.iterrows():
        vals = list(values)
        low = sum(v for v in vals if v < 0)
        high = sum(v for v in vals if v > 0)
        lo, hi = (table.at[label, "lo"], table.at[label, "hi"]) if bounds else (table.at[label, "b"],) * 2
        fixed = []
        if (hi == low or lo == high) and low != high:
            at_low = hi == low
            for name, v in zip(names, vals, strict=True):
                if v != 0:
                    fixed.append(f"{name}={int((v < 0) == at_low)}")
        bound = {"lo": lo, "hi": hi} if bounds else {"b": lo}
        rows.append({"row": label, "low": low, "high": high, **bound, "fixes": ", ".join(fixed)})
    columns = ["row", "low", "high", *(["lo", "hi"] if bounds else ["b"]), "fixes"]
    return pd.DataFrame(rows, columns=columns).set_index("row")  # (no rows: no equation yet)


# the [A | b] and RREF panels show at most this many frontier columns (whole components, total row left out)
_MAX_COLUMNS = 250


def _bound_fixes(values: list[Any], beta: Any, ub: list[int]) -> list[list[int]]:
    """The row bound rule on a row whose variables ``j`` lie in ``[0, ub[j]]``: ``[column, value]`` pairs."""
    low = sum(v * u for v, u in zip(values, ub, strict=True) if v < 0)
    high = sum(v * u for v, u in zip(values, ub, strict=True) if v > 0)
    if low == high or beta not in (low, high):
        return []
    at_low = beta == low
    return [[j, u if (v < 0) == at_low else 0] for j, (v, u) in enumerate(zip(values, ub, strict=True)) if v]


def panel_table(obs: Observation, kind: str) -> dict:
    """The ``[A | b]`` (``kind="matrix"``) or exact RREF (``kind="rref"``) of a position, for the board.

    Columns are the frontier variables; the interior cells, which appear only in
    the total row and so have identical columns, share one column ``interior``
    whose variable counts their mines.  Each row carries what the row bound rule
    fixes (``fixes``: ``[column, value]``).  The RREF is exact (python-flint
    rationals); past 250 frontier cells (``_MAX_COLUMNS``) only the whole components
    that fit are shown (a large one skipped), without the total row.

    Parameters
    ----------
    obs : Observation
    kind : {"matrix", "rref"}

    Returns
    -------
    dict
        ``kind``, ``note`` (plain text), ``columns`` (``name`` and ``cell``, or
        ``name`` and ``count``) and ``rows`` (``label``, ``source`` -- the clue cell,
        ``"total"`` or ``None`` for an RREF row --, ``values`` and ``b`` as strings,
        ``fixes``).

    Examples
    --------
    >>> t = panel_table(Observation.from_text("????\\n-12-"), "rref")
    >>> [(r["label"], r["values"], r["b"], r["fixes"]) for r in t["rows"]]
    [('pivot x0', ['1', '0', '0', '-1'], '-1', [[0, 0], [3, 1]]), ('pivot x1', ['0', '1', '1', '1'], '2', [])]
    """
    import flint

    system = clue_system(obs)
    nf, interior = system.n_frontier, system.n_variables - system.n_frontier
    columns: list[dict] = [{"name": f"x{j}", "cell": list(system.cells[j])} for j in range(nf)]
    keep = list(range(nf))
    if interior:  # one of the identical interior columns stands for them all
        columns.append({"name": "interior", "count": interior})
        keep.append(nf)
    rows = list(range(system.n_equations))
    note = f"{count_text(system.n_equations, 'equation')} over {count_text(nf, 'frontier cell')}"
    if interior:
        note += f" and {count_text(interior, 'interior cell')} (one column: only the total row has them)"
    # the sparse matrix: the dense one of a 300x300 board is 10.8 GiB (a reviewer)
    matrix = system.A_sparse.tocsr()
    if nf > _MAX_COLUMNS:
        shown: set = set()
        for part in system.components():  # whole components, as many as fit (a large first one skipped)
            if len(shown) + part.n_variables <= _MAX_COLUMNS:
                shown.update(part.cells)
        keep = [j for j in range(nf) if system.cells[j] in shown]
        columns = [columns[j] for j in keep]
        touching = np.diff(matrix[:, keep].indptr) > 0
        rows = [i for i in rows if system.clues[i] is not None and touching[i]]
        note += f"; showing whole components that fit only ({len(keep)} frontier cells, no total row)"
    ub = [c.get("count", 1) for c in columns]
    A = (matrix[rows][:, keep].toarray() if rows and keep
         else np.zeros((len(rows), len(keep)), dtype=int))
    lo, hi = system.lo[rows], system.hi[rows]
    out: list[dict] = []
    if kind == "matrix":
        for k, i in enumerate(rows):
            clue = system.clues[i]
            values = [int(v) for v in A[k]]
            exact = lo[k] == hi[k]
            out.append({
                "label": "total" if clue is None else f"({clue[0]},{clue[1]})",
                "source": "total" if clue is None else list(clue),
                "values": [str(v) for v in values],
                "b": str(int(lo[k])) if exact else f"{int(lo[k])}..{int(hi[k])}",
                "fixes": _bound_fixes(values, int(lo[k]), ub) if exact else [],
            })
    elif kind == "rref":
        if (lo != hi).any():
            note += "; the clues are bounds (noise), so there is no RREF to read"
        elif rows:
            reduced, rank = flint.fmpq_mat([[*map(int, A[k]), int(lo[k])] for k in range(len(rows))]).rref()
            width = len(keep)
            for i in range(rank):
                exact = [reduced[i, j] for j in range(width)]
                beta = reduced[i, width]
                pivot = next((j for j, v in enumerate(exact) if v != 0), None)
                out.append({
                    "label": "inconsistent" if pivot is None else f"pivot {columns[pivot]['name']}",
                    "source": None,
                    "values": [str(v) for v in exact],
                    "b": str(beta),
                    "fixes": _bound_fixes(exact, beta, ub),
                })
            note += f"; rank {rank}"
    else:
        raise ValueError(f"unknown panel {kind!r}; expected 'matrix' or 'rref'")
    return {"kind": kind, "note": note, "columns": columns, "rows": out}


def _then(done: str, problem: str) -> str:
    """What was just done, then the problem with the position it left (neither hides the other)."""
    return f"{done}; then {problem}" if done else problem


#: Unproved claims per refresh that get a refuting layout (each draws one, :func:`_refutation`).
REFUTED = 3


def _refutation(d: Deduction, cell: tuple[int, int], obs: Observation, wanted: bool) -> str:
    """For a claim with no proof because it is not forced: a layout that fits every clue with the cell
    the other way, in words (""  when not wanted, over the prover's budget, or under noisy bounds)."""
    if not wanted or cell in d.over_budget or obs.noise in ("under", "over") or obs.mines is None:
        return ""
    value = 0 if cell in d.safe else 1
    try:
        layout = sample_layouts(obs, count=1, seed=0, given={cell: 1 - value})[0]
    except (ValueError, MethodRefused):  # forced after all (a method's bug), or too large to sample
        return ""
    grid = obs.grid
    covered = grid == COVERED
    near = frontier_mask(grid)
    beside = [f"({r},{c})" for r, c in np.argwhere(layout & near).tolist() if (r, c) != cell]  # named once
    listed = ", ".join(beside[:12]) + (f" and {len(beside) - 12} more" if len(beside) > 12 else "")
    away, mines_away = int((covered & ~near).sum()), int((layout & covered & ~near).sum())
    rest = f", and at {mines_away} of the {away} cells away from them" if away else ""
    other = "a mine" if value == 0 else "safe"
    mines = (f"{'other ' if value == 0 else ''}mines next to the numbers at {listed}" if listed
             else f"no {'other ' if value == 0 else ''}mine next to the numbers")
    return f": every clue and the total hold with ({cell[0]},{cell[1]}) {other} and {mines}{rest}"


class Explorer:
    """Play a game in JupyterLab on one interactive board, with a method's deductions and proofs on it.

    The board (:class:`sweeplab.board.BoardWidget`, an anywidget) draws what the
    explorer sends it and sends back clicks: left click reveals (or, in flag
    mode, flags), right click flags and unflags; *Apply* plays the method's
    deductions, *Agent step* one turn of the chosen agent, *New game* starts
    the next seed.  The method's safe cells and mines, the exact mine
    probabilities and, on hover, each deduced cell's proof (SPEC §6) with the
    clues it uses are drawn on the board; the ``[A | b]`` and RREF panels sit
    beside it.  The game and the methods live here, in Python; every action
    recomputes the state and sends it whole.

    Parameters
    ----------
    game : Game, optional
        The game to explore; a new one from ``level`` and ``seed`` otherwise.
    level : str, default "beginner"
    seed : int or numpy.random.Generator, default 0
        The game's seed (a Generator gives one, by a draw); New game takes the next.
    method : str, default "rref"
        Initial method, a key of :data:`sweeplab.METHODS`.
    agent : str, default "best"
        Initial agent of *Agent step*, a key of :data:`sweeplab.AGENTS`.
    first_click : {"zero", "safe", "none"}, optional
        The first-click rule of the games the explorer starts (``"zero"`` by
        default).  A ``game`` passed in keeps its own rule, and the games
        started after it take its rule unless this is given (a game from
        :meth:`sweeplab.game.Game.from_layout` has ``"none"``: a first click can lose).

    Attributes
    ----------
    game : Game
    board : BoardWidget
        The widget, and the state it draws.
    deduction : Deduction or None
        The method's deductions on the current position, with proofs; ``None``
        on an untouched board (before the first click: nothing to deduce).
    probabilities : numpy.ndarray or None
        Exact mine probabilities of the current position (shown on hover, drawn on
        the cells with ``board.show_probabilities``).

    Examples
    --------
    >>> ex = Explorer(level="beginner", seed=1)
    >>> ex.click(4, 4) > 0
    True
    >>> ex.set_method("trivial").deduction.method
    'trivial'
    >>> ex.board.method
    'trivial'
    >>> len(ex.agent_step("trivial")) >= 1
    True
    """

    def __init__(
        self,
        game: Game | None = None,
        *,
        level: str = "beginner",
        seed: int | np.random.Generator = 0,
        method: str = "rref",
        agent: str = "best",
        first_click: str | None = None,
    ) -> None:
        from .board import BoardWidget

        if game is not None and not isinstance(game, Game):
            hint = (f"; for a preset pass level={game!r}" if isinstance(game, str) and game in LEVELS
                    else "; a position's text is not a game: sweeplab.Game.from_layout(...) plays a layout")
            raise ValueError(f"game must be a sweeplab Game (sweeplab.new_game(...)), got "
                             f"{type(game).__name__} {game!r:.40}{hint}")
        method_info(method)  # ValueError naming the choices
        if not isinstance(agent, str) or agent not in AGENTS:
            raise ValueError(unknown_choice("agent", agent, AGENTS))
        seed = root_seed(seed)  # an int (one drawn from a Generator): a new game takes the next one
        given = game is not None
        self.game = g = (game if game is not None
                         else new_game(level, first_click=first_click or "zero", seed=seed))
        # a new game repeats this one's board and rules, or a preset level chosen on the board
        self._rules: dict[str, Any] = {"first_click": first_click or g.first_click, "mode": g.mode,
                                       "noise": g.noise}
        if given and first_click is not None:
            new_game(shape=g.shape, mines=g.n_mines, **self._rules, seed=seed)  # a bad rule raises now
        level = next((name for name, lv in LEVELS.items() if (lv.shape, lv.mines) == (g.shape, g.n_mines)),
                     f"{g.shape[0]}x{g.shape[1]}, {g.n_mines} mines")
        self._seed = seed
        self._quiet = False  # the level menu is being set from Python: no new game from _on_control
        # the boards the level menu offers: the presets and this game's own
        self._boards = {**{name: (lv.shape, lv.mines) for name, lv in LEVELS.items()},
                        level: (g.shape, g.n_mines)}
        self._rng = agent_generator_beside(seed)  # not the board's stream
        self.deduction: Deduction | None = None
        self.probabilities: np.ndarray | None = None
        self.board = BoardWidget(method=method, agent=agent, agents=list(AGENTS), level=level,
                                 levels=list(dict.fromkeys([*LEVELS, level])))
        self.board.on_msg(lambda _widget, content, _buffers: self._on_message(content))
        self.board.observe(self._on_control, names=["method", "panel", "level", "agent", "show_marks"])
        self.refresh()

    @property
    def method(self) -> str:
        """The method whose deductions are shown."""
        return self.board.method

    # actions --------------------------------------------------------------
    def _code(self, row: int, col: int) -> int:
        """The code shown at ``(row, col)``; ``ValueError`` naming the cell when it is not on the board."""
        h, w = self.game.shape
        if cell_pair((row, col)) is None:  # integers, numpy's too; not bools
            raise ValueError(f"cell ({row!r}, {col!r}): row and column must be integers")
        if not (0 <= row < h and 0 <= col < w):
            raise ValueError(f"cell ({row!r}, {col!r}) is outside the {h}x{w} board")
        return int(self.game.observation.grid[row, col])

    def click(self, row: int, col: int) -> int:
        """Reveal a covered cell (what a left click does); returns the cells opened."""
        code = self._code(row, col)  # a cell off the board raises first
        if self._over("reveal"):
            return 0
        if code != COVERED:
            self.board.message = (f"({row},{col}) is flagged: unflag it (right click) to reveal it"
                                  if code == FLAG else f"({row},{col}) is already revealed")
            return 0
        opened = self.game.reveal(row, col)
        self.refresh(message=f"revealed ({row},{col})" + (": a mine" if self._hit(row, col) else ""))
        return opened

    def _hit(self, row: int, col: int) -> bool:
        """The revealed cell was a mine (shown as one: the game is lost, or in score mode plays on)."""
        return self._code(row, col) == MINE

    def _over(self, action: str) -> bool:
        """The game has ended: the board says so (the action does nothing) rather than staying silent."""
        status = self.game.status
        if status == "playing":
            return False
        self.board.message = f"the game is {status}: no {action} now; New game starts the next one"
        return True

    def flag(self, row: int, col: int) -> None:
        """Flag a covered cell, or unflag a flagged one (what a right click does)."""
        code = self._code(row, col)
        if self._over("flag"):
            return
        if code == FLAG:
            self.game.unflag(row, col)
        elif code == COVERED:
            self.game.flag(row, col)
        else:
            self.board.message = f"({row},{col}) is revealed: only a covered cell takes a flag"
            return
        self.refresh(message=f"unflagged ({row},{col})" if code == FLAG else
                     f"flagged ({row},{col}): every method now takes it as a mine")

    def set_method(self, method: str) -> Explorer:
        """Show the deductions of ``method`` (a key of :data:`sweeplab.METHODS`)."""
        method_info(method)  # ValueError naming the choices
        if self.board.method != method:
            self.board.method = method  # refreshes through _on_control
        else:
            self.refresh()
        return self

    def apply(self) -> int:
        """Play the current deductions: flag the mines, reveal the safe cells; returns the moves made."""
        if self._over("apply"):
            return 0
        if not _same_registration(METHODS.get(self.method), self._deduced_by):  # registered again, or removed
            gone = self.method not in METHODS
            said = (f"method {self.method!r} is registered no more" if gone else
                    f"method {self.method!r} was registered again with other code since its claims were "
                    f"drawn")
            if gone:
                self.board.method = "rref"  # refreshes through _on_control
            else:
                self.refresh()
            claims = self.deduction is not None and self.deduction.cells
            again = ", apply again to play them" if claims else ""
            self.board.message = f"{said}: nothing played; the claims of {self.method!r} are drawn now{again}"
            return 0
        if self.deduction is None or not self.deduction.cells:  # nothing claimed: say why
            if self._no_deduction:  # inconsistent, declined or failed: said again
                self.board.message = self._no_deduction
            elif not _any_revealed(self.game.observation.grid):
                self.board.message = f"{self.method} has nothing to apply: reveal a cell first"
            else:
                self.board.message = f"{self.method} has no deductions here to apply"
            return 0
        moves, hits = 0, []
        for r, c in sorted(self.deduction.mines):
            if self.game.observation.grid[r, c] == COVERED:
                self.game.flag(r, c)
                moves += 1
        for r, c in sorted(self.deduction.safe):
            if self.game.status == "playing" and self.game.observation.grid[r, c] == COVERED:
                self.game.reveal(r, c)
                moves += 1
                hits += [(r, c)] if self._hit(r, c) else []
        self.refresh(message=f"{self.method}: played {moves} move{'s' * (moves != 1)}" + _mines_hit(hits))
        return moves

    def agent_step(self, agent: str | None = None) -> list[tuple[str, int, int, str]]:
        """Let an agent play one turn (its next moves); returns the moves played.

        Parameters
        ----------
        agent : str, optional
            A key of :data:`sweeplab.AGENTS`; the board's current agent when omitted
            (given, it becomes the board's agent).

        Notes
        -----
        The agent plays through :func:`sweeplab.referee.referee`: it sees only the
        observation (SPEC §5), and its random choices come from the explorer's own
        generator, seeded with the seed of the game it started (with ``seed``
        for a game passed in, whose own seed it cannot know).
        """
        from .agents import make_agent

        if agent is not None:
            if agent not in AGENTS:
                raise ValueError(unknown_choice("agent", agent, AGENTS))
            with self.board.hold_trait_notifications():
                self.board.agent = agent
        if self._over("agent step"):
            return []
        g = self.game  # the agent's first move under these rules, as in play (``"auto"`` of best)
        player = make_agent(self.board.agent).for_rules(first_click=g.first_click, shape=g.shape,
                                                        mines=g.n_mines)
        played: list[tuple[str, int, int, str]] = [
            (p.move.kind, p.move.row, p.move.col, p.move.source)
            for p in referee(player, g, self._rng, max_turns=1)]
        hits = [(r, c) for k, r, c, _ in played if k == "reveal" and self._hit(r, c)]
        self.refresh(message=f"agent {self.board.agent}: {_moves_text(played)}" + _mines_hit(hits))
        return played

    def new(self, *, seed: int | None = None, level: str | None = None) -> Explorer:
        """Start a new game.

        Parameters
        ----------
        seed : int or numpy.random.Generator, optional
            The game's seed (a Generator gives one, by a draw); the next one when omitted.
        level : str, optional
            A key of :data:`sweeplab.LEVELS`, or the board the explorer started
            with (as the level menu names it); the board's current level when omitted.
        """
        if level is not None and level not in self._boards:
            raise ValueError(f"unknown level {level!r}; choose one of {list(self._boards)}")
        level = self.board.level if level is None else level
        # an int, checked before anything changes (a Generator's draw: the board says "seed N", then N + 1)
        seed = self._seed + 1 if seed is None else root_seed(seed)
        shape, mines = self._boards[level]
        game = new_game(shape=shape, mines=mines, **self._rules, seed=seed)  # a bad seed raises here
        self.game, self._seed = game, seed
        self._rng = agent_generator_beside(seed)  # not the board's stream
        self._set_quietly("level", level)
        self.board.game_id += 1
        self.refresh(message=f"new game, seed {self._seed}")
        return self

    # the board --------------------------------------------------------------
    def _on_message(self, content: Any) -> None:
        """A message from the board's JavaScript.  A bad one (a cell off this board, say a click sent
        just before the level changed) is said on the board: raised here, ipywidgets would only log it,
        and the board would seem to do nothing."""
        event = content.get("event") if isinstance(content, dict) else None
        sent_in = content.get("game", self.board.game_id) if isinstance(content, dict) else None
        if event is not None and sent_in != self.board.game_id:  # sent before New game or a level change
            self.board.message = (f"{event!s:.20} ignored: it was sent from an earlier game's board "
                                  f"(game {sent_in!r:.20}, this is game {self.board.game_id})")
            return
        try:
            if event in ("click", "flag"):
                cell = cell_pair((content.get("row"), content.get("col")))
                if cell is None:
                    raise ValueError(f"a {event} needs integer row and col, got row={content.get('row')!r}, "
                                     f"col={content.get('col')!r}")
                play = self.flag if event == "flag" or self.board.flag_mode else self.click
                play(*cell)
            else:
                self._on_action(event)
        except ValueError as exc:
            self.board.message = str(exc)
        except Exception as exc:  # noqa: BLE001 - a bug: said on the board, not only in the kernel's log
            agent = AGENTS.get(self.board.agent)
            whose = ("the agent" if event == "agent_step" and agent is not None and not agent.builtin
                     else "sweeplab")
            self.board.message = f"{event} failed: {type(exc).__name__}: {exc} (a bug in {whose})"

    def _on_action(self, event: Any) -> None:
        if event == "apply":
            self.apply()
        elif event == "agent_step":
            self.agent_step()
        elif event == "new":
            self.new()
        else:  # a custom front end's typo: say so rather than leave the last action's message
            self.board.message = (f"unknown board event {event!r:.40}; the board sends click, flag, apply, "
                                  f"agent_step or new")

    def _on_control(self, change: dict) -> None:
        name, new = change["name"], change["new"]
        if name == "method" and new not in METHODS:
            self.board.method = change["old"]  # e.g. a method unregistered since the list was sent
        elif name == "agent":
            if new not in AGENTS:  # set from Python to no agent: back to the one before
                self._set_quietly("agent", change["old"])
        elif name == "show_marks":  # the summary's counts are the method's certainties too
            self.board.summary = self._summary(self.game.observation)
        elif name == "level":
            if self._quiet:
                return
            if new in self._boards:
                self.new()
            else:  # back to the level of the game in play, which goes on
                self._set_quietly("level", change["old"])
        else:
            self.refresh()

    def _set_quietly(self, name: str, value: Any) -> None:
        """Set a control of the board without :meth:`_on_control` acting on it."""
        self._quiet = True
        try:
            setattr(self.board, name, value)
        finally:
            self._quiet = False

    def refresh(self, *, message: str = "") -> None:
        """Recompute the deductions (with proofs), probabilities and open panel; send them to the board."""
        obs, game, board = self.game.observation, self.game, self.board
        if board.method not in METHODS:  # unregistered since it was chosen
            board.method = "rref"  # refreshes through _on_control
            return
        self.deduction, self.probabilities, self._no_deduction = None, None, ""
        self._deduced_by = METHODS[board.method]  # the registration the claims drawn come from
        builtin = self._deduced_by.builtin
        whose = "a bug in sweeplab" if builtin else "a bug in the method"  # whatever it raises, if a bug
        playing, inconsistent = game.status == "playing", False
        try:
            # once a cell is open: a mine stepped on (score mode) or hidden numbers (lost clues) leave the
            # total and the known mines to deduce from
            if playing and _any_revealed(obs.grid):
                self.deduction = deduce(obs, method=self.method, proofs=True)
        except InconsistentPositionError as exc:  # wrong flags, or a method's bug: the game's layout tells
            if game.layout is not None and layout_fits(obs, game.layout):
                self._no_deduction = (f"{self.method} says no mine layout fits this position, but the game's "
                                      f"own layout does ({whose}): {exc}")
            else:
                self._no_deduction = f"no mine layout fits this position (a wrong flag?): {exc}"
                inconsistent = True
        except MethodRefused as exc:  # e.g. a frontier too large for brute force
            self._no_deduction = f"{self.method} declines this position: {exc}"
        except Exception as exc:  # noqa: BLE001 - a method's bug must not leave the board behind the game
            # a bug that says so already, or deduce's own refusal (a method's option without a default)
            said = isinstance(exc, MethodBugError) or (isinstance(exc, ValueError) and not builtin)
            self._no_deduction = (str(exc) if said
                                  else f"{self.method} raised {type(exc).__name__}: {exc} ({whose})")
        # cheap (exact, by components): sent always, for the hover, drawn when asked, whatever the method
        # did (brute declining an expert board took them away).  Not before a first click the rules make
        # safe: their model (every layout equally likely) does not hold for the cell clicked first.
        if playing and not self._untouched_safe_start() and not inconsistent:
            try:
                self.probabilities = probabilities(obs)
            except (InconsistentPositionError, MethodRefused) as exc:
                self._no_deduction = _then(self._no_deduction, f"no probabilities: {exc}")
        message = _then(message, self._no_deduction) if self._no_deduction else message
        d = self.deduction
        proofs = {} if d is None or d.proofs is None else d.proofs
        why = {} if d is None else {cell: d.unproved_reason(cell, obs) for cell in sorted(d.unproved)}
        reasons = {f"{r},{c}": reason for (r, c), reason in why.items()}
        if d is not None and why:
            try:  # a refuting layout for the first few claims that are not forced
                reasons = {f"{r},{c}": reason + _refutation(d, (r, c), obs, k < REFUTED)
                           for k, ((r, c), reason) in enumerate(why.items())}
            except Exception as exc:  # noqa: BLE001 - the reasons without layouts, and the bug said
                bug = f"{type(exc).__name__}: {exc}; a bug in sweeplab"
                message = _then(message, f"no refuting layout ({bug})")
        with board.hold_sync():
            board.methods = [{"name": name, "sound": info.sound, "complete": info.complete,
                              "summary": info.summary} for name, info in METHODS.items()]
            board.agents = list(AGENTS)  # those registered since the board was made too
            board.grid = obs.grid.tolist()
            board.status = game.status
            board.layout = [] if playing or game.layout is None else np.argwhere(game.layout).tolist()
            board.safe = sorted([r, c] for r, c in d.safe) if d else []
            board.mines = sorted([r, c] for r, c in d.mines) if d else []
            board.proofs = {f"{r},{c}": _proof_view(p, obs) for (r, c), p in proofs.items()}
            board.unproved = sorted([r, c] for r, c in d.unproved) if d else []
            board.unproved_reasons = reasons
            if why:
                kinds = "; ".join(sorted(set(why.values())))
                note = f"{count_text(len(board.unproved_reasons), 'claimed cell')} without a proof: {kinds}"
                message = f"{message} · {note}" if message else note
            board.probabilities = [] if self.probabilities is None else [
                [None if np.isnan(p) else float(p) for p in row] for row in self.probabilities]
            board.probability_kind = ("exact" if obs.noise not in ("under", "over")
                                      else "every layout within the noisy bounds equally likely")
            board.matrix = {} if board.panel == "none" else panel_table(obs, board.panel)
            board.summary = self._summary(obs)
            board.message = message

    def _untouched_safe_start(self) -> bool:
        """No cell revealed yet, and the first-click rule keeps the first click off the mines."""
        return self.game.first_click != "none" and not _any_revealed(self.game.observation.grid)

    def _summary(self, obs: Observation) -> str:
        info, d = METHODS[self.method], self.deduction
        grid = obs.grid
        layout = self.game.layout
        if self.game.status == "lost" and layout is not None:  # the layout is shown: count from it
            unflagged = int((layout & (grid != FLAG) & (grid != MINE)).sum())
            wrong = int(((grid == FLAG) & ~layout).sum())
            mines = f"{mines_text(unflagged)} not flagged" + (
                f", {count_text(wrong, 'wrong flag')}" if wrong else "")
        else:  # in play the counter is the total less the flags, as on every Minesweeper
            known = int(((grid == FLAG) | (grid == MINE)).sum())
            left = 0 if self.game.status == "won" else self.game.n_mines - known  # won: every mine is found
            mines = (f"{mines_text(left)} left" if left >= 0
                     else f"{-left} more flag{'s' * (left != -1)} than mines (a wrong flag?)")
        if self.game.mode == "score" and (self.game.mines_hit or self.game.status != "playing"):
            mines += f" · {self.game.mines_hit} stepped on, score {self.game.score:.2f}"  # SPEC §3
        kind = sound_label(info.sound) + (", complete" if info.complete else "")
        found = "" if d is None or not self.board.show_marks else (  # deductions hidden: their counts too
            f": {len(d.safe)} safe, {mines_text(len(d.mines))} in {1000 * d.seconds:.1f} ms")
        start = (f" · the first click is safe (rule {self.game.first_click!r})"
                 if self.game.status == "playing" and self._untouched_safe_start() else "")
        return f"{self.game.status} · {mines} · {self.method} ({kind}){found}{start}"

    def _repr_mimebundle_(self, **kwargs: Any):
        return self.board._repr_mimebundle_(**kwargs)


def _same_registration(now: MethodInfo | None, then: MethodInfo) -> bool:
    """Whether a method's registration is the one its drawn claims came from, or the same definition
    registered again (a notebook cell run twice: :func:`~sweeplab.methods.same_function`)."""
    return now is then or (now is not None and same_function(now.function, then.function) and (
        now.sound, now.complete, now.reads_bounds) == (then.sound, then.complete, then.reads_bounds))


def _any_revealed(grid: np.ndarray) -> bool:
    """Some cell is open: a number, a hidden number (lost clue) or a mine stepped on."""
    return bool(((grid >= 0) | (grid == NOCLUE) | (grid == MINE)).any())


def _moves_text(played: list[tuple[str, int, int, str]], *, shown: int = 3) -> str:
    """An agent's turn in a line: its first moves, each with what decided it, then how many more.

    Examples
    --------
    >>> _moves_text([("reveal", 0, 0, "first")])
    'reveal (0,0), the first click'
    >>> _moves_text([("reveal", 1, 2, "trivial")] * 4 + [("flag", 3, 3, "trivial")])
    'reveal (1,2) by trivial, reveal (1,2) by trivial, reveal (1,2) by trivial and 2 more (4 reveals, 1 flag)'
    """
    if not played:
        return "no move"
    why = {"first": ", the first click", "guess": ", a guess"}
    said = [f"{k} ({r},{c}){why.get(src, f' by {src}')}" for k, r, c, src in played[:shown]]
    if len(played) <= shown:
        return ", ".join(said)
    flags = sum(k == "flag" for k, *_ in played)
    reveals = len(played) - flags
    counts = f"{reveals} reveal{'s' * (reveals != 1)}, {flags} flag{'s' * (flags != 1)}"
    return f"{', '.join(said)} and {len(played) - shown} more ({counts})"


def _mines_hit(cells: list[tuple[int, int]]) -> str:
    """What a message adds when reveals hit mines (score mode plays on after one)."""
    if not cells:
        return ""
    return f"; a mine at {', '.join(f'({r},{c})' for r, c in cells)}"


def _uses(steps, out: dict) -> dict:
    """Every row the combining steps use, with its multipliers in order."""
    for step in steps:
        if isinstance(step, Combine):
            for src, m in step.rows:
                out.setdefault(src, []).append(m)
        elif isinstance(step, Assume):
            _uses(step.steps, out)
        elif isinstance(step, Split):
            _uses(step.if_0, out)
            _uses(step.if_1, out)
    return out


def _proof_view(proof: Proof, obs: Observation) -> dict:
    """What the board shows of a proof: the text, the rows used with their multipliers, the cells it fixes."""
    sources = [["total", ms] if src == "total" else [src[0], src[1], ms]
               for src, ms in _uses(proof.steps, {}).items()]
    size = proof.size
    return {
        "value": proof.value,
        "text": proof.explain(obs),
        "sources": sources,
        "cells": sorted([r, c] for r, c in proof.cells - {proof.cell}),
        "size": (f"{size.steps} step{'s' * (size.steps != 1)}, {size.rows} row{'s' * (size.rows != 1)}"
                 + (", by cases" if proof.case_analysis else "")),
    }
