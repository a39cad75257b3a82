"""A catalogue of hand-made positions: the seed reports' boards, classic patterns, counterexamples.

Each :class:`Example` carries its position, the report (or pattern) it comes
from, and its complete answer: every cell forced safe or forced a mine (with
the total when the position knows it), as an exact solver finds it.  Tests
check every method against these answers; notebooks draw them.

Examples
--------
>>> from sweeplab.examples import EXAMPLES
>>> ex = EXAMPLES["001-abc"]
>>> print(ex.observation.to_text())
????
-12-
>>> sorted(ex.safe), sorted(ex.mines)
([(0, 0)], [(0, 3)])
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from .positions import Observation

__all__ = ["EXAMPLES", "Example", "COUNTEREXAMPLES"]

Cell = tuple[int, int]


@dataclass(frozen=True)
class Example:
    """A named position with its source and its complete answer.

    Attributes
    ----------
    name : str
    observation : Observation
    source : str
        The seed report section (or the pattern) it reproduces.
    description : str
        What it shows.
    safe, mines : frozenset of (int, int)
        Every cell the position forces safe, and every cell it forces to be a mine.
    """

    name: str
    observation: Observation
    source: str
    description: str
    safe: frozenset[Cell]
    mines: frozenset[Cell]


def _board(size: tuple[int, int], cells: dict[Cell, str]) -> str:
    """Text of a board, covered everywhere except ``cells`` (``(row, col) -> character``)."""
    h, w = size
    return "\n".join("".join(cells.get((r, c), "?") for c in range(w)) for r in range(h))


def _example(name, text, source, description, safe=(), mines=(), *, total=None, noise=None) -> Example:
    obs = Observation.from_text(text, mines=total, noise=noise)
    return Example(name, obs, source, description, frozenset(safe), frozenset(mines))


_CATALOGUE = [
    _example(
        "002-one-two",
        "????????\n?211221?",
        "report 002, Algorithm 1, first board",
        "the classic 1-2 combination; one RREF pass with the row bound rule finds v2, v5 (mines) and "
        "v3, v7, v8, v10 (safe), and substituting gives the rest, as the report works it out",
        safe=[(0, 2), (0, 3), (0, 6), (0, 7), (1, 7)],
        mines=[(0, 1), (0, 4), (0, 5)],
    ),
    _example(
        "002-one-one-two-two",
        "??????\n?1122?",
        "report 002, Algorithm 1, second board",
        "RREF row v2 - v5 = -1 gives v2 = 0 and v5 = 1, 'and this is basically all we know'; "
        "its row v3 - v6 - v8 = 0 shows that report 003's Algorithm B, read literally (right side 0: "
        "every variable 0), would wrongly call three cells safe",
        safe=[(0, 1)],
        mines=[(0, 4)],
    ),
    _example(
        "000-a-g",
        _board((16, 16), {(0, 0): ".", (0, 1): ".", (0, 2): ".", (0, 3): "1",
                          (1, 0): "1", (1, 1): "1", (1, 2): "1", (1, 3): "1"}),
        "report 000, §2.4.1 (the a-g CSP example, 16x16 with 40 mines)",
        "constraints C1-C5 give g = 0, f = 1, e = d = c = 0 and leave a + b = 1",
        safe=[(2, 0), (2, 2), (2, 3), (2, 4)],
        mines=[(2, 1)],
        total=40,
    ),
    _example(
        "000-many-solutions",
        _board((16, 16), {(1, 1): "3", (4, 6): "2", (7, 2): "1"}),
        "report 000, §4.4.1 (a board with more than 10,000 solutions)",
        "three isolated clues 3, 2 and 1 with eight covered neighbours each: "
        "C(8,3) C(8,2) C(8,1) = 12,544 frontier solutions and no forced cell",
        total=40,
    ),
    _example(
        "001-abc",
        "????\n-12-",
        "report 001, Inference (A+B+C = 1, A+C+D = 2)",
        "top row B A C D; the knowledge base of report 001 'cannot deduce that D - B = 1 and therefore "
        "D = 1 and B = 0'; the pair rule can (revealed cells without a number keep the equations exact)",
        safe=[(0, 0)],
        mines=[(0, 3)],
        noise="lost",
    ),
    _example(
        "001-abc-mine",
        "?F?\n-1-",
        "report 001, Inference (A+B+C = 1 with A a mine)",
        "adding 'A = 1' to A+B+C = 1 shows B and C safe",
        safe=[(0, 0), (0, 2)],
        noise="lost",
    ),
    _example(
        "one-two-one",
        "???\n121",
        "classic pattern 1-2-1 along a wall",
        "mines under both 1s, the cell under the 2 safe",
        safe=[(0, 1)],
        mines=[(0, 0), (0, 2)],
    ),
    _example(
        "one-two-two-one",
        "????\n1221",
        "classic pattern 1-2-2-1 along a wall",
        "mines under both 2s, the cells under the 1s safe",
        safe=[(0, 0), (0, 3)],
        mines=[(0, 1), (0, 2)],
    ),
    _example(
        "fifty-fifty",
        "??\n11\n..",
        "classic 50/50 (report 000 §2.2.4: 'more than one possible permutation')",
        "two cells, one mine, nothing to tell them apart: no forced cell, a guess is needed",
        total=1,
    ),
    _example(
        "rref-one-pass-misses",
        "????\nF11?",
        "counterexample to one RREF pass (report 002 Algorithm 1, report 003 Algorithm B)",
        "the clues read x0 + x1 + x2 = 0 and x1 + x2 + x3 + x4 = 1 (x4 is the covered cell at the "
        "right end of the clue row); the RREF rows x0 - x3 - x4 = -1 and x1 + x2 + x3 + x4 = 1 reach "
        "no bound, so one pass of rref finds nothing, while the single-clue rule sees three safe cells",
        safe=[(0, 0), (0, 1), (0, 2)],
    ),
    _example(
        "lstsq-wrong-claim",
        "?1?\n??2\n???",
        "report 000 §3.1 (least squares), a position where it is wrong",
        "the minimum-norm solution is exactly 0 on (0, 0) and (1, 0), which lstsq claims safe, "
        "yet either can hold the 1's mine; no cell is forced",
    ),
    _example(
        "subset-beats-rref",
        "13?\n???\n?3?",
        "method separator (found on random small boards): pair rule vs one RREF",
        "the 1 and the top 3 read x10 + x11 = 1 and x02 + x10 + x11 + x12 = 3; their difference "
        "x02 + x12 = 2 makes two mines, but it is not a row of the RREF (the column order pivots on "
        "x02 and mixes in the bottom 3), so rref, rref with iterate and bounded all miss it",
        mines=[(0, 2), (1, 2)],
    ),
    _example(
        "rref-beats-subset",
        "?1.\n?21\n???",
        "method separator (found on random small boards): three rows at once",
        "x00 + x10 = 1, x00 + x10 + x20 + x21 + x22 = 2 and x21 + x22 = 1: only all three together "
        "give x20 = 0, which the RREF shows as a row and no pair of clues does",
        safe=[(2, 0)],
    ),
    _example(
        "gfp-beats-rref",
        "?1?\n1?1\n??2\n1??",
        "method separator (found on random small boards): GF(7) vs the rationals",
        "no rational RREF row reaches a bound, but the GF(7) rows, read with residues nearest 0, "
        "do for five cells; bounds propagation over the RREF and original rows (bounded) solves "
        "the whole position",
        safe=[(0, 0), (0, 2), (2, 0), (2, 1), (3, 2)],
        mines=[(1, 1), (3, 1)],
    ),
    _example(
        "rref-beats-gfp",
        "2???\n??1?\n????",
        "method separator (found on random small boards): the rationals vs GF(7)",
        "the RREF row x02 + x03 - x10 + x13 + x21 + x22 + x23 = -1 sits at its lower bound and "
        "decides seven cells; modulo 7 the totals -1 and 6 both fit, so gfp and gf2 see nothing",
        safe=[(0, 2), (0, 3), (1, 3), (2, 1), (2, 2), (2, 3)],
        mines=[(1, 0)],
    ),
    _example(
        "gf2-beats-certified",
        "?3?\n??1\n3?1\n?1?",
        "method separator (found on random small boards): parity vs determined cells",
        "no cell is determined over the rationals, and the RREF row x00 + 2 x32 = 1 reaches no "
        "bound (its range is 0..3), but modulo 2 it reads x00 = 1: gf2 proves a mine that "
        "lstsq-certified and one rref pass cannot (bounds propagation, in bounded, sees it too)",
        safe=[(0, 2), (2, 1), (3, 2)],
        mines=[(0, 0), (1, 0), (1, 1), (3, 0)],
    ),
    _example(
        "lp-needs-integrality",
        "?1?\n2?1\n???",
        "report 000 §2.4 (the CSP), relaxed: a deduction the LP relaxation misses",
        "with a, b = (0, 0), (0, 2), c = (1, 1) and d, e, f the bottom row, the clues read "
        "a + b + c = 1, a + c + d + e = 2, b + c + e + f = 1; b = 1 would force a = c = e = 0 and "
        "d = 2, so b is safe, but a = b = e = 1/2, d = 1 fits the relaxation, whose maximum of b is "
        "1/2: the lp method finds nothing (found with the test oracle)",
        safe=[(0, 2)],
    ),
    _example(
        "proof-needs-total",
        "?1--\n11--\n---?\n---?",
        "issue 10 (proofs): a proof that needs the total",
        "the three clues 1 force the mine (0,0); the cells (2,3) and (3,3) touch no clue, so only the "
        "total row (1 mine on the board) can speak of them: the total minus clue (0,1) leaves "
        "x(2,3) + x(3,3) = 0, both safe; without the total nothing proves them",
        safe=[(2, 3), (3, 3)],
        mines=[(0, 0)],
        total=1,
    ),
    _example(
        "proof-lp-only",
        "?3?\n2??\n?4?\n?3?",
        "issue 10 (proofs): a single linear step only the LP relaxation finds (found on random small boards)",
        "clue (0,1) - clue (2,1) + clue (3,1) reads x(0,0) + x(0,2) = 2: two mines, in one combining "
        "step of three rows; the LP's dual certificate is that step, while the rows of one RREF pass, "
        "pairs of clues (subset), bounds propagation and GF(2)/GF(7) reduction all miss it",
        mines=[(0, 0), (0, 2)],
    ),
]

# Smallest counterexamples to dominance between the sound methods (issue 11 item 3; sweeplab.dominance):
# B proves a cell that A misses.  Found by sweeplab.dominance.search_counterexamples (every position of
# every board of at most 9 cells, 6,000 random positions up to 5x5, then shrunk), with the total known;
# fewest covered cells first, then the smallest board.  One position often separates several pairs.
_SEARCH = ("sweeplab.dominance.search_counterexamples (smallest witness found: all boards of <= 9 cells, "
           "6,000 random ones up to 5x5, shrunk)")
_CATALOGUE += [
    _example(
        "smallest-rref-beats-bounded",
        ".??2\n?3??\n?3?3\n?4??\n?2??",
        _SEARCH,
        "13 covered cells on 5x4, 7 mines in all: gfp and rref prove (2, 0), (2, 2), which bounded misses",
        safe=[(0, 1), (1, 0)],
        mines=[(1, 3), (2, 0), (2, 2)],
        total=7,
    ),
    _example(
        "smallest-subset-beats-bounded",
        "1??\n?2?\n?2?",
        _SEARCH,
        "6 covered cells on 3x3, 2 mines in all: enumerate, lp and subset prove (0, 1), (0, 2), (1, 0), "
        "which bounded misses",
        safe=[(0, 1), (0, 2)],
        mines=[(1, 0)],
        total=2,
    ),
    _example(
        "smallest-trivial-beats-rref",
        "?\n.\n?\n.\n?\n?",
        _SEARCH,
        "4 covered cells on 6x1, 1 mine in all: bounded, enumerate, lp, subset and trivial prove (0, 0), "
        "(4, 0), which gfp and rref miss",
        safe=[(0, 0), (2, 0), (4, 0)],
        mines=[(5, 0)],
        total=1,
    ),
    _example(
        "smallest-subset-beats-trivial",
        "?\n1\n?\n?",
        _SEARCH,
        "3 covered cells on 4x1, 2 mines in all: bounded, enumerate, gf2, gfp, lp, lstsq-certified, rref "
        "and subset prove (3, 0), which trivial misses",
        mines=[(3, 0)],
        total=2,
    ),
    _example(
        "smallest-rref-beats-subset",
        "?\n1\n?\n?\n1\n?\n?",
        _SEARCH,
        "5 covered cells on 7x1, 3 mines in all: bounded, enumerate, gf2, gfp, lp, lstsq-certified and "
        "rref prove (6, 0), which subset misses",
        mines=[(6, 0)],
        total=3,
    ),
    _example(
        "smallest-trivial-beats-gf2",
        "?\n?",
        _SEARCH,
        "2 covered cells on 2x1, 0 mines in all: bounded, enumerate, gfp, lp, rref, subset and trivial "
        "prove (0, 0), (1, 0), which gf2 and lstsq-certified miss",
        safe=[(0, 0), (1, 0)],
        total=0,
    ),
    _example(
        "smallest-gf2-beats-lstsq-certified",
        "?1?\n.??\n1?.\n?1?",
        _SEARCH,
        "7 covered cells on 4x3, 2 mines in all: gf2 proves (0, 2), which lstsq-certified misses",
        safe=[(0, 0), (1, 1), (1, 2), (2, 1), (3, 2)],
        mines=[(0, 2), (3, 0)],
        total=2,
    ),
    _example(
        "lstsq-certified-beats-gf2",
        ".??1\n?332\n1???\n13?2\n?11?",
        "sweeplab.dominance.search_counterexamples (3,000 random positions up to 7x7, seed 1, shrunk; none "
        "among the boards and positions of _SEARCH)",
        "9 covered cells on 5x4, 4 mines in all: lstsq-certified (and rref, gfp) proves every cell, gf2 only "
        "the mine (0, 2); the clue combinations that fix the others need a half, which GF(2) has not",
        safe=[(0, 1), (1, 0), (2, 3), (4, 0), (4, 3)],
        mines=[(0, 2), (2, 1), (2, 2), (3, 2)],
        total=4,
    ),
    _example(
        "gf2-beats-bounded",
        "111.1?\n??3??2\n3????1\n??5432\n2????1",
        "an adversarial search on random positions of 5x5 to 10x10 without the total (session 37, seed "
        "3701: 4 witnesses in 156,487 positions, each shrunk by sweeplab.dominance.shrink; this the "
        "smallest); none among the boards and positions of _SEARCH",
        "15 covered cells on 5x6, total unknown: gf2 proves the mine (3, 1) in one step mod 2 over six "
        "clues (a parity argument, not a bound), which bounds propagation misses",
        safe=[(1, 0), (1, 3), (1, 4), (3, 0)],
        mines=[(0, 5), (1, 1), (2, 1), (2, 4), (3, 1), (4, 1), (4, 4)],
    ),
    _example(
        "smallest-gf2-beats-rref",
        "?1?.?\n?1?.?\n11111\n.???1",
        _SEARCH,
        "9 covered cells on 4x5, 2 mines in all: gf2 proves (0, 2), which gfp and rref miss",
        safe=[(0, 0), (0, 2), (0, 4), (1, 2), (1, 4), (3, 1), (3, 2)],
        mines=[(1, 0), (3, 3)],
        total=2,
    ),
    _example(
        "smallest-enumerate-beats-lp",
        "??1\n??1\n1?1\n?1?",
        _SEARCH,
        "7 covered cells on 4x3, 3 mines in all: enumerate proves (0, 0), (0, 1), (1, 0), (1, 1), (3, 0),"
        " (3, 2), which lp misses",
        safe=[(0, 0), (1, 1), (2, 1), (3, 0)],
        mines=[(0, 1), (1, 0), (3, 2)],
        total=3,
    ),
    _example(
        "smallest-bounded-beats-lp",
        "???\n3??\n??1\n1?1\n?1?",
        _SEARCH,
        "10 covered cells on 5x3, 4 mines in all: bounded proves (1, 1), (2, 0), (2, 1), (3, 1), (4, 0), "
        "(4, 2), which lp misses",
        safe=[(0, 2), (1, 2), (2, 1), (3, 1), (4, 0)],
        mines=[(1, 1), (2, 0), (4, 2)],
        total=4,
    ),
    _example(
        "smallest-rref-beats-gfp",
        "????\n????",
        _SEARCH,
        "8 covered cells on 2x4, 8 mines in all: rref proves (0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, "
        "1), (1, 2), (1, 3), which gfp misses",
        mines=[(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3)],
        total=8,
    ),
]

#: The smallest counterexample found to "A dominates B", by pair ``(A, B)``: the name of an example on
#: which B proves a cell A misses (``"enumerate"`` stands for every complete method).  Pairs absent
#: here dominate on every tested position (:mod:`sweeplab.dominance`, report section 014).
COUNTEREXAMPLES: MappingProxyType[tuple[str, str], str] = MappingProxyType({
    ("bounded", "enumerate"): "smallest-subset-beats-bounded",
    ("bounded", "gf2"): "gf2-beats-bounded",
    ("bounded", "gfp"): "smallest-rref-beats-bounded",
    ("bounded", "lp"): "smallest-subset-beats-bounded",
    ("bounded", "rref"): "smallest-rref-beats-bounded",
    ("bounded", "subset"): "smallest-subset-beats-bounded",
    ("gf2", "bounded"): "smallest-trivial-beats-gf2",
    ("gf2", "enumerate"): "smallest-trivial-beats-gf2",
    ("gf2", "gfp"): "smallest-trivial-beats-gf2",
    ("gf2", "lp"): "smallest-trivial-beats-gf2",
    ("gf2", "lstsq-certified"): "lstsq-certified-beats-gf2",
    ("gf2", "rref"): "smallest-trivial-beats-gf2",
    ("gf2", "subset"): "smallest-trivial-beats-gf2",
    ("gf2", "trivial"): "smallest-trivial-beats-gf2",
    ("gfp", "bounded"): "smallest-trivial-beats-rref",
    ("gfp", "enumerate"): "smallest-trivial-beats-rref",
    ("gfp", "gf2"): "smallest-gf2-beats-rref",
    ("gfp", "lp"): "smallest-trivial-beats-rref",
    ("gfp", "rref"): "smallest-rref-beats-gfp",
    ("gfp", "subset"): "smallest-trivial-beats-rref",
    ("gfp", "trivial"): "smallest-trivial-beats-rref",
    ("lp", "bounded"): "smallest-bounded-beats-lp",
    ("lp", "enumerate"): "smallest-enumerate-beats-lp",
    ("lp", "gf2"): "gfp-beats-rref",
    ("lp", "gfp"): "gfp-beats-rref",
    ("lstsq-certified", "bounded"): "smallest-trivial-beats-gf2",
    ("lstsq-certified", "enumerate"): "smallest-trivial-beats-gf2",
    ("lstsq-certified", "gf2"): "smallest-gf2-beats-lstsq-certified",
    ("lstsq-certified", "gfp"): "smallest-trivial-beats-gf2",
    ("lstsq-certified", "lp"): "smallest-trivial-beats-gf2",
    ("lstsq-certified", "rref"): "smallest-trivial-beats-gf2",
    ("lstsq-certified", "subset"): "smallest-trivial-beats-gf2",
    ("lstsq-certified", "trivial"): "smallest-trivial-beats-gf2",
    ("rref", "bounded"): "smallest-trivial-beats-rref",
    ("rref", "enumerate"): "smallest-trivial-beats-rref",
    ("rref", "gf2"): "smallest-gf2-beats-rref",
    ("rref", "gfp"): "gfp-beats-rref",
    ("rref", "lp"): "smallest-trivial-beats-rref",
    ("rref", "subset"): "smallest-trivial-beats-rref",
    ("rref", "trivial"): "smallest-trivial-beats-rref",
    ("subset", "bounded"): "smallest-rref-beats-subset",
    ("subset", "enumerate"): "smallest-rref-beats-subset",
    ("subset", "gf2"): "smallest-rref-beats-subset",
    ("subset", "gfp"): "smallest-rref-beats-subset",
    ("subset", "lp"): "smallest-rref-beats-subset",
    ("subset", "lstsq-certified"): "smallest-rref-beats-subset",
    ("subset", "rref"): "smallest-rref-beats-subset",
    ("trivial", "bounded"): "smallest-subset-beats-trivial",
    ("trivial", "enumerate"): "smallest-subset-beats-trivial",
    ("trivial", "gf2"): "smallest-subset-beats-trivial",
    ("trivial", "gfp"): "smallest-subset-beats-trivial",
    ("trivial", "lp"): "smallest-subset-beats-trivial",
    ("trivial", "lstsq-certified"): "smallest-subset-beats-trivial",
    ("trivial", "rref"): "smallest-subset-beats-trivial",
    ("trivial", "subset"): "smallest-subset-beats-trivial",
})


#: Read-only mapping from name to :class:`Example`.
EXAMPLES: MappingProxyType[str, Example] = MappingProxyType({ex.name: ex for ex in _CATALOGUE})
