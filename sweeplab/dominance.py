"""Which method beats which: dominance between the sound methods (issue 11 item 3; notebook 14, report 014).

Method ``A`` *dominates* ``B`` on a set of positions when, on every position
both answer (neither refuses it), ``A`` proves every cell ``B`` proves.  Where
it does not, a *witness* is a position on which ``B`` proves a cell ``A``
misses.  :func:`dominance` tests every ordered pair on a list of positions (the
committed corpus plus random positions, :func:`dominance_positions`);
:func:`search_counterexamples` looks for the smallest witness of each pair
(fewest covered cells, then smallest board) over every small position
(exhaustively on tiny boards, then at random) and shrinks what it finds.
The witnesses found this way are in :mod:`sweeplab.examples` (names
``"<B>-beats-<A>"``, :data:`COUNTEREXAMPLES`), each checked against an
independent oracle by the tests.

The complete methods (``milp``, ``enumerate``, ``brute`` where it answers)
prove exactly the forced cells, so they dominate every sound method and are
equivalent to each other; the interesting order is among the others.

Examples
--------
>>> from sweeplab import Observation
>>> pos = [Observation.from_text("???\\n121", mines=2), Observation.from_text("????\\nF11?")]
>>> d = dominance(pos, methods=("trivial", "rref", "enumerate"))
>>> d.dominates("enumerate", "rref"), d.dominates("rref", "trivial")
(True, False)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np
import pandas as pd

from .errors import InconsistentPositionError, MethodBugError, MethodRefused, check_flag
from .executor import check_count, check_positive, root_seed
from .methods import METHODS, deduce, method_info, method_use_total, untimed
from .methods._consistency import has_layout
from .positions import COVERED, Observation, as_observation, neighbour_counts, short_repr

__all__ = [
    "SOUND",
    "counterexamples",
    "Dominance",
    "Witness",
    "deductions",
    "dominance",
    "dominance_positions",
    "hasse_edges",
    "hasse_from_table",
    "classes_from_table",
    "search_counterexamples",
    "witness_size",
]

Cell = tuple[int, int]
#: The sound built-in methods, in registry order.
SOUND = tuple(n for n, m in METHODS.items() if m.sound and m.builtin)
#: The complete ones (they find every forced cell).
COMPLETE = tuple(n for n in SOUND if METHODS[n].complete)
#: What :func:`search_counterexamples` compares: the incomplete sound methods and ``enumerate``,
#: which stands for every complete method (they prove the same cells).
SEARCH = (*(n for n in SOUND if n not in COMPLETE), "enumerate")


@dataclass(frozen=True)
class Dominance:
    """Dominance between methods on a list of positions.

    Attributes
    ----------
    methods : tuple of str
    positions : int
        Positions tested.
    tested : mapping
        ``(A, B) -> positions on which both answered``.
    witnesses : mapping
        ``(A, B) -> positions on which B proves a cell A misses``.
    first_witness : mapping
        ``(A, B) -> index of the first such position`` (pairs with a witness only).
    use_total : bool
    """

    methods: tuple[str, ...]
    positions: int
    tested: MappingProxyType
    witnesses: MappingProxyType
    first_witness: MappingProxyType = field(repr=False)
    use_total: bool = True

    def dominates(self, a: str, b: str) -> bool:
        """Whether ``a`` proved everything ``b`` proved on every position both answered, and they both
        answered at least one (with none there is no evidence either way: a method refusing every
        position dominates nothing and is dominated by nothing)."""
        if (a, b) not in self.tested:
            raise ValueError(f"no pair ({a!r}, {b!r}) was tested: give two distinct methods of "
                             f"{list(self.methods)}")
        return self.tested[(a, b)] > 0 and self.witnesses[(a, b)] == 0

    def classes(self) -> list[tuple[str, ...]]:
        """Groups of methods that dominate each other (equivalent on the tested positions)."""
        out: list[tuple[str, ...]] = []
        for m in self.methods:
            for i, cls in enumerate(out):
                if self.dominates(m, cls[0]) and self.dominates(cls[0], m):
                    out[i] = (*cls, m)
                    break
            else:
                out.append((m,))
        return out

    def table(self) -> pd.DataFrame:
        """One row per ordered pair: ``a, b, tested, witnesses, dominates``."""
        return pd.DataFrame([{"a": a, "b": b, "tested": self.tested[(a, b)],
                              "witnesses": self.witnesses[(a, b)], "dominates": self.dominates(a, b)}
                             for a in self.methods for b in self.methods if a != b])

    def matrix(self) -> pd.DataFrame:
        """Rows A, columns B: True where A dominates B."""
        return pd.DataFrame([[a == b or self.dominates(a, b) for b in self.methods] for a in self.methods],
                            index=list(self.methods), columns=list(self.methods))


def deductions(obs: Observation, methods: Iterable[str], *, use_total: bool = True
               ) -> dict[str, frozenset[Cell] | None]:
    """Every cell each method proves on ``obs`` (``None`` where the method refuses the position).

    Raises
    ------
    InconsistentPositionError
        When no layout fits the position: exact enumeration checks it first, within a node budget
        (past it a contradiction local to one block is still found; the methods are then asked, and
        one of them may still raise).
    ValueError
        When a method registered sound claims a cell that a built-in complete method among
        ``methods`` does not prove (not forced: a bug in that method), or a method fixes a
        ``use_total`` other than ``use_total`` (it would answer another question).

    Examples
    --------
    >>> d = deductions(Observation.from_text("???\\n121", mines=2), ["trivial", "subset"])
    >>> sorted(d["trivial"]), len(d["subset"])
    ([], 3)
    """
    methods = tuple(methods)
    _check_same_use_total(methods, use_total)
    has_layout(obs, use_total=use_total, time_limit=None)  # raises: an incomplete method may not see it
    claims: dict[str, tuple[frozenset[Cell], frozenset[Cell]]] = {}
    for m in methods:
        try:
            d = deduce(obs, m, use_total=use_total, check_consistency=False, **untimed(m))
        except MethodRefused:
            continue
        claims[m] = (d.safe, d.mines)
    _check_claims_forced(obs, claims)
    return {m: (claims[m][0] | claims[m][1]) if m in claims else None for m in methods}


def _check_claims_forced(obs: Observation, claims: dict[str, tuple[frozenset[Cell], frozenset[Cell]]]
                         ) -> None:
    """``ValueError`` naming a sound method that claims a cell otherwise than a built-in complete method
    among ``claims``: that claim is not forced, so it is wrong (SPEC §4: a bug in the method)."""
    unforced = unforced_claims(claims)[1]
    if unforced:
        m, wrong = next(iter(unforced.items()))
        raise MethodBugError(f"method {m!r} is registered sound but claimed {wrong} otherwise than "
                             f"the complete methods (not forced): a bug in {m!r}; position "
                             f"(mines={obs.mines}):\n{obs.to_text()}")


def unforced_claims(claims: Mapping[str, tuple[frozenset[Cell], frozenset[Cell]]]
                    ) -> tuple[str | None, dict[str, list[Cell]]]:
    """The built-in complete method among ``claims`` (method -> ``(safe, mines)`` on one position and
    total), and the cells each method registered sound claims otherwise than it: not forced, so wrong
    (SPEC §4: a bug in that method).  ``(None, {})`` when none of them is complete.

    Examples
    --------
    >>> exact, wrong, none = frozenset({(0, 1)}), frozenset({(0, 0)}), frozenset()
    >>> unforced_claims({"enumerate": (exact, none), "subset": (wrong, none), "lstsq": (wrong, none)})
    ('enumerate', {'subset': [(0, 0)]})
    """
    exact = next((m for m in claims if m in COMPLETE), None)
    if exact is None:
        return None, {}
    safe, mines = claims[exact]
    wrong = {m: sorted((s - safe) | (x - mines)) for m, (s, x) in claims.items() if METHODS[m].sound}
    return exact, {m: cells for m, cells in wrong.items() if cells}


def _check_methods(methods: Iterable[str] | None) -> tuple[str, ...]:
    if methods is None:
        return SOUND
    if isinstance(methods, str):  # one name, not its letters
        methods = (methods,)
    out = []
    for m in methods:
        info = method_info(m)
        if not info.sound:
            sound = [n for n, i in METHODS.items() if i.sound]  # registered ones too
            raise ValueError(f"method {m!r} is not sound; dominance compares sound methods: {sound}")
        out.append(info.name)
    if len(set(out)) != len(out) or len(out) < 2:
        raise ValueError(f"give two or more distinct sound methods, got {list(out)}")
    return tuple(out)


def _check_same_use_total(methods: tuple[str, ...], use_total: bool) -> None:
    """``ValueError`` for a method registered with its own ``use_total`` (a ``functools.partial``) other
    than the one the comparison runs under: it would answer another question than the others."""
    other = [m for m in methods if method_use_total(m, use_total) != use_total]
    if other:
        raise ValueError(f"method {other[0]!r} fixes use_total={not use_total}, and this comparison runs "
                         f"under use_total={use_total}: compare it with use_total={not use_total}, or leave "
                         f"it out")


def dominance(positions: Iterable[Observation], *, methods: Iterable[str] | None = None,
              use_total: bool = True, progress: bool = False) -> Dominance:
    """Test every ordered pair of methods on every position (issue 11 item 3).

    Positions with no layout are skipped; a method that refuses a position
    (``MethodRefused``) is left out of the pairs it belongs to there.

    Parameters
    ----------
    positions : iterable of Observation
        Or their text forms or code arrays (:func:`sweeplab.positions.as_observation`).
    methods : iterable of str, optional
        Sound methods (default :data:`SOUND`).
    use_total : bool
    progress : bool

    Returns
    -------
    Dominance
    """
    methods = _check_methods(methods)
    _check_same_use_total(methods, use_total)
    pairs = [(a, b) for a in methods for b in methods if a != b]
    tested = dict.fromkeys(pairs, 0)
    witnesses = dict.fromkeys(pairs, 0)
    first: dict[tuple[str, str], int] = {}
    if isinstance(positions, str | Observation) or getattr(positions, "ndim", None) == 2:  # a code array
        raise ValueError(f"positions is a list of positions, got a single one: {short_repr(positions)}; "
                         f"give [position]")
    if not isinstance(positions, Iterable):
        raise ValueError(f"positions is a list of positions, got {short_repr(positions)}; give e.g. "
                         f"[Observation.from_text('1?')] or dominance_positions(...)")
    items = [as_observation(p) for p in positions]
    if progress:
        from tqdm.auto import tqdm

        items = tqdm(items, desc="dominance", unit="position")
    n = 0
    for k, obs in enumerate(items):
        try:
            found = deductions(obs, methods, use_total=use_total)
        except InconsistentPositionError:
            continue
        n += 1
        for a, b in pairs:
            fa, fb = found[a], found[b]
            if fa is None or fb is None:
                continue
            tested[(a, b)] += 1
            if not fb <= fa:
                witnesses[(a, b)] += 1
                first.setdefault((a, b), k)
    return Dominance(methods, n, MappingProxyType(tested), MappingProxyType(witnesses),
                     MappingProxyType(first), bool(use_total))


def hasse_edges(result: Dominance) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Edges ``(stronger class, weaker class)`` of the Hasse diagram (the transitive reduction).

    Examples
    --------
    >>> from sweeplab import Observation
    >>> pos = [Observation.from_text("???\\n121", mines=2)]
    >>> d = dominance(pos, methods=("trivial", "subset", "enumerate"))
    >>> hasse_edges(d)
    [(('subset', 'enumerate'), ('trivial',))]
    """
    classes = result.classes()

    def above(x, y):  # x strictly above y
        return result.dominates(x[0], y[0]) and not result.dominates(y[0], x[0])

    edges = []
    for x, y in itertools.permutations(classes, 2):
        if above(x, y) and not any(above(x, z) and above(z, y) for z in classes if z not in (x, y)):
            edges.append((x, y))
    return edges


