"""Positions: what a player sees of a Minesweeper board (SPEC §1).

A position is a grid of cell codes plus, optionally, the board's total number
of mines.  Codes ``0..8`` are revealed clues; negative codes are the constants
below.  The text form uses one row per line::

    ??????
    ?1122?

with ``?``/``#`` covered, ``F`` flag, ``*`` revealed mine, ``-`` revealed
without a number, ``0``-``8`` a clue and ``.`` a revealed zero.
"""

from __future__ import annotations

import html
import numbers
import os
import reprlib
from collections.abc import Iterable
from functools import lru_cache

import numpy as np

from .errors import InconsistentPositionError  # re-exported: positions raise it (SPEC §1)

__all__ = [
    "COVERED",
    "FLAG",
    "MINE",
    "NOCLUE",
    "NOISE_KINDS",
    "InconsistentPositionError",
    "Observation",
    "as_observation",
    "cell_pair",
    "is_real",
    "layout_fits",
    "neighbour_counts",
    "neighbour_table",
    "short_repr",
]

#: Code of a covered cell: nothing known (SPEC §1).
COVERED = -1
#: Code of a flagged cell: treated as a known mine by every method.
FLAG = -2
#: Code of a revealed mine (possible in score mode, SPEC §3): a known mine.
MINE = -3
#: Code of a revealed safe cell whose number is hidden (clue noise "lost", SPEC §3): no equation.
NOCLUE = -4

#: Clue-noise kinds of seed report 004 (SPEC §3).
NOISE_KINDS = ("lost", "under", "over")

_CHAR_TO_CODE = {
    "?": COVERED,
    "#": COVERED,
    "F": FLAG,
    "*": MINE,
    "-": NOCLUE,
    ".": 0,
    **{str(k): k for k in range(9)},
}
#: Text character of each code, indexed by ``code - NOCLUE``.
_CODE_CHARS = np.frombuffer(b"-*F?.12345678", dtype="S1")


@lru_cache(maxsize=64)
def neighbour_table(shape: tuple[int, int]) -> np.ndarray:
    """Flat indices of the up-to-8 neighbours of every cell, padded with -1.

    Parameters
    ----------
    shape : tuple of int
        ``(height, width)`` of the board.

    Returns
    -------
    numpy.ndarray
        Read-only ``int64`` array of shape ``(height * width, 8)``.

    Examples
    --------
    >>> t = neighbour_table((2, 2))
    >>> sorted(int(i) for i in t[0] if i >= 0)
    [1, 2, 3]
    """
    h, w = shape
    rows, cols = np.divmod(np.arange(h * w), w)
    table = np.full((h * w, 8), -1, dtype=np.int64)
    k = 0
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == 0 and dc == 0:
                continue
            r, c = rows + dr, cols + dc
            ok = (r >= 0) & (r < h) & (c >= 0) & (c < w)
            table[ok, k] = r[ok] * w + c[ok]
            k += 1
    return frozen_grid(table)  # cached for every board of this shape: numpy cannot make it writeable again


def neighbour_sum(values: np.ndarray) -> np.ndarray:
    """For every cell, the sum of ``values`` over its (up to 8) neighbours, in the dtype of ``values``.

    The neighbours are added in row-major order, so float sums are the same on every call.

    Examples
    --------
    >>> neighbour_sum(np.array([[0.5, 1.0], [0.0, 2.0]])).tolist()
    [[3.0, 2.5], [3.5, 1.5]]
    """
    v = np.asarray(values)
    h, w = v.shape
    p = np.zeros((h + 2, w + 2), dtype=v.dtype)
    p[1:-1, 1:-1] = v
    out = p[:-2, :-2] + p[:-2, 1:-1]
    for dr, dc in ((0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)):
        out += p[dr : dr + h, dc : dc + w]
    return out


def neighbour_counts(mask: np.ndarray) -> np.ndarray:
    """Number of ``True`` cells among the 8 neighbours of every cell (``int8``: at most 8).

    Examples
    --------
    >>> neighbour_counts(np.array([[1, 0], [0, 0]], dtype=bool)).tolist()
    [[0, 1], [1, 1]]
    """
    return neighbour_sum(np.asarray(mask, dtype=bool).astype(np.int8))


