"""Why games are lost: the move that lost each game, classified (issue 13).

The referee knows the layout, so after a lost game it can look at the move
that stepped on a mine and at the position the agent saw just before it, and
say what kind of loss it was.  The agent is never shown anything more: the
classification runs after the game, on the observation the agent had, with
the exact mine probabilities of that position (every layout consistent with
the clues and the total equally likely, :func:`sweeplab.probabilities`).

Causes (:data:`CAUSES`, exclusive; tested in the order listed, except that the second test for
``"coin flip"`` comes after ``"opening"``):

``"first click"``
    the opening move stepped on a mine (possible only under ``first_click="none"``);
``"wrong claim"``
    a method claimed the cell certainly safe, and it was a mine (only an unsound method, such as
    ``lstsq``, or clue noise read as exact);
``"certain cell skipped"``
    a cell was certainly safe (probability 0), yet the agent guessed;
``"coin flip"``
    the cell was the mined side of a coin flip that no move could ever settle (a pair, or the
    two diagonals of a 2x2 box)
    (:func:`~sweeplab.agents.best.free_coin_flip`: every play loses one of
    each pair of twin layouts, whatever the cell's probability), or, tested
    after ``"opening"``, no covered cell was safer than ``forced`` (a 50/50
    or worse);
``"riskier than safest"``
    the cell taken was more than ``tolerance`` riskier than the safest covered cell;
``"endgame"``
    at most ``endgame_cells`` covered cells were left (and the guess was among the safest);
``"opening"``
    less than ``opening_share`` of the safe cells were open;
``"safest guess"``
    any other guess on one of the safest cells;
``"unanalysed"``
    the exact probabilities could not be computed (an inconsistent position,
    or one past the enumeration's caps).

Besides the cause, each loss records where the cell was (``"frontier"``: next
to a revealed number, or ``"interior"``), the probabilities, the number of
covered cells, and whether the safest cell was in fact safe in that layout.
"""

from __future__ import annotations

import inspect
from dataclasses import asdict, dataclass, fields

import numpy as np
import pandas as pd

from .agents import Agent, make_agent
from .agents.best import free_coin_flip_cells
from .errors import InconsistentPositionError, MethodRefused
from .executor import check_count, root_seed
from .game import board_arguments, new_game, resolve_board
from .methods.enumerate import probabilities
from .positions import COVERED, NOCLUE, Observation, is_real, neighbour_counts
from .referee import referee
from .simulate import agent_generator, game_seeds
from .stats import GROUP_COLUMNS, check_distinct_games, check_known_outcomes

__all__ = ["CAUSES", "Loss", "classify_loss", "play_losses", "loss_table"]

#: Loss causes, in the order they are tested (see the module notes).
CAUSES = ("first click", "wrong claim", "certain cell skipped", "coin flip", "riskier than safest", "endgame",
          "opening", "safest guess", "unanalysed")


#: Equal probabilities computed along different paths differ by ~1e-17: such cells count as equally safe.
_ROUNDING = 1e-12


@dataclass(frozen=True)
class Loss:
    """The move that lost a game, and why.

    Attributes
    ----------
    cause : str
        One of :data:`CAUSES`.
    place : str
        ``"frontier"`` (next to a revealed number), ``"interior"`` or ``"first"`` (the opening move).
    p_chosen, p_best : float
        Exact mine probability of the cell taken, and the lowest over the covered cells.
    covered : int
        Covered, unflagged cells before the move.
    opened_share : float
        Share of the safe cells open before the move.
    safest_was_safe : bool
        Some cell of lowest probability was safe in the true layout (known only to the referee).
    """

    cause: str
    place: str
    p_chosen: float
    p_best: float
    covered: int
    opened_share: float
    safest_was_safe: bool