def dominance_positions(*, corpus: str | Path | None = "small", random: int = 0,
                        seed: int | np.random.Generator = 0, max_side: int = 6,
                        examples: bool = True) -> list[Observation]:
    """The positions dominance is tested on: the examples, a corpus and random small positions.

    Parameters
    ----------
    corpus : str or path, optional
        A preset (``"small"``: the committed ``data/corpus/corpus-small.jsonl.gz``;
        one not committed is generated from ``seed``), a corpus file, or ``None``.
    random : int
        Random positions to add (:func:`random_position`: a random layout,
        some safe cells revealed, the total known).
    seed : int or numpy.random.Generator
    max_side : int
    examples : bool, default True
        Start with every position of :mod:`sweeplab.examples`, the committed
        counterexamples among them, so that no pair a committed witness
        separates is reported as a dominance (random positions rarely hit them).

    Examples
    --------
    >>> [o.shape for o in dominance_positions(corpus=None, random=2, seed=3, examples=False)]
    [(5, 1), (4, 4)]
    """
    check_flag("examples", examples)
    random, seed = check_count("random", random), root_seed(seed)  # SPEC §3: an int or a Generator
    max_side = int(check_positive("max_side", max_side) or 0)  # never None: no meaning for None
    out: list[Observation] = []
    if examples:
        from .examples import EXAMPLES

        out.extend(ex.observation for ex in EXAMPLES.values())
    if corpus is not None:
        from .corpus import corpus_positions

        out.extend(p.obs for p in corpus_positions(corpus, seed=seed))
    rng = np.random.default_rng(seed)
    for _ in range(random):
        h, w = (int(v) for v in rng.integers(1, max_side + 1, 2))
        out.append(random_position(rng, (h, w))[0])
    return out


