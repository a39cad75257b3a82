"""The board widget of the explorer: an anywidget that draws a game and sends clicks.

:class:`BoardWidget` holds no game and runs no method: :class:`sweeplab.explorer.Explorer`
owns both, and sets the widget's synchronised traits (the grid, the deductions, their
proofs, the probabilities, the matrix panel) after every move.  The browser side,
``static/board.js`` with ``static/board.css``, draws exactly that state as an SVG board
and sends back what the user does: left click, right click (flag), the buttons, and the
controls (method, agent, flag mode, probabilities, deductions shown, matrix panel), which are traits.
"""

from __future__ import annotations

from pathlib import Path

try:
    import anywidget
    import traitlets as t
except ImportError as exc:  # installed without the notebook extra
    raise ImportError(f"the explorer's board needs anywidget ({exc}); install the notebook extra: "
                      f"pip install 'sweeplab[notebooks]'") from exc

__all__ = ["BoardWidget"]

_STATIC = Path(__file__).parent / "static"


class BoardWidget(anywidget.AnyWidget):
    """The state the board view draws, and the controls it changes (traitlets, synced with the browser).

    The view sends custom messages ``{"event": name, ...}``: ``"click"`` and
    ``"flag"`` with ``row`` and ``col``, then ``"apply"``, ``"agent_step"`` and
    ``"new"``; whoever owns the game listens with ``on_msg`` (ipywidgets).

    Attributes
    ----------
    grid : list of list of int
        The observation's cell codes (SPEC §1).
    status : str
        ``"playing"``, ``"won"`` or ``"lost"``.
    summary, message : str
        The status line (plain text) and the last action's outcome.
    layout : list of [row, col]
        Every mine of the layout, sent only once the game is over.
    safe, mines : list of [row, col]
        The current method's deductions (claims, for an unsound method).
    proofs : dict
        ``"row,col"`` of each deduced cell to ``{"value", "text", "sources", "cells",
        "size"}``: the proof (SPEC §6) in words, the clues it uses with their summed
        multipliers (``[row, col, m]``, or ``["total", m]``), the cells it fixes.
    unproved : list of [row, col]
        Deduced cells left without a proof, with the reasons in ``message``.
    unproved_reasons : dict
        ``"row,col"`` of each of them to why it has no proof
        (:meth:`sweeplab.methods.Deduction.unproved_reason`); for a claim that is not forced (the
        first few), a layout that fits every clue with the cell the other way
        (:func:`sweeplab.rollouts.sample_layouts` with ``given``).
    probabilities : list of list of float or None
        Exact mine probability of each cell (``None`` where revealed, 1 on a flag), sent whether or
        not they are drawn (the hover line reads them); empty before a first click the rules make
        safe and once the game is over.
    probability_kind : str
        How the hover line qualifies them: ``"exact"``, or under clue noise read as bounds the
        model they rest on.
    methods : list of dict
        ``name``, ``sound``, ``complete``, ``summary`` of each method of :data:`sweeplab.METHODS`.
    method, agent : str
        The method whose deductions are shown; the agent *Agent step* plays.
    agents : list of str
    level : str
        The level of the game; choosing another starts a new game on it.
    levels : list of str
        The preset levels (:data:`sweeplab.LEVELS`), and the game's own board when it is none of them.
    flag_mode : bool
        Left clicks flag and unflag instead of revealing.
    show_probabilities : bool
        The probabilities drawn on the covered cells (the hover line gives them always, unless
        ``show_marks`` is off).
    show_marks : bool
        The method's marks, proofs and certainties on the board and in the hover line (on by
        default); off, a class plays unaided.
    panel : str
        ``"none"``, ``"matrix"`` (``[A | b]``) or ``"rref"``.
    matrix : dict
        The open panel's table: ``kind``, ``note``, ``columns`` (``name`` and ``cell``,
        or ``count`` for the collapsed interior) and ``rows`` (``label``, ``source``,
        ``values``, ``b``, ``fixes``).
    game_id : int
        Changes with every new game, so the view drops what it showed of the old one.
    """

    _esm = _STATIC / "board.js"
    _css = _STATIC / "board.css"

    grid = t.List(t.List(t.Int())).tag(sync=True)
    status = t.Unicode("playing").tag(sync=True)
    summary = t.Unicode("").tag(sync=True)
    message = t.Unicode("").tag(sync=True)
    layout = t.List(t.List(t.Int())).tag(sync=True)
    safe = t.List(t.List(t.Int())).tag(sync=True)
    mines = t.List(t.List(t.Int())).tag(sync=True)
    proofs = t.Dict().tag(sync=True)
    unproved = t.List(t.List(t.Int())).tag(sync=True)
    unproved_reasons = t.Dict().tag(sync=True)
    probabilities = t.List(t.List(t.Float(allow_none=True))).tag(sync=True)
    probability_kind = t.Unicode("exact").tag(sync=True)
    methods = t.List(t.Dict()).tag(sync=True)
    method = t.Unicode("rref").tag(sync=True)
    agents = t.List(t.Unicode()).tag(sync=True)
    agent = t.Unicode("best").tag(sync=True)
    levels = t.List(t.Unicode()).tag(sync=True)
    level = t.Unicode("beginner").tag(sync=True)
    flag_mode = t.Bool(False).tag(sync=True)
    show_probabilities = t.Bool(False).tag(sync=True)
    show_marks = t.Bool(True).tag(sync=True)
    panel = t.Enum(["none", "matrix", "rref"], "none").tag(sync=True)
    matrix = t.Dict().tag(sync=True)
    game_id = t.Int(0).tag(sync=True)

    def __repr__(self) -> str:
        rows = len(self.grid)
        cols = len(self.grid[0]) if rows else 0
        return (f"sweeplab board {rows}x{cols}, {self.status}: run the notebook (Run All) "
                "in JupyterLab to play")
