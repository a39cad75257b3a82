"""Boards graded by the deduction they need (issue 11 item 5; notebook 14, report section 014).

:func:`generate_board` returns a mine layout and an opening cell (whose first
click opens a zero) that a named method solves from the opening without a
single guess, using the total number of mines; :func:`grade` tells the first
method of the cascade ``trivial -> subset -> rref -> bounded -> lp ->
enumerate`` that solves a board (the first in that order: the methods before it
fail, though a later one may fail too, see :func:`grade`), or ``"guess"`` when
none does.

*Solving* a board with a method means what :class:`sweeplab.noguess.ReachAgent`
does: click the opening, then repeatedly run the method (with the total) on
the position, reveal every cell it proves safe and flag every cell it proves a
mine, until every safe cell is open (solved) or the method proves nothing
(a guess would be needed).

Generation is rejection sampling with a local repair: a layout is drawn
uniformly among those whose opening is a zero; when the solver gets stuck, a
mine next to the revealed area is moved to a random covered cell away from it
(the position where the player had to guess changes there, as in Simon
Tatham's generator) and the board is solved again from the opening; after
``repairs`` such moves a fresh layout is drawn.  A board needing a guess for
every method is rejected by exact enumeration first (fast), so slow methods
run only on boards that can be solved at all.  Boards are therefore not
uniform among the no-guess boards; the method's guarantee is what is checked.

One RREF pass is not monotone: what it proves depends on the reduced basis,
so on the order in which cells were learned, and a board it solves when every
answer is applied at once may defeat it one move at a time.  A generated board
is therefore replayed under the three conventions of
:data:`sweeplab.noguess.CONVENTIONS` (all at once with flags, reveals only,
one move at a time) for every non-monotone method involved, and kept only when
they agree: its method and its grade solve it under each of the three, the
weaker methods of the cascade under none.  :func:`grade` itself uses the first
convention.  For a method of :data:`~sweeplab.noguess.MONOTONE` that means any
order of proved moves (what it proves only grows, so a proved cell is always
left to play).  For the others three conventions are not every order: after
17 moves, each proved by ``gfp`` when played, ``gfp`` proves nothing on
``generate_board(shape=(9, 9), mines=10, solvable_by="gfp", seed=101)`` with
29 safe cells still covered (all of them forced), and a weaker method may solve
a board in an order none of the three takes.

Examples
--------
>>> board = generate_board("beginner", solvable_by="subset", seed=3)
>>> board.layout.shape, int(board.layout.sum()), board.grade in ("trivial", "subset")
((9, 9), 10, True)
>>> solves(board.layout, board.opening, "subset")
True
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .errors import MethodRefused, check_flag
from .game import Game, as_generator, resolve_board
from .methods import METHODS, deduce, method_info
from .noguess import CASCADE, CONVENTIONS, MONOTONE, solve_layout
from .positions import COVERED, Observation, cell_pair, neighbour_counts

__all__ = ["Board", "BoardNotFound", "generate_board", "generate_boards", "grade", "solves", "GRADES"]

Cell = tuple[int, int]
#: The grades, in the cascade's order; ``"guess"``: no method of the cascade solves the board.
GRADES = (*CASCADE, "guess")
#: Default cap on the layouts tried (fresh draws and repairs) for one board.
MAX_TRIES = 20_000
#: Repairs of one layout before a fresh draw.
REPAIRS = 8
#: Layouts whose verdict :func:`generate_board` remembers (a position's grid each): enough for every
#: layout of a small board, a few MB on expert.
SEEN_LIMIT = 4096


class BoardNotFound(ValueError):
    """No board found within ``max_tries`` layouts (a ``ValueError``: raise the cap or relax the request)."""


@dataclass(frozen=True)
class Board:
    """A generated board.

    Attributes
    ----------
    layout : numpy.ndarray
        Boolean mine layout (read-only).
    opening : (int, int)
        The first click; it opens a zero.
    grade : str
        The first method of the cascade that solves the board (:func:`grade`).
    solvable_by : str
        The method the board was generated for (it solves it).
    tries : int
        Layouts tried (fresh draws and repairs).
    seconds : float
        Time spent generating and grading.
    """

    layout: np.ndarray = field(compare=False, repr=False)
    opening: Cell
    grade: str
    solvable_by: str
    tries: int = 1
    seconds: float = 0.0

    @property
    def shape(self) -> tuple[int, int]:
        return tuple(self.layout.shape)  # type: ignore[return-value]

    @property
    def mines(self) -> int:
        return int(self.layout.sum())

    def game(self) -> Game:
        """A fresh :class:`~sweeplab.Game` on this layout (click :attr:`opening` first)."""
        return Game.from_layout(self.layout)

    def to_dict(self, **extra: Any) -> dict[str, Any]:
        """The ``sweeplab.game`` JSON document (no moves yet) with ``opening``, ``grade`` and ``solvable_by``.

        Examples
        --------
        >>> board = generate_board(shape=(5, 5), mines=3, solvable_by="trivial", seed=0)
        >>> doc = board.to_dict()
        >>> doc["format"], doc["moves"], doc["opening"] == list(board.opening)
        ('sweeplab.game', [], True)
        """
        from .files import game_to_dict

        return {**game_to_dict(self.game()), "opening": list(self.opening), "grade": self.grade,
                "solvable_by": self.solvable_by, **extra}


# ---------------------------------------------------------------------------- solving
def _check_layout(layout, opening) -> tuple[np.ndarray, Cell]:
    if hasattr(layout, "layout") and not isinstance(layout, np.ndarray):  # a Board, or a Game
        raise ValueError(f"layout must be a 2-D boolean array of mines; for a {type(layout).__name__}, "
                         f"pass its .layout")
    arr = np.asarray(layout)
    if arr.ndim != 2 or 0 in arr.shape:
        raise ValueError(f"layout must be a non-empty 2-D boolean array, got shape {arr.shape}")
    if not (arr.dtype == bool or np.issubdtype(arr.dtype, np.number)) or not np.isin(arr, (0, 1)).all():
        raise ValueError("layout must hold booleans (or 0/1)")
    arr = arr.astype(bool)
    cell = cell_pair(opening)
    if cell is None:  # 4.7 or "44" must not become some cell
        raise ValueError(f"opening must be a (row, col) pair of integers, got {opening!r}")
    r, c = cell
    h, w = arr.shape
    if not (0 <= r < h and 0 <= c < w):
        raise ValueError(f"opening {opening!r} is outside the {h}x{w} board")
    if arr[max(r - 1, 0): r + 2, max(c - 1, 0): c + 2].any():
        raise ValueError(f"opening {opening!r} is not a zero: a mine lies on it or next to it")
    return arr, (r, c)


def _solve(layout: np.ndarray, opening: Cell, method: str, use_total: bool = True,
           convention: str = "all") -> Game:
    """Play the method from the opening without guessing; the game at its end (won, or stuck)."""
    return solve_layout(layout, opening, method, use_total=use_total, convention=convention)


def _first_failure(layout: np.ndarray, opening: Cell, method: str, weaker: tuple[str, ...]) -> Game | None:
    """The checks of a candidate board, cheapest first.

    Returns a won game when the board passes; the game where a solver got
    stuck when it fails in a way a repair may mend (exact enumeration, the
    method, or the grade's method under another convention, see
    :data:`~sweeplab.noguess.CONVENTIONS`); ``None`` when a method that should
    not solve it does (``weaker`` under ``exact_grade``, or a method below the
    grade under some convention), which repairs would only make worse.
    """
    if method != "enumerate":
        game = _solve(layout, opening, "enumerate")  # no sound method solves what enumeration cannot
        if game.status != "won":
            return game
    won = _solve(layout, opening, method)
    if won.status != "won":
        return won
    if any(_solve(layout, opening, m).status == "won" for m in weaker):
        return None
    graded = grade(layout, opening)
    # the method and the grade solve under every convention; below the grade, nothing solves under any
    for m in dict.fromkeys((method, graded)):
        if m not in MONOTONE:
            for c in CONVENTIONS[1:]:
                game = _solve(layout, opening, m, convention=c)
                if game.status != "won":
                    return game
    below = CASCADE[: CASCADE.index(graded)]
    if any(_solve(layout, opening, m, convention=c).status == "won"
           for m in below if m not in MONOTONE for c in CONVENTIONS[1:]):
        return None
    return won


def _sound(method: str, what: str = "solvable_by") -> str:
    sound = sorted(n for n, m in METHODS.items() if m.sound)
    try:
        info = method_info(method)
    except ValueError:
        raise ValueError(f"{what}={method!r} is not a method; choose a sound one from {sound}") from None
    if not info.sound:
        raise ValueError(f"{what}={method!r} is not a sound method; choose from {sound}")
    return info.name


def solves(layout, opening, method: str, *, use_total: bool = True, convention: str = "all") -> bool:
    """Whether ``method`` alone solves the board from ``opening`` without a guess.

    ``convention`` says how the method's answers are applied
    (:data:`sweeplab.noguess.CONVENTIONS`; the default reveals every proved
    safe cell and flags every proved mine before asking again).  A position
    the method refuses (:class:`~sweeplab.MethodRefused`: ``brute`` on a
    frontier over 20 cells, a budget passed) counts as not solved, as a
    guess would: the board is not solved by that method within its limits.

    Examples
    --------
    >>> layout = np.zeros((3, 4), dtype=bool); layout[0, 3] = True
    >>> solves(layout, (2, 0), "trivial")
    True
    """
    arr, cell = _check_layout(layout, opening)
    return _solve(arr, cell, _sound(method, "method"), use_total, convention).status == "won"


def grade(layout, opening, *, use_total: bool = True) -> str:
    """The first method of the cascade that solves the board from ``opening``, or ``"guess"``.

    The cascade is :data:`sweeplab.noguess.CASCADE` (``trivial``, ``subset``,
    ``rref``, ``bounded``, ``lp``, ``enumerate``); each method is tried alone,
    in that order, so a board of grade ``"rref"`` is solved by rref and by
    neither trivial nor subset.

    The grade says which methods *before* it fail, not that the methods after it
    succeed: the cascade's order is not an order of strength on whole boards.
    One RREF pass is not monotone and does not find every cell the pair rule
    finds, and bounds propagation reads RREF rows, so a board of grade
    ``"trivial"`` may defeat ``rref``, and one of grade ``"subset"`` ``rref`` or
    ``bounded`` (below: a board single-clue rules finish, on which one RREF pass
    gets stuck).  On 300 random 9x9 boards with 14 mines and a zero opening
    (drawn as :func:`generate_board` draws a board before any repair, all from
    one ``numpy.random.default_rng(0)``), ``rref`` failed on 8 of the 41 of grade
    ``"trivial"`` and on 59 of the 131 of grade ``"subset"``, ``bounded`` on 3
    of those 131 (and on none of grade ``"trivial"``: its propagation on the
    original rows is monotone and contains the single-clue rules).
    ``enumerate`` solves every board a sound method solves, and ``lp`` every
    board of grade ``"trivial"``, ``"subset"`` or ``"rref"`` (it is monotone
    and proves every cell those methods prove), not necessarily one of grade
    ``"bounded"``.

    Raises
    ------
    ValueError
        A layout that is not a 2-D boolean array, or an opening off the board or not a zero.

    Examples
    --------
    >>> layout = np.zeros((3, 4), dtype=bool); layout[0, 3] = True
    >>> grade(layout, (2, 0))
    'trivial'
    >>> layout = np.zeros((2, 5), dtype=bool); layout[0, 4] = True
    >>> grade(layout, (0, 0))  # the last column is a 50/50
    'guess'
    >>> layout = np.zeros((6, 4), dtype=bool); layout[[0, 1, 4, 5], [2, 2, 1, 3]] = True
    >>> grade(layout, (0, 0)), solves(layout, (0, 0), "rref")
    ('trivial', False)
    """
    arr, cell = _check_layout(layout, opening)
    if _solve(arr, cell, "enumerate", use_total).status != "won":
        return "guess"  # no sound method solves what exact enumeration cannot
    for m in CASCADE[:-1]:
        if _solve(arr, cell, m, use_total).status == "won":
            return m
    return "enumerate"


# ------------------------------------------------------------------------- generation
def _draw(rng: np.random.Generator, shape: tuple[int, int], mines: int, opening: Cell | None
          ) -> tuple[np.ndarray, Cell]:
    h, w = shape
    if opening is None:
        i = int(rng.integers(h * w))
        opening = (i // w, i % w)
    r, c = opening
    free = np.ones((h, w), dtype=bool)
    free[max(r - 1, 0): r + 2, max(c - 1, 0): c + 2] = False
    cells = np.flatnonzero(free)
    if cells.size < mines:
        raise ValueError(f"{mines} mines do not fit on {h}x{w} outside the opening {opening}'s "
                         f"neighbourhood ({cells.size} cells); give fewer mines")
    layout = np.zeros(h * w, dtype=bool)
    layout[rng.choice(cells, size=mines, replace=False)] = True
    return layout.reshape(h, w), opening


def _repair(rng: np.random.Generator, layout: np.ndarray, opening: Cell, grid: np.ndarray
            ) -> np.ndarray | None:
    """Move one mine next to the stuck player's revealed area (``grid``, its position) to a covered cell
    away from it."""
    covered = grid == COVERED
    near = neighbour_counts(grid >= 0) > 0
    frontier_mines = np.flatnonzero((covered & near & layout).ravel())
    r, c = opening
    keep = np.zeros(layout.shape, dtype=bool)
    keep[max(r - 1, 0): r + 2, max(c - 1, 0): c + 2] = True
    targets = np.flatnonzero((covered & ~near & ~layout & ~keep).ravel())
    if frontier_mines.size == 0 or targets.size == 0:
        return None
    out = layout.copy().ravel()
    out[int(rng.choice(frontier_mines))] = False
    out[int(rng.choice(targets))] = True
    return out.reshape(layout.shape)


def _request(level, shape, mines, solvable_by, opening, exact_grade, max_tries):
    """The checked request: ``(method, shape, mines, opening)``; ``ValueError`` naming a bad value."""
    method = _sound(solvable_by)
    if check_flag("exact_grade", exact_grade) and method not in CASCADE:
        raise ValueError(f"exact_grade needs solvable_by in the cascade {list(CASCADE)}, got {method!r}: "
                         f"choose one of those (--solvable-by), or drop exact_grade (--exact-grade), which "
                         f"asks that no earlier method of the cascade solves the board")
    if isinstance(max_tries, bool) or not isinstance(max_tries, int | np.integer) or max_tries < 1:
        raise ValueError(f"max_tries must be a positive integer, got {max_tries!r}")
    if level is None and shape is not None and mines is None:
        raise ValueError(f"give mines= with shape={shape!r} (the number of mines on the board)")
    shape_, n_mines = resolve_board(level, shape=shape, mines=mines)
    if opening is not None:
        opening = _check_layout(np.zeros(shape_, dtype=bool), opening)[1]
    h, w = shape_
    corner = h * w - min(h, 2) * min(w, 2)  # the opening and its neighbours stay free of mines
    if opening is not None:
        r, c = opening
        fit = h * w - (min(r + 2, h) - max(r - 1, 0)) * (min(c + 2, w) - max(c - 1, 0))
        if n_mines > fit:
            hint = f"; at most {corner} with a corner opening" if fit < corner else ""
            raise ValueError(f"mines={n_mines} do not fit on {h}x{w} around a zero opening at {opening} "
                             f"(at most {fit}{hint})")
    elif n_mines > (fit := h * w - min(h, 3) * min(w, 3)):  # a drawn opening may keep 3x3 cells free
        hint = (f"give opening=(0, 0) (on the command line --opening 0 0) for up to {corner}" if corner > fit
                else "no opening leaves room: give fewer mines")
        raise ValueError(f"mines={n_mines} do not fit on {h}x{w} around a zero opening anywhere (at most "
                         f"{fit}); {hint}")
    return method, shape_, n_mines, opening


def generate_board(
    level: str | None = None,
    *,
    shape: tuple[int, int] | None = None,
    mines: int | None = None,
    solvable_by: str = "rref",
    seed: int | np.random.Generator | np.random.SeedSequence | None = None,
    opening: Cell | None = None,
    exact_grade: bool = False,
    max_tries: int = MAX_TRIES,
    on_try: Callable[[int], object] | None = None,
) -> Board:
    """A board that ``solvable_by`` solves from its opening without a guess, with the total (issue 11 item 5).

    Parameters
    ----------
    level : {"beginner", "intermediate", "expert"}, optional
        Or ``shape=(height, width)`` with ``mines``.
    solvable_by : str
        A sound method of :data:`sweeplab.METHODS` (the cascade's, or any other sound one).
    seed : int, SeedSequence or Generator, optional
    opening : (int, int), optional
        The first click (default: a random cell, drawn with each fresh layout).
    exact_grade : bool
        Also require that no weaker method of the cascade solves the board
        (``grade == solvable_by``; ``solvable_by`` must then be in the cascade).
    max_tries : int
        Cap on the layouts tried (fresh draws and repairs).
    on_try : callable, optional
        Called with the number of layouts tried so far after each one (a progress bar's hook).

    Returns
    -------
    Board

    Raises
    ------
    ValueError
        An unknown level or method, an unsound method, mines that do not fit
        around a zero opening, or a bad ``max_tries``.
    BoardNotFound
        (a ``ValueError``) when ``max_tries`` layouts gave no such board.

    Examples
    --------
    >>> b = generate_board(shape=(6, 6), mines=4, solvable_by="rref", seed=1)
    >>> b.solvable_by, b.grade in GRADES[:3]
    ('rref', True)
    >>> generate_board("beginner", solvable_by="magic")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: solvable_by='magic' is not a method; choose a sound one from ['bounded', ...]
    """
    start = time.perf_counter()
    method, shape_, n_mines, opening = _request(level, shape, mines, solvable_by, opening, exact_grade,
                                                max_tries)
    rng = as_generator(seed)
    weaker = CASCADE[: CASCADE.index(method)] if exact_grade else ()
    # verdicts of layouts already replayed: a small board draws the same ones again and again
    # (a 3x4 board with 2 mines has a few hundred), and a replay is what takes the time
    seen: dict[tuple[bytes, Cell], tuple[str, np.ndarray | None]] = {}
    tries = 0
    while tries < max_tries:
        if on_try is not None and tries:
            on_try(tries)
        layout, cell = _draw(rng, shape_, n_mines, opening)
        tries += 1
        stuck: np.ndarray | None = None
        for repair in range(REPAIRS + 1):
            if repair:
                assert stuck is not None  # a failed replay: repairs follow only a game that got stuck
                fixed = _repair(rng, layout, cell, stuck)
                if fixed is None or tries >= max_tries:
                    break
                layout = fixed
                tries += 1
            key = (layout.tobytes(), cell)
            verdict = seen.get(key)
            if verdict is None:
                game = _first_failure(layout, cell, method, weaker)
                verdict = ("easy", None) if game is None else (game.status, game.observation.grid)
                if len(seen) < SEEN_LIMIT:
                    seen[key] = verdict
            status, stuck = verdict
            if status == "easy":
                break  # too easy, or a weaker method wins in some order: draw afresh (repairs only ease it)
            if status == "won":
                layout.setflags(write=False)
                return Board(layout, cell, grade(layout, cell), method, tries, time.perf_counter() - start)
    advice = (_refusal(method, stuck, n_mines)
              or "raise max_tries, or ask for fewer mines or a stronger method")
    raise BoardNotFound(
        f"no {shape_[0]}x{shape_[1]} board with {n_mines} mines solvable by {method!r}"
        f"{' and by no weaker method' if exact_grade else ''} in max_tries={max_tries} layouts; {advice}")


def _refusal(method: str, stuck: np.ndarray | None, mines: int) -> str | None:
    """What to say when ``method`` refuses the position a search last stopped at (``brute``'s cap on
    the cells it enumerates): more tries would not help."""
    if stuck is None:
        return None
    try:
        deduce(Observation(stuck, mines=mines), method)
    except MethodRefused as exc:
        return f"{method!r} refused the last position it met ({exc}): more tries will not help"
    return None


def _one(index: int, seed: int, options: dict[str, Any],
         on_try: Callable[[int], object] | None = None) -> Board:
    return generate_board(**options, seed=np.random.SeedSequence(seed, spawn_key=(index,)), on_try=on_try)


def generate_boards(
    count: int,
    *,
    level: str | None = None,
    shape: tuple[int, int] | None = None,
    mines: int | None = None,
    solvable_by: str = "rref",
    seed: int = 0,
    start: int = 0,
    opening: Cell | None = None,
    exact_grade: bool = False,
    max_tries: int = MAX_TRIES,
    workers: int | None = 1,
    progress: bool = False,
):
    """Yield ``(index, board)`` for boards ``start .. start + count - 1`` of root ``seed``, in order.

    Board ``i`` is :func:`generate_board` with ``seed=SeedSequence(seed, spawn_key=(i,))``,
    so a board never depends on ``count``, ``start`` or the number of ``workers``.  With
    ``progress``, a tqdm bar counts the boards found (and, with one worker, the layouts
    tried for the next one: a hard board can take minutes).

    Examples
    --------
    >>> [(i, b.grade) for i, b in generate_boards(2, shape=(5, 5), mines=2, solvable_by="trivial")]
    [(0, 'trivial'), (1, 'trivial')]
    """
    from .executor import check_count, root_seed

    count, seed, start = check_count("count", count), root_seed(seed), check_count("start", start)
    _request(level, shape, mines, solvable_by, opening, exact_grade, max_tries)
    options = {"level": level, "shape": shape, "mines": mines, "solvable_by": solvable_by, "opening": opening,
               "exact_grade": exact_grade, "max_tries": max_tries}
    tasks = [{"index": start + i, "seed": seed, "options": options} for i in range(count)]
    return _in_order(tasks, start, workers, check_flag("progress", progress))


def _in_order(tasks, start: int, workers, progress: bool):
    from .executor import local_workers, run_tasks

    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(tasks), desc="boards", unit="board")
        if local_workers(workers, len(tasks)) == 1:  # in this process: count the layouts too
            tasks = [{**task, "on_try": _layouts_tried(bar)} for task in tasks]
    pending: dict[int, Board] = {}
    nxt = 0
    try:
        for i, board in run_tasks(_one, tasks, workers=workers, preload=("sweeplab.boards",)):
            pending[i] = board
            if bar is not None:
                bar.set_postfix_str("", refresh=False)
                bar.update()
            while nxt in pending:
                yield start + nxt, pending.pop(nxt)
                nxt += 1
    finally:
        if bar is not None:
            bar.close()


def _layouts_tried(bar) -> Callable[[int], None]:
    """A hook for :func:`generate_board` that shows the layouts tried for the board under way on ``bar``."""
    def on_try(tries: int) -> None:
        bar.set_postfix_str(f"{tries} layouts tried for the next board", refresh=False)
        bar.update(0)  # drawn at tqdm's own pace
    return on_try
