"""The position corpus: mid-game positions from real play, labelled with the truth (issue 5).

A corpus is a list of :class:`CorpusPosition`: a position an agent faced
during a seeded game (or a hand-made example), with its truth labels, the
cells exhaustive enumeration (the ``enumerate`` method, report 004 §3) proves
safe or mined, once with the total number of mines and once without.

File format: JSON Lines, one position per line.  Each line is a
``sweeplab.position`` document (``format``, ``version``, ``rows``, ``mines``,
``noise``, readable by :func:`sweeplab.files.position_from_dict`) with the
corpus keys ``id``, ``slice``, ``source`` (the :data:`sweeplab.AGENTS` name,
``"safe-clicks"`` or ``"example"``), ``seed`` (corpus seed), ``game_seed``, ``move``, ``shape``,
``n_covered``, ``n_frontier`` and ``truth``:
``{"with_total": {"safe": [[r, c], ...], "mines": [...]}, "without_total": {...}}``.
``data/README.md`` ("Position corpus") documents it for readers.

Regenerate with ``sweeplab corpus --seed S --out PATH``: the same seed and
preset give the same file on any machine.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np

from .agents import Agent, make_agent
from .agents.base import frontier_mask
from .clue_system import clue_system
from .executor import check_count, check_positive
from .files import is_json_int, position_from_dict, position_to_dict
from .game import Game, as_generator, check_noise, new_game, resolve_board
from .positions import COVERED, Observation, neighbour_counts, short_repr
from .referee import referee
from .run_directory import atomic_write
from .simulate import agent_generator

__all__ = [
    "CorpusPosition",
    "Slice",
    "PRESETS",
    "default_agents",
    "CORPUS_AGENTS",
    "generate_corpus",
    "label",
    "save_corpus",
    "load_corpus",
    "corpus_hash",
    "example_positions",
    "midgame_positions",
]

Cell = tuple[int, int]
TRUTH_METHOD = "enumerate"


@dataclass(frozen=True)
class CorpusPosition:
    """One labelled position of the corpus.

    Attributes
    ----------
    id : str
        Unique within the corpus, ``"<slice>-<n>"``.
    slice : str
        Corpus slice (board family) the position belongs to.
    obs : Observation
    source : str
        The agent that reached the position, ``"safe-clicks"`` or ``"example"``.
    seed : int or None
        Corpus seed.
    game_seed : int or None
        Seed of the game (``new_game(..., seed=game_seed)``).
    move : int or None
        Agent step at which the position was seen.
    truth_safe, truth_mines : frozenset of (int, int)
        Forced cells with the total (when ``obs.mines`` is known).
    truth_safe_nototal, truth_mines_nototal : frozenset of (int, int)
        Forced cells from the clues alone.
    """

    id: str
    slice: str
    obs: Observation
    source: str
    seed: int | None
    game_seed: int | None
    move: int | None
    truth_safe: frozenset[Cell]
    truth_mines: frozenset[Cell]
    truth_safe_nototal: frozenset[Cell]
    truth_mines_nototal: frozenset[Cell]
    note: str = ""

    def truth(self, *, use_total: bool) -> tuple[frozenset[Cell], frozenset[Cell]]:
        """``(safe, mines)`` forced with or without the total."""
        if use_total:
            return self.truth_safe, self.truth_mines
        return self.truth_safe_nototal, self.truth_mines_nototal

    @property
    def n_covered(self) -> int:
        return int(np.count_nonzero(self.obs.grid == COVERED))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (one line of the corpus file)."""
        return position_to_dict(
            self.obs,
            id=self.id,
            slice=self.slice,
            source=self.source,
            seed=self.seed,
            game_seed=self.game_seed,
            move=self.move,
            note=self.note,
            **_counts(self.obs),
            truth={
                "method": TRUTH_METHOD,
                "with_total": {"safe": _cells_out(self.truth_safe), "mines": _cells_out(self.truth_mines)},
                "without_total": {"safe": _cells_out(self.truth_safe_nototal),
                                  "mines": _cells_out(self.truth_mines_nototal)},
            },
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CorpusPosition:
        """Inverse of :meth:`to_dict`."""
        obs = position_from_dict(data)
        try:
            _check_fields(data, obs)
            t = data["truth"]
            truth = {use: _truth_in(t[use], obs, f"truth.{use}") for use in ("with_total", "without_total")}
            return cls(
                id=data["id"], slice=data["slice"], obs=obs, source=data["source"],
                seed=data.get("seed"), game_seed=data.get("game_seed"), move=data.get("move"),
                truth_safe=truth["with_total"][0], truth_mines=truth["with_total"][1],
                truth_safe_nototal=truth["without_total"][0], truth_mines_nototal=truth["without_total"][1],
                note=str(data.get("note", "")),
            )
        except KeyError as exc:
            raise ValueError(f"corpus line lacks the key {exc.args[0]!r}") from None


def _counts(obs: Observation) -> dict[str, Any]:
    """The keys ``shape``, ``n_covered`` and ``n_frontier`` of a corpus line, from its grid."""
    h, w = obs.shape
    return {"shape": [h, w], "n_covered": int(np.count_nonzero(obs.grid == COVERED)),
            "n_frontier": int(np.count_nonzero(frontier_mask(obs.grid)))}


def _check_fields(data: dict[str, Any], obs: Observation) -> None:
    """``ValueError`` naming a corpus key whose type is wrong or whose count disagrees with the grid.

    ``shape``, ``n_covered`` and ``n_frontier`` are written for readers of the file; a copy edited by
    hand (or two lines spliced) that disagrees with its own grid is refused rather than trusted, and so
    are labels made by another method than exhaustive enumeration.
    """
    for key in ("id", "slice", "source", "note"):
        if key in data and not isinstance(data[key], str):
            raise ValueError(f"{key!r} must be a string, got {short_repr(data[key])}")
    for key in ("seed", "game_seed", "move"):
        if data.get(key) is not None and not (is_json_int(data[key]) and data[key] >= 0):
            raise ValueError(f"{key!r} must be a non-negative integer or null, got {short_repr(data[key])}")
    for key, value in _counts(obs).items():
        if key in data and data[key] != value:
            raise ValueError(f"{key!r} is {short_repr(data[key])} but the rows give {value}: the line was "
                             f"edited or spliced; write the corpus anew with `sweeplab corpus`")
    method = data["truth"].get("method", TRUTH_METHOD) if isinstance(data["truth"], dict) else TRUTH_METHOD
    if method != TRUTH_METHOD:
        raise ValueError(f"truth.method is {short_repr(method)}: corpus labels are the truth, found by "
                         f"{TRUTH_METHOD!r} (exhaustive enumeration); label the position with "
                         f"sweeplab.corpus.label")


def _cells_out(cells: Iterable[Cell]) -> list[list[int]]:
    return [[int(r), int(c)] for r, c in sorted(cells)]


def _cells_in(cells: Iterable[Sequence[int]]) -> frozenset[Cell]:
    return frozenset((int(r), int(c)) for r, c in cells)


def _truth_in(truth: dict[str, Any], obs: Observation, where: str) -> tuple[frozenset[Cell], frozenset[Cell]]:
    """``(safe, mines)`` of one truth entry, each cell a covered cell of ``obs``; ``ValueError`` naming it.

    A label off the board, on a revealed cell, given as ``1.7``, ``"1"`` or ``true`` (which ``int``
    would read as another cell), or both safe and a mine would mislabel the position.
    """
    h, w = obs.shape
    out = []
    for kind in ("safe", "mines"):
        cells = truth[kind]
        if not isinstance(cells, list):
            raise ValueError(f"{where}.{kind} must be a list of [row, col] cells, got {short_repr(cells)}")
        for cell in cells:
            if not (isinstance(cell, list) and len(cell) == 2 and all(is_json_int(v) for v in cell)):
                raise ValueError(f"{where}.{kind}: a cell is a pair of integers [row, col], got "
                                 f"{short_repr(cell)}")
            if not (0 <= cell[0] < h and 0 <= cell[1] < w):
                raise ValueError(f"{where}.{kind}: {cell} is off the {h}x{w} board")
            if obs.grid[cell[0], cell[1]] != COVERED:
                raise ValueError(f"{where}.{kind}: {cell} is not a covered cell; only covered cells are "
                                 f"labelled")
        out.append(_cells_in(cells))
    both = sorted(out[0] & out[1])
    if both:
        raise ValueError(f"{where}: {list(both[0])} is labelled both safe and a mine")
    return out[0], out[1]


def label(
    obs: Observation, *, id: str, slice: str, source: str, seed: int | None = None,
    game_seed: int | None = None, move: int | None = None, note: str = "",
) -> CorpusPosition:
    """Label a position with its truth from exhaustive enumeration, with and without the total.

    Raises
    ------
    InconsistentPositionError
        When no mine layout fits the position.

    Examples
    --------
    >>> p = label(Observation.from_text("???\\n121", mines=2), id="x-0", slice="x", source="example")
    >>> sorted(p.truth_mines), sorted(p.truth_safe)
    ([(0, 0), (0, 2)], [(0, 1)])
    """
    from .methods import deduce

    # the truth answers whatever the machine's load (node and memory caps only)
    with_t = deduce(obs, method=TRUTH_METHOD, use_total=True, time_limit=None)
    without_t = deduce(obs, method=TRUTH_METHOD, use_total=False, time_limit=None)
    return CorpusPosition(
        id=id, slice=slice, obs=obs, source=source, seed=seed, game_seed=game_seed, move=move,
        truth_safe=with_t.safe, truth_mines=with_t.mines,
        truth_safe_nototal=without_t.safe, truth_mines_nototal=without_t.mines, note=note,
    )


# --- agents -------------------------------------------------------------------------------------

#: Library agents (:data:`sweeplab.AGENTS`) that play the corpus games, weakest to strongest.
CORPUS_AGENTS = ("trivial", "rref", "csp", "probability")


def default_agents() -> list[tuple[str, Agent]]:
    """The agents that play the corpus games: :data:`CORPUS_AGENTS` from :mod:`sweeplab.agents`."""
    return [(name, make_agent(name)) for name in CORPUS_AGENTS]


# --- slices ---------------------------------------------------------------------------------------

#: Who plays a slice's games (``Slice.player``).
SLICE_PLAYERS = ("agents", "safe-clicks")


@dataclass(frozen=True)
class Slice:
    """A board family of the corpus.

    Attributes
    ----------
    name : str
    level : str, optional
        A preset of :data:`sweeplab.LEVELS`.
    shape : (int, int), optional
        Custom board, with ``densities``.
    densities : tuple of float
        Custom boards cycle through these mine densities, game by game.
    games : int
        Games per agent.
    per_game : int
        Positions kept per game (drawn uniformly among the agent's steps).
    player : {"agents", "safe-clicks"}
        ``"safe-clicks"`` makes positions without an agent: the single-clue
        rules plus correct guesses at the edge of the revealed area, the only
        affordable way to reach mid-game on huge boards.
    reveal : tuple of float
        For ``"safe-clicks"``: fractions of the safe cells revealed.
    noise : (kind, p), optional
        Clue noise of report 004 §4 (SPEC §3); the truth then follows the
        noise model (a hidden clue gives no equation, ``"under"``/``"over"``
        clues are bounds).
    """

    name: str
    level: str | None = None
    shape: tuple[int, int] | None = None
    densities: tuple[float, ...] = ()
    games: int = 2
    per_game: int = 3
    player: str = "agents"
    reveal: tuple[float, ...] = (0.3, 0.6)
    noise: tuple[str, float] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"a slice's name is a non-empty string, got {self.name!r}")
        if (self.level is None) == (self.shape is None):
            raise ValueError(f"slice {self.name!r}: give a level or a shape with densities, not both or "
                             f"neither")
        if self.level is not None:
            resolve_board(self.level)  # ValueError naming the levels
        else:
            if not self.densities:
                raise ValueError(f"slice {self.name!r}: a custom shape needs densities, e.g. (0.15, 0.2)")
            for density in self.densities:
                resolve_board(shape=self.shape, density=density)  # ValueError naming a bad shape or density
        check_count("games", self.games)
        check_positive("per_game", self.per_game)
        if self.player not in SLICE_PLAYERS:
            raise ValueError(f"slice {self.name!r}: player must be one of {SLICE_PLAYERS}, got "
                             f"{self.player!r}")
        if not self.reveal or not all(isinstance(f, int | float) and 0 < f <= 1 for f in self.reveal):
            raise ValueError(f"slice {self.name!r}: reveal holds fractions within (0, 1], got "
                             f"{self.reveal!r}")
        check_noise(self.noise)

    def board(self, game: int) -> tuple[tuple[int, int], int, float]:
        """``(shape, mines, density)`` of the ``game``-th game."""
        if self.level is not None:
            shape, mines = resolve_board(self.level)
        else:
            density = self.densities[game % len(self.densities)]
            shape, mines = resolve_board(shape=self.shape, density=density)
        return shape, mines, mines / (shape[0] * shape[1])


