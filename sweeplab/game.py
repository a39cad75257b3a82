"""The game engine (SPEC §3): layouts, first-click rules, zero opening, modes and clue noise.

Mines are placed from one random permutation of the cells drawn at creation:
the layout is the first ``mines`` cells of that permutation that the
first-click rule allows.  With ``first_click="safe"`` a mine under the first
click is thereby "moved" to the next cell of the permutation, and every rule
gives the uniform distribution over the layouts it allows.  The same seed gives
the same game on any machine (NumPy's PCG64).

Clue noise (seed report 004 §4) is drawn once per cell, so what a cell shows
never depends on the order of the moves.  Opening around a zero follows the
*true* count: the game knows its layout, so it never opens a mine for the
player, whatever number it displays.

Every random number is drawn at creation (the permutation, then the noise), so
``first_click="none"`` and ``"safe"`` give the same layout for the same seed
unless the first click hits a mine.  Zero opening uses a per-game table of the
zero regions (8-connected zeros plus their border), built at the first zero
revealed, so a reveal costs only the cells it opens.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from .positions import (
    COVERED,
    FLAG,
    MINE,
    NOCLUE,
    NOISE_KINDS,
    Observation,
    cell_pair,
    frozen_grid,
    is_real,
    neighbour_counts,
    neighbour_table,
    short_repr,
)

__all__ = ["LEVELS", "Level", "Game", "FlaggedCellError", "new_game", "resolve_board", "board_arguments",
           "as_generator"]


class FlaggedCellError(ValueError):
    """:meth:`Game.reveal` on a flagged cell (unflag it first); the referee skips such a move."""


FIRST_CLICKS = ("none", "safe", "zero")
MODES = ("classic", "score")


@dataclass(frozen=True)
class Level:
    """A board preset: ``height`` rows, ``width`` columns, ``mines`` mines."""

    name: str
    height: int
    width: int
    mines: int

    @property
    def shape(self) -> tuple[int, int]:
        return (self.height, self.width)

    @property
    def density(self) -> float:
        return self.mines / (self.height * self.width)


#: The classic presets (report 000 §1.4).
LEVELS = {
    "beginner": Level("beginner", 9, 9, 10),
    "intermediate": Level("intermediate", 16, 16, 40),
    "expert": Level("expert", 16, 30, 99),
}


def as_generator(seed: int | np.random.Generator | np.random.SeedSequence | None) -> np.random.Generator:
    """A NumPy ``Generator`` from a seed, a ``SeedSequence`` or a ``Generator``.

    A ``Generator`` is returned as it is (and advanced by its user); ``None``
    draws fresh entropy from the operating system.

    Examples
    --------
    >>> int(as_generator(3).integers(100)) == int(as_generator(np.random.SeedSequence(3)).integers(100))
    True
    """
    if isinstance(seed, np.random.Generator):
        return seed
    try:
        if isinstance(seed, (bool, np.bool_)):  # True would seed as 1
            raise TypeError
        return np.random.default_rng(seed)
    except (TypeError, ValueError):
        raise ValueError(
            f"seed must be a non-negative integer (or a sequence of them), a SeedSequence, "
            f"a Generator or None, got {seed!r}"
        ) from None


def board_arguments(level: Any, shape: Any, mines: Any, density: Any) -> tuple[Any, Any, Any, Any]:
    """``(level, shape, mines, density)`` with a level written ``(height, width, mines)`` or
    ``(height, width, density)`` (SPEC §3) turned into the keywords: an integer third value is a
    number of mines, a float one a density.

    Examples
    --------
    >>> board_arguments((16, 30, 99), None, None, None)
    (None, (16, 30), 99, None)
    >>> board_arguments((10, 10, 0.15), None, None, None)
    (None, (10, 10), None, 0.15)
    >>> board_arguments("expert", None, None, None)
    ('expert', None, None, None)
    """
    if level is None:
        return level, shape, mines, density
    if shape is not None or mines is not None or density is not None:
        raise ValueError("give either a level or shape with mines/density, not both")
    if isinstance(level, str):
        return level, shape, mines, density
    try:
        h, w, third = level
    except (TypeError, ValueError):
        raise ValueError(f"level must be a name from {sorted(LEVELS)} or (height, width, mines) or "
                         f"(height, width, density), got {level!r}") from None
    if isinstance(third, float | np.floating):
        return None, (h, w), None, float(third)
    return None, (h, w), third, None


def resolve_board(
    level: str | tuple | None = None,
    *,
    shape: tuple[int, int] | None = None,
    mines: int | None = None,
    density: float | None = None,
) -> tuple[tuple[int, int], int]:
    """Turn a preset name, or a shape with mines or density, into ``(shape, mines)``.

    Examples
    --------
    >>> resolve_board("expert")
    ((16, 30), 99)
    >>> resolve_board(shape=(10, 10), density=0.155)
    ((10, 10), 16)
    >>> resolve_board((10, 10, 0.155))
    ((10, 10), 16)
    """
    level, shape, mines, density = board_arguments(level, shape, mines, density)  # "not both" checked there
    if level is not None:
        lv = LEVELS.get(level) if isinstance(level, str) else None  # a tuple became shape and mines above
        if lv is None:
            raise ValueError(f"unknown level {level!r}; choose from {sorted(LEVELS)}")
        return lv.shape, lv.mines
    if shape is None:
        raise ValueError("give a level name or a shape=(height, width)")
    pair = cell_pair(shape)
    if pair is None or min(pair) < 1:
        raise ValueError(f"shape must be two positive integers (height, width), got {short_repr(shape)}")
    h, w = pair
    if h * w > MAX_CELLS:  # numpy's own limits come first ("Maximum allowed size exceeded")
        raise ValueError(_too_large(h, w))
    if (mines is None) == (density is None):
        raise ValueError("give exactly one of mines= or density= with shape")
    if density is not None:
        if not is_real(density) or not 0.0 <= density <= 1.0:
            raise ValueError(f"density must be a number within [0, 1], got {short_repr(density)}")
        mines = int(round(density * h * w))
    assert mines is not None
    if not is_real(mines) or int(mines) != mines or not 0 <= mines <= h * w:
        raise ValueError(f"mines must be an integer within [0, {h * w}], got {short_repr(mines)}")
    return (h, w), int(mines)


#: The most cells a board may have: 2**48, far past any machine's memory, short of numpy's index limits.
MAX_CELLS = 2**48


def _too_large(h: int, w: int) -> str:
    return f"a {h}x{w} board ({h * w:,} cells) does not fit in this machine's memory; choose a smaller shape"


def kept_free(first_click: str, shape: tuple[int, int], cell: tuple[int, int]) -> np.ndarray:
    """Flat indices of the cells the first-click rule keeps mine-free when ``cell`` is clicked first
    (SPEC §3: the cell under "safe", the cell and its neighbours under "zero", none under "none").

    Examples
    --------
    >>> kept_free("zero", (9, 9), (0, 0)).size, kept_free("zero", (9, 9), (2, 2)).size
    (4, 9)
    """
    i = cell[0] * shape[1] + cell[1]
    if first_click == "safe":
        return np.array([i])
    if first_click == "zero":
        nb = neighbour_table(shape)[i]
        return np.concatenate([[i], nb[nb >= 0]])
    return np.zeros(0, dtype=np.int64)


def first_click_fits(first_click: str, shape: tuple[int, int], mines: int, cell: tuple[int, int]) -> bool:
    """Whether ``mines`` fit outside the cells the first-click rule keeps free around ``cell``."""
    return mines <= shape[0] * shape[1] - kept_free(first_click, shape, cell).size


def check_first_click_fits(first_click: str, shape: tuple[int, int], mines: int,
                           cell: tuple[int, int] | None = None) -> None:
    """``ValueError`` when ``mines`` leave no room for the first click's rule on a board of ``shape``
    (at ``cell`` when the first click is known, else at the best placed cell, a corner)."""
    h, w = shape
    if first_click == "safe" and mines > h * w - 1:
        raise ValueError(f"a safe first click needs mines <= cells - 1 = {h * w - 1}, got {mines}")
    if first_click == "zero" and not first_click_fits("zero", shape, mines, (0, 0)):
        raise ValueError(f"a zero first click cannot fit: {mines} mines on {h}x{w} leave no cell "
                         f"whose neighbourhood is mine-free")
    if first_click == "zero" and cell is not None and not first_click_fits("zero", shape, mines, cell):
        free = kept_free("zero", shape, cell).size
        raise ValueError(f"a zero first click at {cell} cannot fit: {mines} mines on {h}x{w} leave fewer "
                         f"than the {free} cells it keeps free (try a corner or fewer mines)")


def check_rules(first_click: Any, mode: Any) -> None:
    """``ValueError`` naming the choices unless ``first_click`` and ``mode`` are rules of SPEC §3."""
    if first_click not in FIRST_CLICKS:
        raise ValueError(f"first_click must be one of {', '.join(FIRST_CLICKS)}, got {first_click!r}")
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")


def check_noise(noise) -> tuple[str, float] | None:
    """``noise`` as ``(kind, p)`` or ``None``; ``ValueError`` naming the value and the choices."""
    if noise is None:
        return None
    try:
        kind, p = noise
    except (TypeError, ValueError):
        raise ValueError(f"noise must be None or (kind, p) with kind one of {NOISE_KINDS} and p a "
                         f"probability, for example ('lost', 0.1); got {noise!r}") from None
    if kind not in NOISE_KINDS:
        raise ValueError(f"noise kind must be one of {NOISE_KINDS}, got {kind!r}")
    if not is_real(p) or not 0.0 <= float(p) <= 1.0:  # not a flag or text ("0.1"), as a sweep grid refuses
        raise ValueError(f"noise probability must be a number within [0, 1], got {p!r}")
    return str(kind), float(p)


class Game:
    """One Minesweeper game. Create it with :func:`new_game` or :meth:`Game.from_layout`.

    Attributes
    ----------
    status : {"playing", "won", "lost"}
        Read-only: moves change it.
    moves : list of (str, int, int)
        Every move played: ``("reveal" | "flag" | "unflag", row, col)``.

    Examples
    --------
    >>> g = Game.from_layout([[1, 0, 0], [0, 0, 0]])
    >>> g.reveal(1, 2)
    4
    >>> print(g.observation.to_text())
    ?1.
    ?1.
    >>> g.reveal(1, 0), g.status
    (1, 'won')
    """

    def __init__(
        self,
        shape: tuple[int, int],
        mines: int,
        *,
        first_click: str = "safe",
        mode: str = "classic",
        noise: tuple[str, float] | None = None,
        seed: int | np.random.Generator | np.random.SeedSequence | None = None,
        _layout: np.ndarray | None = None,
        _shown: np.ndarray | None = None,
    ) -> None:
        check_rules(first_click, mode)
        self._noise = check_noise(noise)
        if _layout is None:
            shape, mines = resolve_board(shape=shape, mines=mines)
        h, w = shape
        self._shape = (h, w)
        self._n_mines = mines
        self._first_click = first_click
        self._mode = mode
        rng = as_generator(seed)
        if _layout is None:
            check_first_click_fits(first_click, (h, w), mines)
        try:
            if _layout is None:
                self._order = rng.permutation(h * w)
            # Every random draw happens here, placement first, so a game never depends
            # on what else uses a shared Generator between its moves.
            self._noise_draws = None if self._noise is None or _shown is not None else rng.random((2, h, w))
            self._grid = np.full(shape, COVERED, dtype=np.int8)
        except MemoryError:
            raise ValueError(_too_large(h, w)) from None
        self._flat = self._grid.reshape(-1)
        self._obs: Observation | None = None
        self._layout: np.ndarray | None = None
        self._mines_hit = 0
        self._revealed_safe = 0
        self._status = "playing"
        self.moves: list[tuple[str, int, int]] = []
        if _layout is not None:
            self._place(np.asarray(_layout, dtype=bool), _shown)
        elif first_click == "none":
            self._place(self._layout_excluding(np.zeros(0, dtype=np.int64)))

    # construction ---------------------------------------------------------
    @classmethod
    def from_layout(
        cls,
        layout,
        *,
        mode: str = "classic",
        noise: tuple[str, float] | None = None,
        seed: int | np.random.Generator | np.random.SeedSequence | None = None,
    ) -> Game:
        """A game on a fixed boolean mine layout (first-click rules do not apply).

        ``seed`` drives only the clue noise.
        """
        try:
            arr = np.asarray(layout)
        except (ValueError, TypeError, OverflowError, RecursionError):
            raise ValueError(f"layout must be a 2-D array of booleans (or 0/1) with rows of equal length, "
                             f"got ragged or nested {type(layout).__name__} {short_repr(layout)}") from None
        if arr.ndim != 2 or 0 in arr.shape:
            raise ValueError(f"layout must be a non-empty 2-D array, got shape {arr.shape}")
        if arr.dtype == bool or np.issubdtype(arr.dtype, np.number):
            bad = np.argwhere(~np.isin(arr, (0, 1)))
        else:  # text or objects: each value on its own
            bad = np.argwhere(np.vectorize(lambda v: not (isinstance(v, numbers.Real) and v in (0, 1)),
                                           otypes=[bool])(arr))
        if bad.size:
            r, c = (int(v) for v in bad[0])
            value = arr[r, c].item() if isinstance(arr[r, c], np.generic) else arr[r, c]
            raise ValueError(f"layout must hold booleans (or 0/1), got {value!r} at row {r}, column {c}")
        arr = arr.astype(bool)
        return cls(
            arr.shape, int(arr.sum()), first_click="none", mode=mode, noise=noise, seed=seed, _layout=arr
        )

    def _layout_excluding(self, excluded: np.ndarray) -> np.ndarray:
        h, w = self._shape
        allowed = np.ones(h * w, dtype=bool)
        allowed[excluded] = False
        order = self._order[allowed[self._order]]
        if order.size < self._n_mines:
            raise ValueError(
                f"a {self._first_click} first click cannot fit here: {self._n_mines} mines do not fit on "
                f"{h}x{w} outside the {excluded.size} cells the rule keeps free (try a corner or fewer mines)"
            )
        layout = np.zeros(h * w, dtype=bool)
        layout[order[: self._n_mines]] = True
        return layout.reshape(h, w)

    def _place(self, layout: np.ndarray, shown: np.ndarray | None = None) -> None:
        layout = layout.copy() if layout.flags.writeable else layout
        layout.setflags(write=False)
        self._layout = layout
        self._layout_flat = layout.reshape(-1)
        self._n_mines = int(layout.sum())
        self._counts = neighbour_counts(layout)
        self._safe_total = layout.size - self._n_mines
        if shown is None:
            shown = self._draw_shown()
        else:
            shown = np.array(shown, dtype=np.int8)
            if shown.shape != layout.shape:
                raise ValueError(f"shown numbers have shape {shown.shape}, the layout {layout.shape}")
        shown.setflags(write=False)
        self._shown = shown
        self._shown_flat = shown.reshape(-1)
        self._zero_start = (self._counts.reshape(-1) == 0) & ~self._layout_flat
        self._region_of: np.ndarray | None = None
        if self._safe_total == 0:
            self._status = "won"

    def _draw_shown(self) -> np.ndarray:
        # Clue noise, report 004 §4: each cell is affected with probability p.
        truth = self._counts
        if self._noise is None:
            return truth.copy()
        kind, p = self._noise
        draws, self._noise_draws = self._noise_draws, None
        assert draws is not None  # drawn when the layout was fixed
        hit = draws[0] < p
        u = draws[1]
        if kind == "lost":
            shown = np.where(hit, NOCLUE, truth)
        elif kind == "under":  # uniform on 0..truth
            shown = np.where(hit, np.floor(u * (truth + 1)), truth)
        else:  # "over": uniform on truth..(number of neighbours)
            n_nb = neighbour_counts(np.ones(truth.shape, dtype=bool))
            shown = np.where(hit, truth + np.floor(u * (n_nb - truth + 1)), truth)
        return shown.astype(np.int8)

    def _zero_regions(self) -> None:
        """Cells each zero region opens (the region and its border), as a CSR table.

        Built once per game, at the first zero revealed: ``_region_cells[_region_ptr[k]:
        _region_ptr[k + 1]]`` are the cells region ``k`` opens (8-connected zeros plus
        their neighbours), so a reveal costs only the cells it opens.
        """
        from ._game_kernels import zero_regions

        self._region_of, self._region_cells, self._region_ptr = zero_regions(self._zero_start, *self._shape)

    # properties -----------------------------------------------------------
    @property
    def shape(self) -> tuple[int, int]:
        return self._shape

    @property
    def n_mines(self) -> int:
        return self._n_mines

    @property
    def mode(self) -> str:
        return self._mode

    @property
    def noise(self) -> tuple[str, float] | None:
        return self._noise

    @property
    def first_click(self) -> str:
        return self._first_click

    @property
    def layout(self) -> np.ndarray | None:
        """The boolean mine layout (read-only), or ``None`` before a deferred placement."""
        return self._layout

    @property
    def shown(self) -> np.ndarray | None:
        """The number every safe cell shows when revealed (noise applied), ``NOCLUE`` if lost."""
        return self._shown if self._layout is not None else None

    @property
    def observation(self) -> Observation:
        """What the player sees now; ``mines`` is the board's total.

        The snapshot is cached until the next move changes the board, so reading
        it several times per move costs one copy of the grid.
        """
        obs = self._obs
        if obs is None:
            grid = frozen_grid(self._grid)
            kind = None if self._noise is None else self._noise[0]
            obs = self._obs = Observation._trusted(grid, self._n_mines, kind)
        return obs

    @property
    def status(self) -> str:
        """``"playing"``, ``"won"`` (every safe cell revealed) or ``"lost"``; moves change it."""
        return self._status

    @property
    def mines_hit(self) -> int:
        """Mines stepped on (score mode can go on after one)."""
        return self._mines_hit

    @property
    def score(self) -> float:
        """Fraction of mines not stepped on, reports 001 and 004.

        In score mode, once every safe cell is open, that is the share of mines flagged or
        deduced (SPEC §3); in classic mode it is 1 after a win and ``1 - 1/mines`` after a loss.
        """
        return 1.0 if self._n_mines == 0 else 1.0 - self._mines_hit / self._n_mines

    @property
    def revealed_fraction(self) -> float:
        """Share of the safe cells revealed so far (0 before the first click, which places the mines)."""
        safe = self._shape[0] * self._shape[1] - self._n_mines
        return 1.0 if safe == 0 else self._revealed_safe / safe

    # moves ------------------------------------------------------------------
    def _index(self, row: int, col: int) -> int:
        h, w = self._shape
        r, c = row, col
        if type(r) is not int or type(c) is not int:  # (the simulator's moves are ints: fast path)
            pair = cell_pair((row, col))  # integers, numpy's too; not bools (True would be row 1)
            if pair is None:
                raise ValueError(f"row and column must be integers, got ({row!r}, {col!r})")
            r, c = pair
        if not (0 <= r < h and 0 <= c < w):
            raise ValueError(f"cell ({row}, {col}) is outside the {h}x{w} board")
        if self.status != "playing":
            raise ValueError(f"the game is over ({self.status}); no more moves")
        return r * w + c

    def reveal(self, row: int, col: int) -> int:
        """Reveal a cell; opening a zero opens its neighbours recursively.

        Returns the number of cells newly revealed (0 for an already revealed cell).
        Raises :class:`FlaggedCellError` on a flagged cell, and ``ValueError`` on a cell off the
        board, a finished game, or a first click its rule cannot keep free (too many mines).
        """
        i = self._index(row, col)
        flat = self._flat
        if flat[i] != COVERED:
            if flat[i] == FLAG:
                raise FlaggedCellError(f"cell ({row}, {col}) is flagged; unflag it before revealing")
            return 0
        if self._layout is None:
            cell = divmod(i, self._shape[1])
            self._place(self._layout_excluding(kept_free(self._first_click, self._shape, cell)))
        self.moves.append(("reveal", int(row), int(col)))
        self._obs = None
        if self._layout_flat[i]:
            flat[i] = MINE
            self._mines_hit += 1
            if self._mode == "classic":
                self._status = "lost"
            return 1
        if self._zero_start[i]:
            cells = self._flood(i)
            flat[cells] = self._shown_flat[cells]
            opened = int(cells.size)
        else:
            flat[i] = self._shown_flat[i]
            opened = 1
        self._revealed_safe += opened
        if self._revealed_safe == self._safe_total:
            self._status = "won"
        return opened

    def _flood(self, i: int) -> np.ndarray:
        """Cells a reveal of the covered zero ``i`` opens: the classic recursive flood.

        The flood crosses covered, unflagged zeros and opens their covered,
        unflagged neighbours.  Without flags in the region (the usual case) that
        is the whole precomputed region; otherwise a breadth-first search inside it.
        """
        if self._region_of is None:
            self._zero_regions()
        assert self._region_of is not None
        flat = self._flat
        k = self._region_of[i]
        cells = self._region_cells[self._region_ptr[k] : self._region_ptr[k + 1]]
        state = flat[cells]
        if not ((state == FLAG).any() or ((state != COVERED) & self._zero_start[cells]).any()):
            return cells[state == COVERED]
        table, zero = neighbour_table(self._shape), self._zero_start
        opened, queue = {i}, [i]
        while queue:
            for j in table[queue.pop()].tolist():
                if j >= 0 and j not in opened and flat[j] == COVERED:
                    opened.add(j)
                    if zero[j]:
                        queue.append(j)
        return np.fromiter(opened, dtype=np.int64, count=len(opened))

    def flag(self, row: int, col: int) -> None:
        """Flag a covered cell as a mine (no effect on an already flagged cell)."""
        i = self._index(row, col)
        if self._flat[i] == FLAG:
            return
        if self._flat[i] != COVERED:
            raise ValueError(f"cell ({row}, {col}) is revealed; only covered cells can be flagged")
        self._flat[i] = FLAG
        self._obs = None
        self.moves.append(("flag", int(row), int(col)))

    def unflag(self, row: int, col: int) -> None:
        """Remove a flag."""
        i = self._index(row, col)
        if self._flat[i] != FLAG:
            raise ValueError(f"cell ({row}, {col}) is not flagged")
        self._flat[i] = COVERED
        self._obs = None
        self.moves.append(("unflag", int(row), int(col)))

    def play(self, moves) -> None:
        """Replay a sequence of ``(kind, row, col)`` moves."""
        actions = {"reveal": self.reveal, "flag": self.flag, "unflag": self.unflag}
        for move in moves:
            try:
                kind, row, col = move
            except (TypeError, ValueError):
                raise ValueError(f"a move is (kind, row, col), got {move!r}") from None
            if kind not in actions:
                raise ValueError(f"unknown move kind {kind!r}; expected one of {sorted(actions)}")
            actions[kind](row, col)

    def __repr__(self) -> str:
        h, w = self._shape
        return (
            f"<Game {h}x{w}, {self._n_mines} mines, {self._mode}, first_click={self._first_click!r}, "
            f"noise={self._noise}, {self.status}, {len(self.moves)} moves>"
        )


def new_game(
    level: str | None = None,
    *,
    shape: tuple[int, int] | None = None,
    mines: int | None = None,
    density: float | None = None,
    first_click: str = "safe",
    mode: str = "classic",
    noise: tuple[str, float] | None = None,
    seed: int | np.random.Generator | np.random.SeedSequence | None = None,
) -> Game:
    """Start a game on a preset or custom board (SPEC §3).

    Parameters
    ----------
    level : {"beginner", "intermediate", "expert"}, optional
    shape : (int, int), optional
        ``(height, width)``, with ``mines`` or ``density``.
    first_click : {"none", "safe", "zero"}, default "safe"
        ``"safe"``: the first click is never a mine; ``"zero"``: it opens an area.
    mode : {"classic", "score"}, default "classic"
    noise : (kind, p), optional
        Clue noise of report 004: kind ``"lost"``, ``"under"`` or ``"over"``, probability ``p``.
    seed : int, SeedSequence or Generator, optional

    Examples
    --------
    >>> g = new_game("beginner", first_click="zero", seed=1)
    >>> g.reveal(4, 4) > 1
    True
    >>> int(g.layout[3:6, 3:6].sum())
    0
    """
    shape, mines = resolve_board(level, shape=shape, mines=mines, density=density)
    return Game(shape, mines, first_click=first_click, mode=mode, noise=noise, seed=seed)