class Observation:
    """A Minesweeper position as a player sees it.

    Parameters
    ----------
    grid : array_like of int
        2-D array of cell codes: ``0..8`` clues, :data:`COVERED`, :data:`FLAG`,
        :data:`MINE` or :data:`NOCLUE`.
    mines : int, optional
        The board's total number of mines (flags and revealed mines included),
        or ``None`` when unknown.
    noise : {None, "lost", "under", "over"}
        The clue-noise model the numbers come from (seed report 004): ``None``
        means every number is exact, ``"under"`` that numbers are lower bounds,
        ``"over"`` upper bounds, ``"lost"`` that some clues are hidden.

    Raises
    ------
    ValueError
        On a grid that is not 2-D, an unknown code, a clue above 8, or a total
        below the known mines or above the number of cells.

    Examples
    --------
    >>> obs = Observation.from_text('''
    ... ???
    ... 12?
    ... ''', mines=2)
    >>> obs.shape, obs.mines
    ((2, 3), 2)
    >>> print(obs.to_text())
    ???
    12?
    """

    __slots__ = ("_grid", "_mines", "_noise")

    def __init__(
        self,
        grid: np.ndarray | Iterable[Iterable[int]],
        *,
        mines: int | None = None,
        noise: str | None = None,
    ) -> None:
        arr = _as_array(grid)
        if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] == 0:
            raise ValueError(
                f"grid must be a non-empty 2-D array of cell codes (rows of equal length), "
                f"got {type(grid).__name__} of shape {arr.shape}"
                + ("; parse the text form with Observation.from_text" if isinstance(grid, str) else "")
                + ("; for a game pass game.observation" if hasattr(grid, "observation") else "")
            )
        if arr.dtype.kind not in "iu" and not _is_integral_float(arr):
            raise ValueError(
                f"grid must hold integer cell codes (clues 0..8, special codes -1..-4), "
                f"got dtype {arr.dtype}"
            )
        bad = (arr < NOCLUE) | (arr > 8)
        if bad.any():
            r, c = (int(i) for i in np.argwhere(bad)[0])
            raise ValueError(
                f"cell code {arr[r, c].item()!r} at row {r}, column {c} is out of range "
                f"(clues are 0..8, special codes -1..-4)"
            )
        self._set(frozen_grid(arr.astype(np.int8)), mines, noise, validate=True)

    def _set(self, grid: np.ndarray, mines: int | None, noise: str | None, *, validate: bool):
        if validate:
            if noise is not None:
                if not isinstance(noise, str) or noise not in NOISE_KINDS:
                    raise ValueError(f"noise must be None or one of {NOISE_KINDS}, got {short_repr(noise)}")
                noise = str(noise)
            if mines is not None:
                try:
                    integral = not isinstance(mines, (bool, np.bool_)) and bool(int(mines) == mines)
                except (TypeError, ValueError, OverflowError, ArithmeticError):
                    integral = False
                if not integral:
                    raise ValueError(
                        f"mines must be an integer or None (total unknown), got {short_repr(mines)}"
                    )
                mines = int(mines)
                if mines < 0:
                    raise ValueError(f"mines must be non-negative, got {mines}")
                known = int(np.count_nonzero((grid == FLAG) | (grid == MINE)))
                if mines < known:
                    raise ValueError(
                        f"mines={mines} is below the {known} known mines (flags and revealed mines)"
                    )
                if mines > grid.size:
                    raise ValueError(f"mines={mines} exceeds the {grid.size} cells of the board")
        self._grid = grid
        self._mines = mines
        self._noise = noise

    @classmethod
    def _trusted(cls, grid: np.ndarray, mines: int | None, noise: str | None = None) -> Observation:
        """Wrap an ``int8`` read-only grid without validation (game engine hot path)."""
        obs = cls.__new__(cls)
        obs._grid, obs._mines, obs._noise = grid, mines, noise
        return obs

    @classmethod
    def from_text(cls, text: str, *, mines: int | None = None, noise: str | None = None) -> Observation:
        """Parse the text form (SPEC §1); whitespace and blank lines are ignored.

        Raises
        ------
        ValueError
            On a ``text`` that is not a string, an unknown character, ragged
            rows, no rows, or a bad ``mines``/``noise`` (see :class:`Observation`).

        Examples
        --------
        >>> Observation.from_text("?F*\\n-.8").grid.tolist()
        [[-1, -2, -3], [-4, 0, 8]]
        """
        if not isinstance(text, str):
            raise ValueError(
                f"text must be a str holding the position's rows (characters ?#F*-.012345678), "
                f"got {type(text).__name__} {short_repr(text)}"
            )
        rows: list[list[int]] = []
        # rows end at \n, \r\n or \r only: other characters splitlines() breaks at (\v, \x1c) are
        # whitespace, ignored as SPEC §1 says (a reviewer: "?1\v11" read as two rows)
        for line_no, line in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n")):
            chars = "".join(line.split())
            if not chars:
                continue
            row = []
            for col, ch in enumerate(chars):
                code = _CHAR_TO_CODE.get(ch)
                if code is None:
                    hint = " (clues are 0..8)" if ch.isdigit() else ""
                    if "\n" not in text.strip() and os.path.isfile(text.strip()):
                        hint = (f" ({text.strip()!r} is a file: read it with Path(...).read_text(), or "
                                f"sweeplab.load_position for JSON)")
                    raise ValueError(
                        f"unknown character {ch!r} at row {len(rows)}, column {col} "
                        f"(text line {line_no + 1}){hint}; expected one of ?#F*-.012345678"
                    )
                row.append(code)
            if rows and len(row) != len(rows[0]):
                raise ValueError(
                    f"ragged rows: row {len(rows)} has {len(row)} cells, row 0 has {len(rows[0])}"
                )
            rows.append(row)
        if not rows:
            raise ValueError("empty position: no rows in text")
        return cls(np.array(rows, dtype=np.int8), mines=mines, noise=noise)

    def to_text(self) -> str:
        """The text form, one row per line; ``from_text(obs.to_text())`` gives back the grid.

        The grid only: pass ``mines`` and ``noise`` to :meth:`from_text` again (a position read
        back without ``noise="under"`` would take bounds for exact clues).  :func:`sweeplab.save_position`
        keeps all three.

        Examples
        --------
        >>> obs = Observation.from_text("??\\n12", mines=2, noise="under")
        >>> back = Observation.from_text(obs.to_text(), mines=obs.mines, noise=obs.noise)
        >>> back.to_text(), back.mines, back.noise
        ('??\\n12', 2, 'under')
        """
        chars = _CODE_CHARS[self._grid.astype(np.intp) - NOCLUE]
        return "\n".join(row.tobytes().decode("ascii") for row in chars)

    @property
    def grid(self) -> np.ndarray:
        """Read-only ``int8`` array of cell codes."""
        return self._grid

    @property
    def mines(self) -> int | None:
        """Total mines on the board, or ``None`` when unknown."""
        return self._mines

    @property
    def noise(self) -> str | None:
        """Clue-noise kind the numbers come from, or ``None`` for exact clues."""
        return self._noise

    @property
    def shape(self) -> tuple[int, int]:
        return self._grid.shape  # type: ignore[return-value]

    @property
    def known_mines(self) -> int:
        """Flags plus revealed mines."""
        return int(np.count_nonzero((self._grid == FLAG) | (self._grid == MINE)))

    @property
    def covered(self) -> np.ndarray:
        """Boolean mask of covered, unflagged cells."""
        return self._grid == COVERED

    def with_mines(self, mines: int | None) -> Observation:
        """The same grid with another total."""
        return Observation(self._grid, mines=mines, noise=self._noise)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Observation):
            return NotImplemented
        return (
            self._mines == other._mines
            and self._noise == other._noise
            and np.array_equal(self._grid, other._grid)
        )

    def __reduce__(self):
        # Pickles (process pools) keep the grid read-only and skip re-validation.
        return (_restore, (self._grid.tobytes(), self.shape, self._mines, self._noise))

    def __hash__(self) -> int:
        return hash((self._grid.tobytes(), self._grid.shape, self._mines, self._noise))

    def __repr__(self) -> str:
        extra = "" if self._noise is None else f", noise={self._noise!r}"
        body = "\n".join("    " + line for line in self.to_text().splitlines())
        return f"Observation.from_text('''\n{body}\n''', mines={self._mines!r}{extra})"

    def _repr_html_(self) -> str:
        """Draw the grid as an HTML table in a notebook.

        Boards above 4,000 cells show as monospace text, above 40,000 as a summary.

        Examples
        --------
        >>> html_text = Observation.from_text("?1", mines=1)._repr_html_()
        >>> html_text.startswith("<table"), html_text.count("<td")
        (True, 2)
        """
        h, w = self.shape
        g = self._grid
        caption = (
            f"{h}×{w}, mines={self._mines}, covered {int(np.count_nonzero(g == COVERED))}, "
            f"flags {int(np.count_nonzero(g == FLAG))}"
        )
        if self._noise:
            caption += f", noise={html.escape(self._noise)}"
        if g.size > 40_000:
            return f"<p><code>Observation</code>: {caption}</p>"
        if g.size > 4_000:
            return f'<pre style="line-height:1">{html.escape(self.to_text())}</pre><p>{caption}</p>'
        td = _HTML_CELLS
        rows = "".join("<tr>" + "".join(td[v - NOCLUE] for v in row) + "</tr>" for row in g.tolist())
        return (
            '<table style="border-collapse:collapse"><caption style="caption-side:bottom">'
            f"{caption}</caption>{rows}</table>"
        )