def committed_corpus(preset: str) -> Path | None:
    """The committed corpus of ``preset`` (``data/corpus/corpus-<preset>.jsonl.gz``), else ``None``.

    Read from the copy a wheel ships inside the package (``sweeplab/_data``),
    else from the source tree sweeplab runs from.

    Examples
    --------
    >>> committed_corpus("small").name, committed_corpus("tiny")
    ('corpus-small.jsonl.gz', None)
    """
    name = f"corpus-{preset}.jsonl.gz"
    here = Path(__file__).resolve()
    for folder in (here.parent / "_data", here.parents[1] / "data"):
        if (folder / "corpus" / name).is_file():
            return folder / "corpus" / name
    return None


def corpus_positions(corpus: str | Path, *, seed: int = 0, progress: bool = False) -> list[CorpusPosition]:
    """The positions of a corpus file, or of a preset: committed (:func:`committed_corpus`, in a source
    tree or an installed wheel alike), else generated from ``seed``.

    Examples
    --------
    >>> len(corpus_positions("tiny")) > 0, len(corpus_positions("small"))
    (True, 349)
    """
    if Path(corpus).suffix in (".jsonl", ".gz"):
        return load_corpus(corpus)
    committed = committed_corpus(str(corpus))
    if committed is not None:
        return load_corpus(committed)
    return generate_corpus(seed=seed, preset=str(corpus), progress=progress)