def classify_loss(
    obs: Observation,
    cell: tuple[int, int],
    layout: np.ndarray,
    *,
    first: bool = False,
    claimed: bool = False,
    tolerance: float = 0.005,
    forced: float = 0.45,
    endgame_cells: int = 40,
    opening_share: float = 0.1,
) -> Loss:
    """Classify the move ``cell`` that stepped on a mine in position ``obs`` (true mines ``layout``).

    Parameters
    ----------
    obs : Observation
        What the agent saw before the move (the total must be known).
    cell : (row, col)
        The losing reveal.
    layout : numpy.ndarray of bool
        The true mines (the referee's knowledge; the agent never had it).
    first : bool, default False
        The move was the opening move.
    claimed : bool, default False
        A method claimed the cell certainly safe (the move was not a guess): ``"wrong claim"``.
    tolerance : float, default 0.005
        A cell more than this above the lowest probability is "riskier than safest".
    forced : float, default 0.45
        A guess whose lowest available probability is at least this is a "coin flip".
    endgame_cells : int, default 40
        At most this many covered cells: "endgame".
    opening_share : float, default 0.1
        Less than this share of the safe cells open: "opening".

    Examples
    --------
    >>> obs = Observation.from_text("??\\n11\\n..", mines=1)   # two layouts, no clue tells them apart
    >>> layout = np.array([[True, False], [False, False], [False, False]])
    >>> loss = classify_loss(obs, (0, 0), layout, endgame_cells=0, opening_share=0.0)
    >>> loss.cause, loss.place, loss.p_best
    ('coin flip', 'frontier', 0.5)
    """
    _check_options(tolerance=tolerance, forced=forced, endgame_cells=endgame_cells,
                   opening_share=opening_share)
    if obs.mines is None:
        raise ValueError("classify_loss needs the total number of mines (Observation(..., mines=n)): the "
                         "causes compare exact probabilities, which depend on it")
    grid = obs.grid
    layout = np.asarray(layout, dtype=bool)
    if layout.shape != grid.shape:
        raise ValueError(f"layout has shape {layout.shape}, the position {grid.shape}: give the game's mines "
                         f"(Game.layout) for this position")
    r, c = cell
    if not (0 <= r < grid.shape[0] and 0 <= c < grid.shape[1]) or grid[r, c] != COVERED or not layout[r, c]:
        raise ValueError(f"cell {cell} must be a covered cell of the position with a mine in the layout "
                         f"(the move that lost the game)")
    covered = grid == COVERED
    n_cov = int(np.count_nonzero(covered))
    safe_cells = layout.size - int(np.count_nonzero(layout))
    opened = int(np.count_nonzero((grid >= 0) | (grid == NOCLUE)))  # a lost clue's cell is open too
    share = opened / safe_cells if safe_cells else 1.0
    frontier = bool(neighbour_counts(grid >= 0)[r, c] > 0)
    place = "first" if first else ("frontier" if frontier else "interior")
    if first:
        return Loss("first click", place, float("nan"), float("nan"), n_cov, share, True)
    try:
        p = probabilities(obs, time_limit=None)  # the same classes on any machine
    except (InconsistentPositionError, MethodRefused):
        return Loss("wrong claim" if claimed else "unanalysed", place, float("nan"), float("nan"), n_cov,
                    share, True)
    p_cov = np.where(covered, p, np.inf)
    best = float(p_cov.min())
    chosen = float(p[r, c])
    safest_safe = bool(np.any(covered & (p_cov <= best + _ROUNDING) & ~layout))
    if claimed:
        cause = "wrong claim"
    elif best <= 0.0:
        cause = "certain cell skipped"
    elif _unavoidable(obs, cell, p):
        cause = "coin flip"
    elif chosen > best + tolerance + _ROUNDING:
        cause = "riskier than safest"
    elif n_cov <= endgame_cells:
        cause = "endgame"
    elif share < opening_share:
        cause = "opening"
    elif best >= forced:
        cause = "coin flip"
    else:
        cause = "safest guess"
    return Loss(cause, place, chosen, best, n_cov, share, safest_safe)


def _check_options(*, tolerance, forced, endgame_cells, opening_share) -> None:
    """``ValueError`` naming a threshold of :func:`classify_loss` that is not a number of its range."""
    for name, value in (("tolerance", tolerance), ("forced", forced), ("opening_share", opening_share)):
        if not is_real(value) or not 0 <= value <= 1:
            raise ValueError(f"{name} must be a probability or share, a number within [0, 1], got {value!r}")
    check_count("endgame_cells", endgame_cells)


def _unavoidable(obs: Observation, cell: tuple[int, int], p: np.ndarray) -> bool:
    """``cell`` is half of a coin flip no move can settle (``False`` past enumeration's caps)."""
    try:
        return next(free_coin_flip_cells(obs, p, cells=[cell]), None) is not None
    except MethodRefused:
        return False