def _html_cells() -> tuple[str, ...]:
    """One ``<td>`` per code, indexed by ``code - NOCLUE``."""
    colours = ["#eee", "#1f4fd1", "#1b7f2a", "#c81e1e", "#1a1a7a", "#7a1a1a", "#137a7a", "#000", "#555"]
    cell = "width:1.4em;height:1.4em;text-align:center;font:bold 0.9em monospace;border:1px solid #999;"
    special = {
        NOCLUE: ("background:#eee;color:#999", "-"),
        MINE: ("background:#f4a3a3", "&#9679;"),
        FLAG: ("background:#b9bec7;color:#c81e1e", "&#9873;"),
        COVERED: ("background:#b9bec7", ""),
    }
    out = []
    for code in range(NOCLUE, 9):
        style, text = special.get(code, (f"background:#eee;color:{colours[max(code, 0)]}", str(code)))
        out.append(f'<td style="{cell}padding:0;{style}">{"" if code == 0 else text}</td>')
    return tuple(out)


_HTML_CELLS = _html_cells()


def frozen_grid(grid: np.ndarray) -> np.ndarray:
    """A read-only copy of ``grid`` that numpy cannot make writeable again (it lives in a ``bytes``).

    Examples
    --------
    >>> g = frozen_grid(np.zeros((2, 3), np.int8))
    >>> g.shape, g.flags.writeable
    ((2, 3), False)
    """
    return np.frombuffer(grid.tobytes(), dtype=grid.dtype).reshape(grid.shape)