#: Corpus presets: ``small``, ``huge`` and ``full`` are committed (``data/corpus/``); ``full`` has more
#: games and huge boards; ``tiny`` is for tests.
PRESETS: dict[str, tuple[Slice, ...]] = {
    "tiny": (
        Slice("beginner", level="beginner", games=1, per_game=3),
        Slice("intermediate", level="intermediate", games=1, per_game=2),
    ),
    "small": (
        Slice("beginner", level="beginner", games=6, per_game=4),
        Slice("intermediate", level="intermediate", games=5, per_game=4),
        Slice("expert", level="expert", games=5, per_game=4),
        Slice("dense30", shape=(30, 30), densities=(0.15, 0.20, 0.25), games=6, per_game=3),
        Slice("large100", shape=(100, 100), densities=(0.15, 0.20), games=1, per_game=2),
        Slice("noisy-lost", level="expert", games=1, per_game=3, noise=("lost", 0.1)),
        Slice("noisy-under", level="intermediate", games=1, per_game=3, noise=("under", 0.1)),
    ),
    "huge": (
        Slice("huge300", shape=(300, 300), densities=(0.15, 0.20), games=2, per_game=1, player="safe-clicks",
              reveal=(0.5,)),
    ),
    "full": (
        Slice("beginner", level="beginner", games=40, per_game=5),
        Slice("intermediate", level="intermediate", games=30, per_game=5),
        Slice("expert", level="expert", games=30, per_game=5),
        Slice("dense30", shape=(30, 30), densities=(0.15, 0.20, 0.25), games=30, per_game=4),
        Slice("large100", shape=(100, 100), densities=(0.15, 0.20), games=4, per_game=3),
        Slice("noisy-lost", level="expert", games=5, per_game=4, noise=("lost", 0.1)),
        Slice("noisy-under", level="intermediate", games=5, per_game=4, noise=("under", 0.1)),
        Slice("huge300", shape=(300, 300), densities=(0.15, 0.20), games=2, per_game=2,
              player="safe-clicks"),
        Slice("huge1000", shape=(1000, 1000), densities=(0.15, 0.20), games=2, per_game=1,
              player="safe-clicks"),
    ),
}