def random_position(rng: np.random.Generator, shape: tuple[int, int], *, total: bool = True
                    ) -> tuple[Observation, np.ndarray]:
    """A random position cut from a random layout: ``(observation, layout)``.

    Mines stay covered; each safe cell is revealed (showing its true number)
    with a probability drawn per position.
    """
    h, w = shape
    layout = rng.random((h, w)) < rng.uniform(0.1, 0.5)
    revealed = ~layout & (rng.random((h, w)) < rng.uniform(0.2, 0.9))
    return _position(layout, revealed, total), layout


def _position(layout: np.ndarray, revealed: np.ndarray, total: bool = True) -> Observation:
    grid = np.where(revealed, neighbour_counts(layout), COVERED).astype(np.int8)
    return Observation(grid, mines=int(layout.sum()) if total else None)


# ------------------------------------------------------------------------- counterexamples
@dataclass(frozen=True)
class Witness:
    """A position on which method ``b`` proves a cell that method ``a`` misses.

    Attributes
    ----------
    a, b : str
    observation : Observation
    cells : frozenset of (int, int)
        The cells ``b`` proves and ``a`` misses.
    """

    a: str
    b: str
    observation: Observation
    cells: frozenset[Cell]

    @property
    def size(self) -> tuple[int, int]:
        """``(covered cells, board area)``: smaller is better."""
        return witness_size(self.observation)