def play_losses(
    agent: str | Agent,
    *,
    level: str | tuple | None = None,
    shape: tuple[int, int] | None = None,
    mines: int | None = None,
    density: float | None = None,
    games: int = 100,
    seed: int | np.random.Generator = 0,
    start: int = 0,
    first_click: str = "safe",
    **options,
) -> pd.DataFrame:
    """Play games as :func:`sweeplab.play` does (same seeds, same games) and classify each loss.

    The board is a ``level`` (expert when no board is given), or a ``shape``
    with ``mines`` or ``density``, as in :func:`sweeplab.play`.  Returns one row
    per game: ``game``, ``won``, ``guesses`` and, for a lost game, the fields
    of :class:`Loss` (missing for a won game).  ``options`` go to
    :func:`classify_loss`.

    Examples
    --------
    >>> df = play_losses("trivial", level="beginner", games=4, seed=1)
    >>> list(df.columns[:3]), len(df), str(df["covered"].dtype)
    (['game', 'won', 'guesses'], 4, 'Int64')
    """
    allowed = set(inspect.signature(classify_loss).parameters) - {"obs", "cell", "layout", "first", "claimed"}
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise ValueError(f"play_losses has no option {', '.join(map(repr, unknown))}; it takes level, shape, "
                         f"mines, density, games, seed, start, first_click and classify_loss's options")
    defaults = {k: v.default for k, v in inspect.signature(classify_loss).parameters.items() if k in allowed}
    _check_options(**{**defaults, **options})  # before any game: a won game never reads them
    player = make_agent(agent)
    if level is None and shape is None and mines is None and density is None:
        level = "expert"
    level, shape, mines, density = board_arguments(level, shape, mines, density)  # as play reads them
    (h, w), n_mines = resolve_board(level, shape=shape, mines=mines, density=density)
    player = player.for_rules(first_click=first_click, shape=(h, w), mines=n_mines)
    # the seed as play reads it (SPEC §3: an int or a Generator), so the games are play's
    games, seed, start = check_count("games", games), root_seed(seed), check_count("start", start)
    rows = []
    for i in range(start, start + games):
        board_ss, agent_ss = game_seeds(seed, i)
        game = new_game(shape=(h, w), mines=n_mines, first_click=first_click, seed=board_ss)
        seen: list[Observation] = []
        guesses = 0
        row: dict = {"game": i}
        for played in referee(player, game, agent_generator(agent_ss), on_turn=_recorder(seen)):
            guesses += played.move.source == "guess"
            if played.hit_mine:
                layout = game.layout
                assert layout is not None  # placed at the first reveal
                # the position of the turn: what the method saw when it made the claim, or the agent
                # when it guessed (a guess is a turn's only move)
                loss = classify_loss(seen[played.turn], (played.move.row, played.move.col), layout,
                                     first=played.move.source == "first",
                                     claimed=played.move.claimed, **options)
                row.update(asdict(loss))
                break
        row["won"] = game.status == "won" and game.mines_hit == 0
        row["guesses"] = guesses
        rows.append(row)
    columns = ["game", "won", "guesses", *Loss.__dataclass_fields__]
    # a won game has no loss fields: missing, in columns that keep their kind (a count stays a count)
    nullable = {"int": "Int64", "bool": "boolean"}
    kinds = {f.name: nullable[str(f.type)] for f in fields(Loss) if str(f.type) in nullable}
    return pd.DataFrame(rows).reindex(columns=columns).astype(kinds)


def _recorder(seen: list[Observation]):
    """An ``on_turn`` callback that keeps every observation the agent is shown."""
    return lambda _turn, obs: seen.append(obs)


def loss_table(results: pd.DataFrame, *, by: str = "cause") -> pd.DataFrame:
    """Counts and shares of the lost games by ``by`` (a column of :func:`play_losses`).

    ``share of losses`` is over the lost games, ``per 100 games`` over all games.

    Examples
    --------
    >>> df = pd.DataFrame({"won": [True, False, False], "cause": [None, "endgame", "coin flip"]})
    >>> loss_table(df)["lost"].tolist()
    [1, 1]
    """
    if by not in results.columns or by in ("game", "won"):
        choices = [c for c in results.columns if c not in ("game", "won")]
        raise ValueError(f"by={by!r} is not a column of the loss rows to count by; choose from {choices}")
    check_known_outcomes(results, function="loss_table")  # NaN read as a boolean is a win
    check_distinct_games(results, GROUP_COLUMNS, function="loss_table")  # with a seed column: pooled seeds
    lost = results[~results["won"].astype(bool)]
    counts = lost[by].value_counts()
    if by == "cause":
        counts = counts.reindex([c for c in CAUSES if c in counts.index])
    out = pd.DataFrame({"lost": counts.astype(int)})
    out["share of losses"] = (out["lost"] / max(len(lost), 1)).round(4)
    out["per 100 games"] = (100 * out["lost"] / max(len(results), 1)).round(2)
    out.index.name = by
    return out