# --- generation -----------------------------------------------------------------------------------


def _agent_snapshots(
    agent: Agent, game: Game, rng: np.random.Generator, *, max_steps: int,
) -> list[tuple[int, Observation]]:
    """Play ``game`` with ``agent`` from a central first click; every position the agent faced."""
    h, w = game.shape
    game.reveal(h // 2, w // 2)
    seen: list[tuple[int, Observation]] = []
    for _ in referee(agent, game, rng, max_turns=max_steps, on_turn=lambda *turn: seen.append(turn)):
        pass
    return seen


def _safe_click_snapshots(
    game: Game, rng: np.random.Generator, fractions: Sequence[float],
) -> list[tuple[int, Observation]]:
    """A lucky player's positions: the single-clue rules, and a correct guess when they stall.

    Each round opens a random quarter of the covered safe cells that touch the
    revealed area (the guesses of a player who always guesses right); below
    the target share of revealed safe cells, the single-clue rules (``trivial``,
    report 000 §2.2) are then played to their fixpoint, revealing and flagging
    as a player would.  The snapshot is taken right after the guesses, so the
    position still holds work for every method.  This reaches mid-game on
    boards far too large for the agents.
    """
    from .methods import deduce

    h, w = game.shape
    game.reveal(h // 2, w // 2)
    mines = game.layout
    assert mines is not None  # a game made here, not loaded without its layout
    out: list[tuple[int, Observation]] = []
    rounds = 0
    targets = sorted(fractions)
    while targets and game.status == "playing":
        grid = game.observation.grid
        edge = (grid == COVERED) & ~mines & (neighbour_counts(grid >= 0) > 0)
        candidates = np.flatnonzero(edge)
        if candidates.size == 0:
            break
        for i in rng.choice(candidates, size=max(1, candidates.size // 50), replace=False):
            game.reveal(int(i) // w, int(i) % w)
        rounds += 1
        if game.status != "playing":
            break
        if game.revealed_fraction >= targets[0]:
            out.append((rounds, game.observation))
            while targets and game.revealed_fraction >= targets[0]:
                targets.pop(0)
            continue
        d = deduce(game.observation, method="trivial", use_total=False)
        for r, c in sorted(d.mines):
            game.flag(r, c)
        for r, c in sorted(d.safe):
            if game.status == "playing":
                game.reveal(r, c)
    return out


def _seed_entropy(seed: Any) -> Any:
    """``seed`` for a ``SeedSequence``: a non-negative int or a sequence of them, else a ``ValueError``."""
    if isinstance(seed, np.random.Generator):  # SPEC §3: a Generator gives the seed, by one draw
        return int(seed.integers(2**63))
    if isinstance(seed, (list, tuple)):
        return [check_count("seed", s) for s in seed]
    return check_count("seed", seed)


def midgame_positions(
    *, shape: tuple[int, int], density: float, n: int, reveal: float = 0.5,
    seed: int | Sequence[int] | np.random.SeedSequence | np.random.Generator,
) -> list[Observation]:
    """``n`` mid-game positions of a perfect player (no agent, no labels), for timing studies.

    Each comes from its own game (zero first click in the centre) with
    at least ``reveal`` of the safe cells open, grown from the first click by
    the single-clue rules and correct guesses (see ``Slice.player``).

    Examples
    --------
    >>> [o.shape for o in midgame_positions(shape=(9, 9), density=0.15, n=2, seed=0)]
    [(9, 9), (9, 9)]
    """
    (h, w), mines = resolve_board(shape=shape, density=density)
    n = check_count("n", n)
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(_seed_entropy(seed))
    out = []
    for child in ss.spawn(n):
        game_rng, click_rng = np.random.default_rng(child).spawn(2)
        game = new_game(shape=(h, w), mines=mines, first_click="zero", seed=game_rng)
        seen = _safe_click_snapshots(game, click_rng, [reveal])
        out.append(seen[-1][1] if seen else game.observation)
    return out


def _has_frontier(obs: Observation) -> bool:
    return clue_system(obs, use_total=False).n_frontier > 0


def generate_corpus(
    *,
    seed: int,
    preset: str = "small",
    slices: Sequence[Slice] | None = None,
    agents: Sequence[tuple[str, Agent]] | None = None,
    examples: bool = True,
    max_steps: int = 5000,
    progress: bool = False,
) -> list[CorpusPosition]:
    """Play seeded games, keep mid-game positions and label them (issue 5).

    Parameters
    ----------
    seed : int
        Corpus seed: each game seed derives from it, the slice name, the agent
        name and the game number (NumPy ``SeedSequence``), so a subset of the
        slices gives the same positions.
    preset : {"tiny", "small", "full"}, default "small"
        Slices from :data:`PRESETS`, unless ``slices`` is given.
    slices : sequence of Slice, optional
    agents : sequence of (name, Agent), optional
        Default :func:`default_agents`.
    examples : bool, default True
        Add the hand-made positions of :mod:`sweeplab.examples` as slice ``"examples"``.
    max_steps : int, default 5000
        Agent steps per game at most.
    progress : bool, default False
        Show a tqdm bar.

    Returns
    -------
    list of CorpusPosition
        Positions the agents faced with at least one clue touching a covered
        cell.  Positions an agent made inconsistent (a wrong flag) and those
        ``enumerate`` refuses (a component too large) are dropped.

    Examples
    --------
    >>> c = generate_corpus(seed=1, slices=[Slice("b", level="beginner", games=1, per_game=2)],
    ...                     examples=False)
    >>> [p.slice for p in c] == ["b"] * len(c) and all(p.seed == 1 for p in c)
    True
    """
    check_count("seed", seed)
    if isinstance(slices, str):
        raise ValueError(f"slices are Slice objects (or None for the preset's); for a preset by name pass "
                         f"preset={slices!r}")
    if slices is None:
        try:
            slices = PRESETS[preset]
        except KeyError:
            raise ValueError(f"unknown preset {preset!r}; choose from {sorted(PRESETS)}") from None
    agents = list(default_agents() if agents is None else agents)
    if not agents:
        raise ValueError("no agents to play the corpus games")
    jobs = []
    for sl in slices:
        players = agents if sl.player == "agents" else [("safe-clicks", None)]
        for agent_name, agent in players:
            for g in range(sl.games):
                key = [seed, zlib.crc32(sl.name.encode()), zlib.crc32(agent_name.encode()), g]
                game_seed = int(np.random.SeedSequence(key).generate_state(1, np.uint64)[0] >> 1)
                jobs.append((sl, g, agent_name, agent, game_seed))
    bar = _progress(jobs, progress, "corpus games")
    out: list[CorpusPosition] = []
    counters: dict[str, int] = {}
    for sl, g, agent_name, agent, game_seed in bar:
        shape, mines, _ = sl.board(g)
        rng = as_generator(game_seed)
        game_rng, agent_rng, pick_rng = rng.spawn(3)
        # the same draws, from a seed sequence that does not name the board's sibling (agent_generator)
        agent_rng = agent_generator(cast(np.random.SeedSequence, agent_rng.bit_generator.seed_seq))
        game = new_game(shape=shape, mines=mines, first_click="zero", noise=sl.noise, seed=game_rng)
        if agent is None:
            seen = _safe_click_snapshots(game, agent_rng, sl.reveal)
        else:
            seen = _agent_snapshots(agent, game, agent_rng, max_steps=max_steps)
        seen = [(step, obs) for step, obs in seen if _has_frontier(obs)]
        if not seen:
            continue
        keep = np.sort(pick_rng.choice(len(seen), size=min(sl.per_game, len(seen)), replace=False))
        for i in keep:
            step, obs = seen[int(i)]
            n = counters.get(sl.name, 0)
            try:
                pos = label(obs, id=f"{sl.name}-{n:04d}", slice=sl.name, source=agent_name, seed=seed,
                            game_seed=game_seed, move=step)
            except ValueError:
                # InconsistentPositionError (a wrong flag), or a component too large to enumerate
                continue
            counters[sl.name] = n + 1
            out.append(pos)
    if examples:
        out.extend(example_positions())
    return out


def example_positions() -> list[CorpusPosition]:
    """The reports' examples and the methods' counterexamples (:data:`sweeplab.examples.EXAMPLES`), labelled.

    The labels come from ``enumerate`` like every other position (the
    catalogue's own answers are checked against them in the tests).
    """
    from .examples import EXAMPLES

    return [
        label(ex.observation, id=f"examples-{n:04d}", slice="examples", source="example",
              note=f"{ex.name} ({ex.source}): {ex.description}")
        for n, ex in enumerate(EXAMPLES.values())
    ]


def _progress(items: list, enabled: bool, desc: str):
    if not enabled:
        return items
    from tqdm.auto import tqdm

    return tqdm(items, desc=desc, unit="game")


# --- files --------------------------------------------------------------------------------------------


def save_corpus(positions: Iterable[CorpusPosition], path: str | Path) -> Path:
    """Write a corpus as JSON Lines (gzip-compressed when ``path`` ends in ``.gz``)."""
    path = Path(path)
    path.resolve().parent.mkdir(parents=True, exist_ok=True)  # through a link: where it points
    text = "".join(json.dumps(p.to_dict(), separators=(",", ":")) + "\n" for p in positions).encode()

    def write(tmp: Path) -> None:
        with open(tmp, "wb") as fh:
            if path.suffix == ".gz":
                # no file name or time stamp in the header: the same corpus gives the same bytes
                with gzip.GzipFile(filename="", mode="wb", fileobj=fh, mtime=0) as gz:
                    gz.write(text)
            else:
                fh.write(text)

    atomic_write(path, write)  # a Ctrl-C while writing leaves the corpus that was there, whole
    return path


def _open(path: Path):
    """A corpus file opened as text (gzip-compressed when named ``.gz``, as :func:`save_corpus` writes it)."""
    return (gzip.open if path.suffix == ".gz" else open)(path, "rt", encoding="utf-8")


def holds_a_corpus(path: str | Path) -> bool:
    """Whether the file's first line is a corpus position (so the file is a corpus, which
    ``sweeplab corpus`` may rewrite)."""
    try:
        with _open(Path(path)) as fh:
            CorpusPosition.from_dict(json.loads(fh.readline()))
    except (OSError, ValueError, EOFError, KeyError, TypeError, AttributeError):
        return False
    return True


def load_corpus(path: str | Path, *, slices: Sequence[str] | None = None) -> list[CorpusPosition]:
    """Read a corpus written by :func:`save_corpus`, optionally only some slices.

    ``slices`` names slices of the file (a name alone, or a sequence of them).

    Raises
    ------
    FileNotFoundError
    ValueError
        On a line that is not a corpus position, or a slice the file does not hold.
    """
    path = Path(path)
    wanted = None if slices is None else {slices} if isinstance(slices, str) else set(slices)
    if path.is_dir():
        raise ValueError(f"{path} is a directory; give a corpus file such as {path / 'corpus.jsonl.gz'}")
    if not path.exists():
        raise FileNotFoundError(f"no corpus at {path}: give one with --corpus (the command line) or "
                                f"write one with `sweeplab corpus` (sweeplab.generate_corpus)")
    out = []
    seen: set[str] = set()
    lines: dict[str, int] = {}  # id -> its line
    n = 0
    try:
        with _open(path) as fh:
            for n, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    data = json.loads(line)
                except (json.JSONDecodeError, RecursionError) as exc:
                    why = getattr(exc, "msg", "nested too deeply")
                    raise ValueError(f"{path}:{n}: not JSON ({why})") from None
                if not isinstance(data, dict):
                    raise ValueError(f"{path}:{n}: a corpus line is a JSON object, got "
                                     f"{type(data).__name__}")
                seen.add(str(data.get("slice")))
                if wanted is not None and data.get("slice") not in wanted:
                    continue
                try:
                    position = CorpusPosition.from_dict(data)
                except (KeyError, TypeError, AttributeError, ValueError) as exc:
                    raise ValueError(f"{path}:{n}: not a corpus position ({exc})") from None
                if position.id in lines:
                    raise ValueError(f"{path}:{n}: the id {position.id!r} is already on line "
                                     f"{lines[position.id]}; ids are unique within a corpus: remove the "
                                     f"repeated position")
                lines[position.id] = n
                out.append(position)
    except (EOFError, zlib.error) as exc:  # a .gz cut short, or a damaged deflate block
        raise ValueError(f"{path}:{n + 1}: the compressed file is cut short or corrupt ({exc}); its first "
                         f"{n} lines were read: copy it again, or write it anew with `sweeplab corpus`"
                         ) from None
    except (OSError, UnicodeDecodeError) as exc:  # a .gz that is not gzip, a binary file
        raise ValueError(f"{path}: not a corpus file (JSON Lines, gzip-compressed when named .gz): "
                         f"{exc}") from None
    unknown = sorted(wanted - seen) if wanted is not None else []
    if unknown:
        raise ValueError(f"{path} holds no slice {', '.join(map(repr, unknown))}; its slices: "
                         f"{', '.join(sorted(seen))}")
    return out


def corpus_hash(path: str | Path) -> str:
    """SHA-256 of the corpus file's bytes (the bench manifest records it)."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()