def witness_size(obs: Observation) -> tuple[int, int]:
    """``(covered cells, board area)`` of a position, the order in which witnesses are compared.

    Examples
    --------
    >>> witness_size(Observation.from_text("???\\n121"))
    (3, 6)
    """
    return int(np.count_nonzero(obs.grid == COVERED)), obs.shape[0] * obs.shape[1]


def _key(obs: Observation) -> tuple[int, int, str]:
    return (*witness_size(obs), obs.to_text())


def _missed(found, a, b) -> frozenset[Cell]:
    fa, fb = found[a], found[b]
    if fa is None or fb is None:
        return frozenset()
    return fb - fa


def _consider(best, found, obs, methods):
    forced = found.get("enumerate")
    if forced is not None and not forced:
        return
    for a in methods:
        for b in methods:
            if a == b:
                continue
            cells = _missed(found, a, b)
            if cells and ((a, b) not in best or _key(obs) < _key(best[(a, b)].observation)):
                best[(a, b)] = Witness(a, b, obs, cells)


def _tiny_positions(max_area: int, total: bool):
    """Every position of every board of at most ``max_area`` cells (each cell a mine, covered or revealed)."""
    shapes = sorted(((h, w) for h in range(1, max_area + 1) for w in range(1, max_area + 1)
                     if h * w <= max_area), key=lambda s: (s[0] * s[1], s))
    for h, w in shapes:
        for states in itertools.product((0, 1, 2), repeat=h * w):  # 0 mine, 1 covered safe, 2 revealed
            s = np.array(states).reshape(h, w)
            if (s == 2).any() and not (s == 2).all():
                yield _position(s == 0, s == 2, total), s == 0