def _restore(data: bytes, shape: tuple[int, int], mines: int | None, noise: str | None) -> Observation:
    return Observation._trusted(np.frombuffer(bytes(data), dtype=np.int8).reshape(shape), mines, noise)


_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxstring, _REPR.maxother = 3, 60, 60
_REPR.maxlist = _REPR.maxtuple = _REPR.maxset = _REPR.maxdict = 8
_MAX_REPR = 200  # characters: nested containers of 8 items a level still fit on one line


def cell_pair(value: object) -> tuple[int, int] | None:
    """``value`` as a cell ``(row, col)`` of Python ints when it is a pair of integers, else ``None``.

    Floats, bools, strings such as ``"02"`` and sets are not cells (``int()`` would make some cell
    of them).

    Examples
    --------
    >>> cell_pair((np.int64(1), 2)), cell_pair((0.0, 1)), cell_pair("02"), cell_pair((True, 1))
    ((1, 2), None, None, None)
    """
    if not (isinstance(value, tuple | list | np.ndarray) and len(value) == 2):
        return None
    if not all(isinstance(v, numbers.Integral) and not isinstance(v, bool | np.bool_) for v in value):
        return None
    return int(value[0]), int(value[1])


def layout_fits(obs: Observation, layout: np.ndarray, *, use_total: bool = True) -> bool:
    """Whether the mines ``layout`` are one of the layouts of ``obs`` (SPEC §1, §3).

    Every flag and shown mine is on a mine of ``layout``; every other revealed
    cell is safe and its number counts its mined neighbours (at most that count
    under clue noise ``"under"``, at least under ``"over"``; a lost clue says
    nothing); with ``use_total``, the known total is met.  A method that raises
    ``InconsistentPositionError`` on such a position is wrong.

    Examples
    --------
    >>> obs = Observation.from_text("?1\\n11", mines=1)
    >>> layout_fits(obs, np.array([[1, 0], [0, 0]], dtype=bool))
    True
    >>> layout_fits(obs, np.zeros((2, 2), dtype=bool))  # the 1s count no mine
    False
    """
    grid, mask = obs.grid, np.asarray(layout, dtype=bool)
    if mask.shape != grid.shape:
        raise ValueError(f"layout has shape {mask.shape}, the position {grid.shape}; give one of its shape")
    known_mine = (grid == FLAG) | (grid == MINE)
    revealed = (grid != COVERED) & ~known_mine
    if not mask[known_mine].all() or mask[revealed].any():
        return False
    numbered = grid >= 0
    shown, true = grid[numbered], neighbour_counts(mask)[numbered]
    if obs.noise == "under":
        ok = (shown <= true).all()
    elif obs.noise == "over":
        ok = (shown >= true).all()
    else:
        ok = (shown == true).all()
    return bool(ok) and not (use_total and obs.mines is not None and int(mask.sum()) != obs.mines)


