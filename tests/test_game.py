"""The game engine (SPEC §3) against small independent references written here."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sweeplab import COVERED, FLAG, LEVELS, MINE, NOCLUE, Game, new_game
from sweeplab.game import resolve_board

# --- independent references -------------------------------------------------------


def neighbours(shape, r, c):
    h, w = shape
    return [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if (dr or dc) and 0 <= r + dr < h and 0 <= c + dc < w]


def ref_counts(layout):
    """Neighbour mine counts by plain loops."""
    layout = np.asarray(layout, dtype=bool)
    out = np.zeros(layout.shape, dtype=int)
    for r in range(layout.shape[0]):
        for c in range(layout.shape[1]):
            out[r, c] = sum(layout[n] for n in neighbours(layout.shape, r, c))
    return out


def ref_flood(layout, state, start):
    """Cells a reveal of ``start`` opens: the textbook recursive flood fill.

    ``state`` maps cells to "covered", "flag" or "open".  The flood reveals a
    covered cell and, if it shows 0, every covered neighbour, recursively.
    """
    counts = ref_counts(layout)
    opened, stack = set(), [start]
    while stack:
        cell = stack.pop()
        if cell in opened or state[cell] != "covered":
            continue
        opened.add(cell)
        if not layout[cell] and counts[cell] == 0:
            stack.extend(neighbours(layout.shape, *cell))
    return opened


layouts = st.tuples(st.integers(1, 10), st.integers(1, 12), st.floats(0, 0.5), st.integers(0, 2**32 - 1)).map(
    lambda t: np.random.default_rng(t[3]).random((t[0], t[1])) < t[2]
)


def cells_of(mask):
    return {(int(r), int(c)) for r, c in np.argwhere(mask)}


# --- numbers and flood fill ------------------------------------------------------


@given(layouts)
def test_clue_numbers_equal_neighbour_counts(layout):
    game = Game.from_layout(layout, mode="score")
    truth = ref_counts(layout)
    assert np.array_equal(game.shown, truth)
    for r, c in np.argwhere(~layout):
        if game.status == "playing":
            game.reveal(int(r), int(c))
    grid = game.observation.grid
    assert game.status == "won"
    assert np.array_equal(grid[~layout], truth[~layout])
    assert (grid[layout] == COVERED).all()


@given(layouts, st.integers(0, 2**32 - 1))
def test_reveal_opens_exactly_the_flood_fill(layout, seed):
    """Random clicks and flags; every reveal opens exactly what the reference flood opens."""
    rng = np.random.default_rng(seed)
    game = Game.from_layout(layout, mode="score")
    state = {(r, c): "covered" for r in range(layout.shape[0]) for c in range(layout.shape[1])}
    for _ in range(30):
        if game.status != "playing":
            break
        r, c = (int(x) for x in rng.integers(0, layout.shape))
        if rng.random() < 0.2 and state[r, c] in ("covered", "flag"):
            if state[r, c] == "covered":
                game.flag(r, c)
                state[r, c] = "flag"
            else:
                game.unflag(r, c)
                state[r, c] = "covered"
            continue
        if state[r, c] == "flag":
            with pytest.raises(ValueError, match="flagged"):
                game.reveal(r, c)
            continue
        before = game.observation.grid
        expected = ref_flood(layout, state, (r, c))
        n = game.reveal(r, c)
        after = game.observation.grid
        assert cells_of(after != before) == expected
        assert n == len(expected)
        for cell in expected:
            state[cell] = "open"
            assert after[cell] == (MINE if layout[cell] else ref_counts(layout)[cell])


def test_flood_fill_on_a_known_board():
    layout = np.zeros((5, 6), dtype=bool)
    layout[0, 5] = layout[4, 0] = True
    game = Game.from_layout(layout)
    assert game.reveal(0, 0) == 28
    assert game.status == "won"
    assert game.observation.to_text() == "....1?\n....11\n......\n11....\n?1...."


def test_a_flag_stops_the_flood():
    """A (wrong) flag on a zero cell is neither opened nor crossed, as in the classic game."""
    layout = np.zeros((1, 7), dtype=bool)
    game = Game.from_layout(layout)
    game.flag(0, 3)
    assert game.reveal(0, 0) == 3
    assert game.observation.to_text() == "...F???"
    game.unflag(0, 3)
    assert game.reveal(0, 3) == 4
    assert game.status == "won"


@pytest.mark.parametrize("level", list(LEVELS))
def test_presets(level):
    game = new_game(level, seed=0)
    lv = LEVELS[level]
    assert game.shape == (lv.height, lv.width) and game.n_mines == lv.mines
    game.reveal(0, 0)
    assert int(game.layout.sum()) == lv.mines
    assert game.observation.mines == lv.mines


def test_presets_match_the_spec():
    assert {k: (v.height, v.width, v.mines) for k, v in LEVELS.items()} == {
        "beginner": (9, 9, 10), "intermediate": (16, 16, 40), "expert": (16, 30, 99)}
    assert resolve_board(shape=(10, 20), density=0.25) == ((10, 20), 50)
    assert resolve_board(shape=(4, 4), mines=3) == ((4, 4), 3)


# --- first-click rules --------------------------------------------------------------


def test_first_click_safe_over_thousands_of_seeds():
    for seed in range(3000):
        game = new_game(shape=(4, 5), mines=12, first_click="safe", seed=seed)
        r, c = seed % 4, (seed // 4) % 5
        game.reveal(r, c)
        assert not game.layout[r, c]
        assert int(game.layout.sum()) == 12 and game.status != "lost"


def test_first_click_zero_over_thousands_of_seeds():
    for seed in range(3000):
        game = new_game(shape=(5, 6), mines=15, first_click="zero", seed=seed)
        r, c = seed % 5, (seed // 5) % 6
        n = game.reveal(r, c)
        area = [(r, c), *neighbours((5, 6), r, c)]
        assert not any(game.layout[x] for x in area)
        assert int(game.layout.sum()) == 15
        assert n >= len(area) and game.observation.grid[r, c] == 0


def test_first_click_none_can_hit_a_mine():
    lost = 0
    for seed in range(2000):
        game = new_game(shape=(3, 3), mines=3, first_click="none", seed=seed)
        assert game.layout is not None and int(game.layout.sum()) == 3  # placed before any click
        game.reveal(1, 1)
        lost += game.status == "lost"
    assert 550 < lost < 780  # expected 2000 * 3/9 = 667, sd 21


def test_safe_first_click_moves_the_mine_uniformly():
    """2x2 board, 1 mine, click (0, 0): the mine is equally likely in each other cell."""
    where = np.zeros(4, dtype=int)
    for seed in range(3000):
        game = new_game(shape=(2, 2), mines=1, first_click="safe", seed=seed)
        game.reveal(0, 0)
        where += game.layout.ravel()
    assert where[0] == 0
    assert all(880 < x < 1120 for x in where[1:])  # 1000 each, sd 26


def test_zero_first_click_that_cannot_fit():
    with pytest.raises(ValueError, match="zero first click cannot fit"):
        new_game(shape=(3, 3), mines=6, first_click="zero", seed=1)
    with pytest.raises(ValueError, match="safe first click"):
        new_game(shape=(2, 2), mines=4, first_click="safe", seed=1)
    game = new_game(shape=(3, 3), mines=5, first_click="zero", seed=1)
    with pytest.raises(ValueError, match=r"cannot fit here.*outside the 9 cells"):
        game.reveal(1, 1)  # the centre keeps all 9 cells free
    assert game.status == "playing" and game.moves == [] and game.layout is None
    assert game.reveal(0, 0) == 4  # a corner keeps 4 free: it fits
    assert game.observation.to_text() == ".2?\n25?\n???"


def test_flag_before_the_first_reveal_is_allowed():
    game = new_game("beginner", first_click="safe", seed=5)
    game.flag(0, 0)
    assert game.layout is None and game.observation.grid[0, 0] == FLAG
    game.reveal(4, 4)
    assert not game.layout[4, 4]


# --- seeds and determinism --------------------------------------------------------------


@given(st.integers(0, 2**63), st.sampled_from(["none", "safe", "zero"]))
def test_same_seed_same_game(seed, first_click):
    games = [new_game("intermediate", first_click=first_click, noise=("under", 0.3), seed=seed)
             for _ in range(2)]
    for g in games:
        g.reveal(7, 7)
    assert np.array_equal(games[0].layout, games[1].layout)
    assert np.array_equal(games[0].shown, games[1].shown)
    assert games[0].observation == games[1].observation


def test_seed_kinds():
    a = new_game("expert", first_click="none", seed=np.random.SeedSequence(11))
    b = new_game("expert", first_click="none", seed=np.random.default_rng(np.random.SeedSequence(11)))
    c = new_game("expert", first_click="none", seed=11)
    assert np.array_equal(a.layout, b.layout) and np.array_equal(a.layout, c.layout)
    d = new_game("expert", first_click="none", seed=12)
    assert not np.array_equal(a.layout, d.layout)


def test_none_and_safe_share_the_layout_unless_the_click_hits_a_mine():
    for seed in range(50):
        none = new_game("beginner", first_click="none", seed=seed)
        safe = new_game("beginner", first_click="safe", seed=seed)
        safe.reveal(0, 0)
        assert np.array_equal(none.layout, safe.layout) != bool(none.layout[0, 0])


# Exact layouts for fixed seeds: a change in NumPy's streams or in the placement shows here.
PINNED_BEGINNER_2024 = [(0, 5), (1, 2), (2, 0), (3, 6), (5, 6), (6, 2), (6, 6), (6, 7), (8, 3), (8, 4)]
PINNED_INTERMEDIATE_ZERO_2024 = """
..*.*..*...*....
...........*..*.
................
.***..*......*..
...*......*.....
*..***........*.
............*...
................
.*..*.....*.....
.*...........*..
...*.....*......
...*....*.*.....
.....*......*...
..........*..*..
......*..*......
...*...**..*.*..
"""
PINNED_UNDER_7 = (  # layout, then the numbers shown under "under" noise with p = 0.5
    [[1, 0, 0, 0, 1, 0, 0], [0, 0, 1, 1, 0, 0, 0], [0, 0, 0, 1, 0, 1, 0], [0, 0, 0, 1, 0, 0, 0], [0] * 7],
    [[0, 2, 2, 3, 0, 0, 0], [1, 2, 2, 1, 4, 2, 0], [0, 1, 4, 3, 4, 0, 1], [0, 0, 2, 1, 3, 0, 0],
     [0, 0, 1, 0, 1, 0, 0]],
)


def test_pinned_layouts():
    g = new_game("beginner", first_click="none", seed=2024)
    assert sorted(cells_of(g.layout)) == PINNED_BEGINNER_2024
    g = new_game("beginner", first_click="safe", seed=2024)
    g.reveal(0, 0)
    assert sorted(cells_of(g.layout)) == PINNED_BEGINNER_2024
    g = new_game("intermediate", first_click="zero", seed=2024)
    g.reveal(8, 8)
    text = "\n".join("".join(".*"[int(m)] for m in row) for row in g.layout)
    assert text == PINNED_INTERMEDIATE_ZERO_2024.strip()
    g = new_game(shape=(5, 7), density=0.2, noise=("under", 0.5), first_click="none", seed=7)
    assert g.layout.astype(int).tolist() == PINNED_UNDER_7[0]
    assert g.shown.tolist() == PINNED_UNDER_7[1]


# --- modes, status and score -------------------------------------------------------------------


def test_classic_mode_ends_on_a_mine():
    game = Game.from_layout([[1, 0], [0, 0]])
    assert game.reveal(0, 0) == 1
    assert game.status == "lost" and game.observation.grid[0, 0] == MINE
    with pytest.raises(ValueError, match="game is over"):
        game.reveal(1, 1)
    with pytest.raises(ValueError, match="game is over"):
        game.flag(1, 1)


def test_score_mode_counts():
    layout = np.array([[1, 0, 0, 1], [0, 0, 0, 0], [1, 0, 0, 1]], dtype=bool)
    game = Game.from_layout(layout, mode="score")
    assert game.score == 1.0 and game.mines_hit == 0
    game.reveal(0, 0)
    assert game.status == "playing" and game.mines_hit == 1 and game.score == 0.75
    game.flag(0, 3)
    game.reveal(2, 3)
    assert game.mines_hit == 2 and game.score == 0.5
    assert game.observation.to_text() == "*??F\n????\n???*"
    assert game.observation.known_mines == 3
    for r, c in np.argwhere(~layout):
        assert game.status == "playing"
        game.reveal(int(r), int(c))
    assert game.status == "won" and game.score == 0.5 and game.revealed_fraction == 1.0
    with pytest.raises(ValueError, match="game is over"):
        game.reveal(2, 0)


@given(layouts, st.integers(0, 2**32 - 1))
def test_score_mode_matches_a_count(layout, seed):
    game = Game.from_layout(layout, mode="score")
    order = np.random.default_rng(seed).permutation(layout.size)
    hit = 0
    for i in order:
        if game.status != "playing":
            break
        r, c = divmod(int(i), layout.shape[1])
        if game.observation.grid[r, c] == COVERED:
            hit += bool(layout[r, c])
            game.reveal(r, c)
            assert game.mines_hit == hit
    assert game.status == "won"
    n = int(layout.sum())
    assert game.score == (1.0 if n == 0 else 1 - hit / n)


def test_moves_and_return_values():
    game = Game.from_layout([[0, 0, 1, 0]])
    assert game.reveal(0, 0) == 2
    assert game.reveal(0, 0) == 0  # already revealed: nothing new, no move recorded
    game.flag(0, 2)
    game.flag(0, 2)  # already flagged: no effect
    with pytest.raises(ValueError, match="revealed"):
        game.flag(0, 1)
    with pytest.raises(ValueError, match="not flagged"):
        game.unflag(0, 1)
    assert game.status == "playing" and game.revealed_fraction == 2 / 3
    assert game.reveal(0, 3) == 1
    assert game.moves == [("reveal", 0, 0), ("flag", 0, 2), ("reveal", 0, 3)]
    assert game.status == "won"  # every safe cell revealed, the flag stays
    assert "won" in repr(game)


def test_all_mines_board_is_won_at_once():
    assert Game.from_layout([[1, 1]]).status == "won"


# --- the observation --------------------------------------------------------------------


def test_observation_is_a_cached_read_only_snapshot():
    game = new_game("beginner", seed=3)
    first = game.observation
    assert game.observation is first  # no move: the same snapshot
    game.reveal(4, 4)
    second = game.observation
    assert second is not first and (first.grid == COVERED).all()
    with pytest.raises(ValueError):
        second.grid[0, 0] = 0
    assert second.mines == 10 and second.noise is None
    game.flag(*map(int, np.argwhere(second.grid == COVERED)[0]))
    assert game.observation is not second


# --- noise ---------------------------------------------------------------------------------


@given(st.sampled_from(["lost", "under", "over"]), st.floats(0, 1), st.integers(0, 2**32 - 1))
def test_noise_keeps_its_range(kind, p, seed):
    game = new_game(shape=(7, 8), density=0.3, first_click="none", noise=(kind, p), seed=seed)
    truth = ref_counts(game.layout)
    n_nb = ref_counts(np.ones(game.shape, dtype=bool))
    shown = game.shown
    safe = ~game.layout
    if kind == "lost":
        assert np.all((shown == truth) | (shown == NOCLUE))
    elif kind == "under":
        assert np.all((0 <= shown) & (shown <= truth))
    else:
        assert np.all((truth <= shown) & (shown <= n_nb))
    for r, c in np.argwhere(safe):
        if game.status == "playing":
            game.reveal(int(r), int(c))
    grid = game.observation.grid
    assert np.array_equal(grid[safe], shown[safe])
    assert game.observation.noise == kind


@pytest.mark.parametrize("kind", ["lost", "under", "over"])
def test_noise_extremes(kind):
    game = new_game(shape=(12, 12), density=0.2, first_click="none", noise=(kind, 0.0), seed=1)
    assert np.array_equal(game.shown, ref_counts(game.layout))
    game = new_game(shape=(12, 12), density=0.2, first_click="none", noise=(kind, 1.0), seed=1)
    truth, n_nb = ref_counts(game.layout), ref_counts(np.ones((12, 12), dtype=bool))
    if kind == "lost":
        assert (game.shown == NOCLUE).all()
    else:
        changed = game.shown != truth
        possible = truth > 0 if kind == "under" else truth < n_nb
        assert changed.sum() > 0.5 * possible.sum()  # with p = 1 every cell is redrawn


def test_under_noise_is_uniform():
    game = new_game(shape=(60, 60), mines=0, first_click="none", noise=("over", 1.0), seed=3)
    shown = game.shown[1:-1, 1:-1]  # interior: truth 0, 8 neighbours -> uniform on 0..8
    counts = np.bincount(shown.ravel(), minlength=9)
    assert counts.min() > 0.6 * shown.size / 9 and counts.max() < 1.4 * shown.size / 9


def test_noise_opening_follows_the_true_numbers():
    """A lost or redrawn number never makes the game open a mine."""
    layout = np.zeros((6, 6), dtype=bool)
    layout[5, 5] = True
    for kind in ("lost", "over"):
        game = Game.from_layout(layout, noise=(kind, 1.0), seed=0)
        game.reveal(0, 0)
        assert game.status == "won"


# --- bad input ----------------------------------------------------------------------


def test_a_level_can_be_height_width_and_mines_or_density():
    """SPEC §3: presets, or any (height, width, mines) or (height, width, density); it was refused."""
    import sweeplab

    def layout(game):
        game.reveal(0, 0)  # mines are laid at the first click
        return game.layout

    for seed in range(3):
        assert (layout(new_game((16, 30, 99), seed=seed)) == layout(new_game("expert", seed=seed))).all()
        assert (layout(new_game((10, 10, 0.155), seed=seed))
                == layout(new_game(shape=(10, 10), density=0.155, seed=seed))).all()
    assert new_game((10, 10, 0.155)).observation.mines == 16
    tuple_level = sweeplab.play("trivial", level=(9, 9, 10), games=4, seed=2)
    named = sweeplab.play("trivial", level="beginner", games=4, seed=2)
    timing = [c for c in named if c.startswith("seconds")]
    assert tuple_level.drop(columns=timing).equals(named.drop(columns=timing))  # the same games, named


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"level": "hard"}, "unknown level"),
        ({"level": "expert", "shape": (3, 3)}, "not both"),
        ({"level": (3, 3)}, r"level must be a name .* or \(height, width, mines\)"),
        ({"level": (3, 3, 2), "mines": 2}, "not both"),
        ({"level": (3, 3, 12)}, "mines must be an integer within"),
        ({"level": (3, 3, 1.5)}, "density must be a number within"),
        ({}, "give a level name or a shape"),
        ({"shape": (0, 4), "mines": 1}, "shape must be two positive integers"),
        ({"shape": (3,), "mines": 1}, "shape must be two positive integers"),
        ({"shape": (3, 2.5), "mines": 1}, "shape must be two positive integers"),
        ({"shape": (3.0, 3), "mines": 1}, "shape must be two positive integers"),
        ({"shape": (True, 3), "mines": 1}, "shape must be two positive integers"),
        ({"shape": "33", "mines": 1}, "shape must be two positive integers"),
        ({"shape": (3, 3)}, "exactly one of mines= or density="),
        ({"shape": (3, 3), "mines": 2, "density": 0.1}, "exactly one of mines= or density="),
        ({"shape": (3, 3), "density": 1.5}, "density must be a number within"),
        ({"shape": (3, 3), "density": -0.1}, "density must be a number within"),
        ({"shape": (3, 3), "mines": 10}, "mines must be an integer within"),
        ({"shape": (3, 3), "mines": -1}, "mines must be an integer within"),
        ({"shape": (3, 3), "mines": 1.5}, "mines must be an integer within"),
        ({"shape": (3, 3), "mines": [3]}, "mines must be an integer within"),
        ({"shape": (3, 3), "density": "0.2"}, "density must be a number within"),
        ({"shape": (3, 3), "density": True}, "density must be a number within"),
        ({"level": (3, 3, "0.2")}, "mines must be an integer within"),
        ({"level": "beginner", "first_click": "lucky"}, "first_click must be one of"),
        ({"level": "beginner", "mode": "zen"}, "mode must be one of"),
        ({"level": "beginner", "noise": ("fuzzy", 0.1)}, "noise kind must be one of"),
        ({"level": "beginner", "noise": ("lost", 1.5)}, "noise probability must be a number within"),
        ({"level": "beginner", "noise": ("lost", True)}, "noise probability must be a number within"),
        ({"level": "beginner", "noise": ("lost", "0.1")}, "noise probability must be a number within"),
        ({"level": "beginner", "noise": ("lost", float("nan"))}, "noise probability must be a number within"),
        ({"level": "beginner", "noise": "lost"}, r"noise must be None or \(kind, p\)"),
    ],
)
def test_bad_game_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        new_game(**kwargs)


@pytest.mark.parametrize("seed", [1.5, -3, "seven", [1, -1], True, np.False_])
def test_bad_seeds(seed):
    with pytest.raises(ValueError, match="seed must be"):
        new_game("beginner", seed=seed)


def test_a_board_too_large_for_memory_is_a_value_error():
    with pytest.raises(ValueError, match=r"a 1000000x1000000 board \(1,000,000,000,000 cells\) does not fit"):
        new_game(shape=(10**6, 10**6), mines=1)


def test_bad_moves():
    game = new_game("beginner", seed=0)
    for r, c in [(-1, 0), (0, 9), (9, 0)]:
        with pytest.raises(ValueError, match="outside the 9x9 board"):
            game.reveal(r, c)
    for r, c in [(1.5, 0), (True, False), (np.True_, 0)]:  # True is no row 1
        with pytest.raises(ValueError, match="must be integers"):
            game.reveal(r, c)
    with pytest.raises(ValueError, match="must be integers"):
        game.flag(0, True)
    with pytest.raises(ValueError, match="unknown move kind"):
        game.play([("dig", 0, 0)])
    with pytest.raises(ValueError, match="a move is"):
        game.play([("reveal", 0)])
    assert game.moves == [] and game.status == "playing"
    with pytest.raises(AttributeError):
        game.status = "won"  # only moves end a game
    game.reveal(np.int64(0), np.int8(0))  # numpy integers are rows and columns
    assert game.moves == [("reveal", 0, 0)]


@pytest.mark.parametrize(
    ("layout", "match"),
    [([1, 0], "2-D"), ([[0, 2]], r"booleans \(or 0/1\), got 2 at row 0, column 1"),
     ([[0, 1], [0.5, 0]], "got 0.5 at row 1, column 0"), ([[1, None]], "got None at row 0, column 1"),
     ([["a", "b"]], "got 'a' at row 0"), (np.zeros((0, 3)), "2-D")],
)
def test_bad_layouts(layout, match):
    with pytest.raises(ValueError, match=match):
        Game.from_layout(layout)


@given(st.integers(1, 24), st.integers(1, 24), st.floats(0, 1), st.integers(0, 2**32 - 1))
def test_zero_regions_are_the_8_connected_labels_and_their_neighbours(h, w, share, seed):
    """The compiled zero-region table equals its definition: scipy's 8-connected labels of the
    zeros, and for each region its zeros and their neighbours, in increasing order."""
    from scipy import ndimage

    from sweeplab._game_kernels import zero_regions
    from sweeplab.positions import neighbour_table

    zero = np.random.default_rng(seed).random(h * w) < share
    labels, n = ndimage.label(zero.reshape(h, w), structure=np.ones((3, 3), dtype=bool))
    got_labels, cells, ptr = zero_regions(zero, h, w)
    assert got_labels.tolist() == labels.ravel().tolist()
    table = neighbour_table((h, w))
    for k in range(1, n + 1):
        members = np.flatnonzero(labels.ravel() == k)
        around = table[members]
        want = np.union1d(members, around[around >= 0])
        assert cells[ptr[k] : ptr[k + 1]].tolist() == want.tolist()
    assert ptr[1] == 0 and ptr[n + 1] == cells.size


@pytest.mark.parametrize(("layout", "needle"), [
    ([[1, 0], [0]], "ragged"),  # was numpy's "inhomogeneous shape" error
    ([[]], "non-empty 2-D"),
    ([[0, 2]], "booleans"),
    ([["x", 0]], "booleans"),
])
def test_from_layout_names_a_bad_layout(layout, needle):
    with pytest.raises(ValueError, match=needle):
        Game.from_layout(layout)


def test_an_agent_moving_off_the_board_is_an_error_not_a_skipped_move():
    """The referee skipped any move the game refused, so an agent's off-board move ended the game 'stuck'."""
    from dataclasses import dataclass

    from sweeplab.agents.base import Agent, Move
    from sweeplab.referee import referee

    @dataclass(frozen=True)
    class OffBoard(Agent):
        name = "off-board"

        def next_moves(self, obs, rng):
            return [Move("reveal", 99, 99, "guess")]

    game = new_game("beginner", seed=0)
    with pytest.raises(ValueError, match="'off-board' returned the move reveal at .99, 99., outside the 9x9"):
        list(referee(OffBoard(first_move=(0, 0)), game, np.random.default_rng(0)))


@pytest.mark.parametrize("shape", [(3, 10**20), (3, 2**63 - 1), (2**40, 2**40)])
def test_a_board_past_numpys_limits_is_named_with_its_size(shape):
    """An adversarial review: such shapes gave numpy's "Maximum allowed size exceeded" (or "high is out of
    bounds for int64" in generate), where smaller but still too large ones get this message."""
    from sweeplab.boards import generate_boards

    message = rf"a {shape[0]}x{shape[1]} board \(.* cells\) does not fit in this machine's memory"
    for call in (lambda: resolve_board(shape=shape, mines=1), lambda: new_game(shape=shape, mines=1),
                 lambda: generate_boards(shape=shape, mines=1, count=1, solvable_by="rref")):
        with pytest.raises(ValueError, match=message):
            call()


def test_revealed_fraction_before_the_first_click_is_zero():
    """An adversarial review: it raised AttributeError until the first click placed the mines (a referee
    callback reading it at turn 0 crashed)."""
    game = new_game("beginner", seed=1)
    assert game.revealed_fraction == 0.0
    game.reveal(0, 0)
    assert 0.0 < game.revealed_fraction <= 1.0