def shrink(witness: Witness, layout: np.ndarray, *, use_total: bool = True, methods=None) -> Witness:
    """A smaller witness of the same pair, by greedy steps that keep B's win over A.

    Steps: reveal a covered safe cell of ``layout`` (its true number), or crop
    an edge row or column of the layout; each step is kept when ``b`` still
    proves a cell ``a`` misses.
    """
    a, b = witness.a, witness.b
    best, lay = witness, layout
    revealed = best.observation.grid >= 0
    improved = True
    while improved:
        improved = False
        candidates = []
        h, w = lay.shape
        for r, c in zip(*np.nonzero(~revealed & ~lay), strict=True):
            rv = revealed.copy()
            rv[r, c] = True
            candidates.append((lay, rv))
        for sl in ((slice(1, None), slice(None)), (slice(None, -1), slice(None)),
                   (slice(None), slice(1, None)), (slice(None), slice(None, -1))):
            sub_l, sub_r = lay[sl], revealed[sl]
            if sub_l.size and sub_r.any() and (~sub_r).any():
                candidates.append((sub_l, sub_r))
        for cand_l, cand_r in candidates:
            obs = _position(cand_l, cand_r, use_total)
            if _key(obs) >= _key(best.observation):
                continue
            try:
                found = deductions(obs, (a, b), use_total=use_total)
            except InconsistentPositionError:
                continue
            cells = _missed(found, a, b)
            if cells:
                best, lay, revealed = Witness(a, b, obs, cells), cand_l, cand_r
                improved = True
                break
    return best


def search_counterexamples(*, methods: Iterable[str] | None = None, seed: int | np.random.Generator = 0,
                           exhaustive_area: int = 6,
                           random: int = 2000, max_side: int = 5, use_total: bool = True,
                           progress: bool = False) -> dict[tuple[str, str], Witness]:
    """The smallest witness found for every ordered pair that is not a dominance (issue 11 item 3).

    Every position of every board of at most ``exhaustive_area`` cells is
    tried, then ``random`` random positions on boards up to ``max_side``
    (smaller boards first); each pair keeps its smallest witness (fewest
    covered cells, then smallest board, then text), which is then shrunk
    (:func:`shrink`).  Positions are cut from layouts (clues exact, total
    known when ``use_total``).

    Returns
    -------
    dict
        ``(a, b) -> Witness`` for every pair where ``b`` proved a cell ``a`` missed.

    Examples
    --------
    >>> found = search_counterexamples(methods=("trivial", "subset"), exhaustive_area=4, random=0)
    >>> w = found[("trivial", "subset")]  # with 2 mines, the pair rule sees the bottom cell is one
    >>> print(w.observation.to_text()); w.size, sorted(w.cells)
    ?
    1
    ?
    ?
    ((3, 4), [(3, 0)])
    """
    methods = _check_methods(SEARCH if methods is None else methods)
    exhaustive_area = check_count("exhaustive_area", exhaustive_area)
    random, seed = check_count("random", random), root_seed(seed)  # SPEC §3: an int or a Generator
    max_side = int(check_positive("max_side", max_side) or 0)  # never None: no meaning for None
    best: dict[tuple[str, str], Witness] = {}
    layouts: dict[str, np.ndarray] = {}
    rng = np.random.default_rng(seed)
    sizes = sorted(((h, w) for h in range(1, max_side + 1) for w in range(1, max_side + 1)),
                   key=lambda s: (s[0] * s[1], s))
    weights = np.array([1.0 / (h * w) for h, w in sizes])
    weights /= weights.sum()

    def randoms():
        for _ in range(random):
            h, w = sizes[int(rng.choice(len(sizes), p=weights))]
            yield random_position(rng, (h, w), total=use_total)

    stream: Any = itertools.chain(_tiny_positions(exhaustive_area, use_total), randoms())
    if progress:
        from tqdm.auto import tqdm

        stream = tqdm(stream, desc="counterexamples", unit="position")
    need = [m for m in methods if m != "enumerate"]
    for obs, layout in stream:
        try:
            found = deductions(obs, ("enumerate",), use_total=use_total)
            if not found["enumerate"]:
                continue
            found.update(deductions(obs, need, use_total=use_total))
        except InconsistentPositionError:
            continue
        before = {k: v.observation for k, v in best.items()}
        _consider(best, {k: v for k, v in found.items() if k in methods or k == "enumerate"}, obs,
                  methods)
        if any(before.get(k) is not v.observation for k, v in best.items()):
            layouts[obs.to_text()] = layout
    return {pair: shrink(w, layouts[w.observation.to_text()], use_total=use_total)
            for pair, w in sorted(best.items())}