def is_real(value: object) -> bool:
    """A real number (Python's, numpy's, a ``Fraction``), not a bool: what a bound can be compared with.

    Examples
    --------
    >>> is_real(0.2), is_real(np.int64(3)), is_real(True), is_real("0.2")
    (True, True, False, False)
    """
    return isinstance(value, numbers.Real) and not isinstance(value, bool | np.bool_)


def short_repr(value: object) -> str:
    """``repr`` bounded in length and nesting, for error messages about arbitrary input.

    Examples
    --------
    >>> short_repr([[[[1]]]])
    '[[[[...]]]]'
    >>> len(short_repr([{str(k): list(range(9)) for k in range(9)}] * 9))
    200
    """
    try:
        text = _REPR.repr(value)
    except Exception:  # a hostile __repr__ must not hide the real error
        return f"<{type(value).__name__}>"
    return text if len(text) <= _MAX_REPR else text[: _MAX_REPR - 3] + "..."


def _as_array(grid: object) -> np.ndarray:
    """``numpy.asarray`` with its failures (ragged rows, deep nesting) as one clear ``ValueError``."""
    if isinstance(grid, np.ma.MaskedArray) and np.ma.getmaskarray(grid).any():  # asarray drops the mask
        raise ValueError(f"grid is a masked array with {int(np.ma.getmaskarray(grid).sum())} masked cells, "
                         f"whose hidden values would be read as codes; fill them first, e.g. "
                         f"numpy.ma.filled(grid, sweeplab.COVERED) to show them as covered")
    try:
        return np.asarray(grid)
    except (ValueError, TypeError, OverflowError, RecursionError):
        raise ValueError(
            f"grid must be a non-empty 2-D array of integer cell codes with rows of equal length, "
            f"got ragged or nested {type(grid).__name__} {short_repr(grid)}"
        ) from None


def _is_integral_float(arr: np.ndarray) -> bool:
    return np.issubdtype(arr.dtype, np.floating) and bool(np.all(np.isfinite(arr))) and bool(
        np.all(arr == np.round(arr))
    )


def as_observation(position: Observation | str | np.ndarray, *, mines: int | None = None) -> Observation:
    """Accept an :class:`Observation`, its text form or a code array.

    Examples
    --------
    >>> as_observation("?1\\n11", mines=1).mines
    1
    """
    if isinstance(position, Observation):
        return position if mines is None else position.with_mines(mines)
    if isinstance(position, str):
        return Observation.from_text(position, mines=mines)
    if position is None or isinstance(position, (bytes, bytearray, int, float, dict, set)):
        raise ValueError(
            f"position must be an Observation, its text form (str) or a 2-D array of cell codes, "
            f"got {type(position).__name__} {short_repr(position)}"
        )
    return Observation(position, mines=mines)