def classes_from_table(table: pd.DataFrame) -> list[tuple[str, ...]]:
    """The equivalence classes of a pair table (:meth:`Dominance.table`), as :meth:`Dominance.classes`."""
    return _from_table(table).classes()


def hasse_from_table(table: pd.DataFrame) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """The Hasse edges of a pair table (:meth:`Dominance.table`), as :func:`hasse_edges`.

    Examples
    --------
    >>> table = pd.DataFrame({"a": ["x", "y"], "b": ["y", "x"], "tested": [1, 1], "witnesses": [0, 3],
    ...                       "dominates": [True, False]})
    >>> hasse_from_table(table)
    [(('x',), ('y',))]
    """
    return hasse_edges(_from_table(table))


def _from_table(table: pd.DataFrame) -> Dominance:
    methods = tuple(dict.fromkeys([*table["a"], *table["b"]]))
    pairs = list(zip(table["a"], table["b"], strict=True))
    tested = dict(zip(pairs, table["tested"].astype(int), strict=True))
    witnesses = dict(zip(pairs, table["witnesses"].astype(int), strict=True))
    return Dominance(methods, 0, MappingProxyType(tested), MappingProxyType(witnesses), MappingProxyType({}))


def counterexamples() -> MappingProxyType:
    """The committed smallest counterexamples, by pair ``(a, b)``: examples on which b proves a cell a misses.

    Read from :data:`sweeplab.examples.COUNTEREXAMPLES`; ``"enumerate"`` there stands for every
    complete method, so ``milp`` and ``brute`` get its examples too.

    Examples
    --------
    >>> ce = counterexamples()
    >>> print(ce[("trivial", "subset")].observation.to_text())
    ?
    1
    ?
    ?
    >>> ce[("rref", "milp")] is ce[("rref", "enumerate")]
    True
    """
    from .examples import COUNTEREXAMPLES, EXAMPLES

    out = {}
    for (a, b), name in COUNTEREXAMPLES.items():
        for bb in (COMPLETE if b in COMPLETE else (b,)):
            out[(a, bb)] = EXAMPLES[name]
    return MappingProxyType(out)


def summary_rows(result: Dominance) -> pd.DataFrame:
    """The pair table with the size (covered cells, area) of each committed smallest witness.

    The committed witnesses were searched with the total, so without it (``result.use_total`` false)
    the size columns are empty.
    """
    table = result.table()
    ce = counterexamples() if result.use_total else {}
    size = [witness_size(ce[(a, b)].observation) if (a, b) in ce else (math.nan, math.nan)
            for a, b in zip(table["a"], table["b"], strict=True)]
    table["witness_covered"] = [s[0] for s in size]
    table["witness_area"] = [s[1] for s in size]
    return table
