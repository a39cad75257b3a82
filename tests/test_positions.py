"""Positions (SPEC §1): codes, text form, validation, round trips."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import sweeplab
from sweeplab import COVERED, FLAG, MINE, NOCLUE, InconsistentPositionError, Observation
from sweeplab.positions import as_observation, layout_fits, neighbour_counts, neighbour_table


def test_codes_are_the_spec_ones():
    assert (COVERED, FLAG, MINE, NOCLUE) == (-1, -2, -3, -4)
    assert issubclass(InconsistentPositionError, ValueError)
    for name in ("COVERED", "FLAG", "MINE", "NOCLUE", "Observation", "InconsistentPositionError"):
        assert name in sweeplab.__all__


def test_text_form_characters():
    obs = Observation.from_text(
        """
        ? # F *
        - . 0 1

        2 3 4 5
        6 7 8 ?
        """,
        mines=7,
    )
    assert obs.grid.tolist() == [[-1, -1, -2, -3], [-4, 0, 0, 1], [2, 3, 4, 5], [6, 7, 8, -1]]
    assert obs.shape == (4, 4) and obs.mines == 7 and obs.noise is None
    assert obs.to_text() == "??F*\n-..1\n2345\n678?"
    assert obs.grid.dtype == np.int8
    assert obs.known_mines == 2
    assert obs.covered.sum() == 3


def test_grid_is_read_only_and_copied():
    source = np.array([[COVERED, 1], [1, 1]])
    obs = Observation(source, mines=1)
    source[0, 0] = 0
    assert obs.grid[0, 0] == COVERED
    with pytest.raises(ValueError):
        obs.grid[0, 0] = 0


codes = st.integers(NOCLUE, 8)
grids = hnp.arrays(np.int8, st.tuples(st.integers(1, 8), st.integers(1, 8)), elements=codes)


@given(grids, st.booleans(), st.sampled_from([None, "lost", "under", "over"]))
def test_text_round_trip_is_exact(grid, with_total, noise):
    known = int(np.count_nonzero((grid == FLAG) | (grid == MINE)))
    mines = known + int(np.count_nonzero(grid == COVERED)) // 2 if with_total else None
    obs = Observation(grid, mines=mines, noise=noise)
    back = Observation.from_text(obs.to_text(), mines=mines, noise=noise)
    assert back == obs and hash(back) == hash(obs)
    assert np.array_equal(back.grid, grid)
    assert pickle.loads(pickle.dumps(obs)) == obs
    assert not pickle.loads(pickle.dumps(obs)).grid.flags.writeable
    assert eval(repr(obs), {"Observation": Observation}) == obs  # noqa: S307 - repr is code


def test_hash_copes_with_covered_hash_sign():
    """``#`` and ``?`` both mean covered; the text form writes ``?``."""
    assert Observation.from_text("#1\n11").to_text() == "?1\n11"


def test_equality_looks_at_total_and_noise():
    a = Observation.from_text("?1", mines=1)
    assert a != Observation.from_text("?1", mines=None)
    assert a != Observation.from_text("?1", mines=1, noise="under")
    assert a == a.with_mines(1) and a.with_mines(None).mines is None
    assert a != "?1"


def test_array_input_kinds():
    assert Observation([[-1, 2], [1, 1]]).grid.tolist() == [[-1, 2], [1, 1]]
    assert Observation(np.array([[-1.0, 2.0]])).grid.tolist() == [[-1, 2]]
    assert Observation(np.array([[1, 2]], dtype=np.uint8)).grid.tolist() == [[1, 2]]
    assert as_observation("?1\n11", mines=1) == Observation.from_text("?1\n11", mines=1)
    obs = Observation.from_text("?1")
    assert as_observation(obs) is obs and as_observation(obs, mines=1).mines == 1
    assert as_observation(np.array([[-1, 1]])) == obs
    assert Observation(np.ma.array([[-1, 1]])).grid.tolist() == [[-1, 1]]  # nothing masked: its data


def test_a_masked_grid_is_refused_rather_than_read_under_its_mask():
    """An adversarial review: numpy.asarray reads the values under the mask as cell codes."""
    grid = np.ma.array([[-1, 1], [1, 1]], mask=[[0, 0], [0, 1]])
    with pytest.raises(ValueError, match=r"masked array with 1 masked cells.*numpy\.ma\.filled"):
        Observation(grid)
    assert Observation(np.ma.filled(grid, -1)).grid.tolist() == [[-1, 1], [1, -1]]


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("??\n?x", r"unknown character 'x' at row 1, column 1"),
        ("9?", r"unknown character '9' at row 0, column 0.*clues are 0\.\.8"),
        ("???\n??", r"ragged rows: row 1 has 2 cells, row 0 has 3"),
        ("", "empty position"),
        ("\n  \n", "empty position"),
    ],
)
def test_bad_text(text, match):
    with pytest.raises(ValueError, match=match):
        Observation.from_text(text)


@pytest.mark.parametrize(
    ("grid", "kwargs", "match"),
    [
        ([[0, 9]], {}, r"cell code 9 at row 0, column 1 is out of range"),
        ([[0, 1], [-5, 1]], {}, r"cell code -5 at row 1, column 0 is out of range"),
        ([1, 2, 3], {}, "non-empty 2-D"),
        (np.zeros((0, 3), dtype=int), {}, "non-empty 2-D"),
        ([[0.5, 1]], {}, "integer cell codes"),
        ([[True, False]], {}, "integer cell codes"),
        ([["?", "1"]], {}, "integer cell codes"),
        ([[np.nan, 1]], {}, "integer cell codes"),
        ([[FLAG, MINE], [1, 2]], {"mines": 1}, r"mines=1 is below the 2 known mines"),
        ([[COVERED, 1]], {"mines": 3}, r"mines=3 exceeds the 2 cells"),
        ([[COVERED, 1]], {"mines": -1}, "mines must be non-negative"),
        ([[COVERED, 1]], {"mines": 1.5}, "mines must be an integer or None"),
        ([[COVERED, 1]], {"mines": "1"}, "mines must be an integer or None"),
        ([[COVERED, 1]], {"mines": [1]}, "mines must be an integer or None"),
        ([[COVERED, 1]], {"mines": True}, "mines must be an integer or None"),
        ([[COVERED, 1]], {"noise": "fuzzy"}, "noise must be None or one of"),
    ],
)
def test_bad_arrays(grid, kwargs, match):
    with pytest.raises(ValueError, match=match):
        Observation(grid, **kwargs)


def test_numpy_integer_total_is_accepted():
    assert Observation.from_text("??", mines=np.int64(1)).mines == 1
    assert isinstance(Observation.from_text("??", mines=np.int64(1)).mines, int)


def test_neighbour_table():
    t = neighbour_table((3, 4))
    assert t.shape == (12, 8) and not t.flags.writeable
    with pytest.raises(ValueError):  # cached per shape: a caller that edits it would mislead every method
        t.setflags(write=True)
    assert sorted(int(i) for i in t[5] if i >= 0) == [0, 1, 2, 4, 6, 8, 9, 10]
    assert sorted(int(i) for i in t[0] if i >= 0) == [1, 4, 5]
    assert sorted(int(i) for i in t[11] if i >= 0) == [6, 7, 10]
    assert neighbour_table((1, 1)).tolist() == [[-1] * 8]


@given(hnp.arrays(bool, st.tuples(st.integers(1, 9), st.integers(1, 9))))
def test_neighbour_counts_match_the_table(mask):
    flat = mask.ravel()
    t = neighbour_table(mask.shape)
    expected = np.where(t >= 0, flat[np.where(t >= 0, t, 0)], False).sum(axis=1)
    assert np.array_equal(neighbour_counts(mask).ravel(), expected)


def test_html_repr():
    obs = Observation.from_text("?F*\n-.8", mines=3, noise="under")
    text = obs._repr_html_()
    assert text.startswith("<table") and text.count("<tr>") == 2 and text.count("<td") == 6
    assert "&#9873;" in text and "&#9679;" in text and ">8</td>" in text
    assert "2×3, mines=3" in text and "noise=under" in text
    big = Observation(np.full((100, 100), COVERED), mines=10)._repr_html_()
    assert big.startswith("<pre") and "100×100" in big
    huge = Observation(np.full((300, 300), COVERED))._repr_html_()
    assert len(huge) < 300 and "300×300" in huge


# --- malformed input (issue 14 item 12, Deliver 4) ------------------------------------------------------


@pytest.mark.parametrize("text", [None, b"??\n12", 3, ["??", "12"], np.array([[-1]])])
def test_from_text_refuses_non_strings(text):
    """``from_text(None)`` raised AttributeError."""
    with pytest.raises(ValueError, match=r"text must be a str .* got "):
        Observation.from_text(text)


def deep_list(depth):
    value = [1]
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("grid", "match"),
    [
        ([[1, 2], [3]], r"rows of equal length, got ragged or nested list \[\[1, 2\], \[3\]\]"),
        ([[1, [2]]], "ragged or nested list"),
        (deep_list(100_000), "ragged or nested list"),
        (np.zeros((2, 2, 2), dtype=int), r"non-empty 2-D array .* shape \(2, 2, 2\)"),
        ([[]], r"non-empty 2-D array .* shape \(1, 0\)"),
        ([], r"non-empty 2-D array .* shape \(0,\)"),
        ("??\n12", "parse the text form with Observation.from_text"),
        (None, r"non-empty 2-D array .* NoneType of shape \(\)"),
        (np.array([[1, 2]], dtype="m8[s]"), "integer cell codes .* got dtype timedelta64"),
        ([[2**70, 1]], "integer cell codes .* got dtype object"),
        ([[1 + 0j]], "integer cell codes .* got dtype complex"),
        ([[np.inf, 1]], "integer cell codes"),
    ],
)
def test_odd_grids_are_value_errors(grid, match):
    with pytest.raises(ValueError, match=match):
        Observation(grid)


@pytest.mark.parametrize("mines", [1.5, np.float64(0.5), "1", b"1", [1], np.array([1, 2]), 1 + 1j,
                                   float("nan"), float("inf"), True, np.True_, {}, deep_list(50_000)])
def test_odd_totals_are_value_errors(mines):
    with pytest.raises(ValueError, match="mines must be an integer or None") as err:
        Observation.from_text("??", mines=mines)
    assert len(str(err.value)) < 200  # a huge or deep value is abbreviated, never a RecursionError


def test_integral_totals_of_any_integer_type_are_accepted():
    assert Observation.from_text("??", mines=np.uint8(1)).mines == 1
    assert Observation.from_text("??", mines=2.0).mines == 2


@pytest.mark.parametrize("noise", [["lost"], {}, 1, True, "LOST"])
def test_odd_noise_is_a_value_error(noise):
    with pytest.raises(ValueError, match="noise must be None or one of"):
        Observation.from_text("??", noise=noise)


def test_numpy_string_noise_is_stored_as_str():
    assert type(Observation.from_text("??", noise=np.str_("lost")).noise) is str


@pytest.mark.parametrize("position", [None, b"??", 3, 2.5, {"rows": ["??"]}, {1, 2}])
def test_as_observation_names_what_it_accepts(position):
    with pytest.raises(ValueError, match="position must be an Observation, its text form"):
        as_observation(position)


def test_a_grid_cannot_be_made_writeable_again():
    """An adversarial review: ``obs.grid.setflags(write=True)`` used to succeed and change the position
    (and, on ``game.observation``, the game's cached view)."""
    from sweeplab import new_game

    game = new_game("beginner", seed=1)
    game.reveal(0, 0)
    obs = Observation.from_text("?1\n11", mines=1)
    for grid in (obs.grid, pickle.loads(pickle.dumps(obs)).grid, game.observation.grid,
                 Observation(np.array([[-1, 1], [1, 1]]), mines=1).grid):
        with pytest.raises(ValueError, match="WRITEABLE"):
            grid.setflags(write=True)
    assert obs == Observation.from_text("?1\n11", mines=1)


# --- layout_fits: a layout is one of a position's layouts -----------------------------------------------
@pytest.mark.parametrize("seed", range(40))
def test_layout_fits_agrees_with_exact_enumeration_on_small_positions(seed):
    """Every completion of the covered cells, one by one: those that fit are exactly the layouts whose
    count and mean :func:`sweeplab.probabilities` gives (or none, where enumeration finds no layout)."""
    import itertools

    from sweeplab.testing import random_positions

    for obs in random_positions(25, seed=seed, max_side=4):
        grid = obs.grid
        covered = np.argwhere(grid == COVERED)
        known = (grid == FLAG) | (grid == MINE)
        for use_total in (True, False):
            fits = []
            for bits in itertools.product((False, True), repeat=len(covered)):
                layout = known.copy()
                layout[tuple(covered.T)] = bits
                if layout_fits(obs, layout, use_total=use_total):
                    fits.append(layout)
            try:
                p = sweeplab.probabilities(obs, use_total=use_total)
            except InconsistentPositionError:
                assert not fits, obs
                continue
            assert fits, obs
            if use_total or obs.mines is None:  # without the total, layouts are not equally weighted
                mean = np.mean(fits, axis=0)
                np.testing.assert_allclose(mean[grid == COVERED], p[grid == COVERED], atol=1e-9)


def test_layout_fits_reads_noise_as_bounds_and_a_lost_clue_as_nothing():
    mine_at_corner = np.array([[1, 0], [0, 0]], dtype=bool)
    for noise, shown, fits in [(None, "1", True), (None, "0", False), ("under", "0", True),
                               ("under", "2", False), ("over", "3", True), ("over", "0", False)]:
        obs = Observation.from_text(f"?{shown}\n--", noise=noise)  # "-": revealed, number hidden
        assert layout_fits(obs, mine_at_corner) is fits, (noise, shown)
    assert layout_fits(Observation.from_text("?-\n--", noise="lost", mines=1), mine_at_corner)
    assert not layout_fits(Observation.from_text("F1\n11"), ~mine_at_corner)  # the flag on a safe cell
    assert layout_fits(Observation.from_text("*1\n11", mines=1), mine_at_corner)  # a shown mine
    assert not layout_fits(Observation.from_text("?1\n11"), np.ones((2, 2), dtype=bool))  # revealed: safe
    with pytest.raises(ValueError, match=r"layout has shape \(3, 3\), the position \(2, 2\)"):
        layout_fits(Observation.from_text("?1\n11"), np.zeros((3, 3), dtype=bool))


def test_the_games_layout_fits_every_position_of_the_game():
    rng = np.random.default_rng(5)
    for noise in (None, ("lost", 0.3), ("under", 0.5), ("over", 0.5)):
        game = sweeplab.new_game("beginner", seed=int(rng.integers(1000)), noise=noise)
        while game.status == "playing":
            covered = np.argwhere(game.observation.grid == COVERED)
            game.reveal(*covered[rng.integers(len(covered))])
            assert layout_fits(game.observation, game.layout)


def test_rows_end_at_line_ends_only_other_whitespace_is_ignored():
    """A reviewer: "?1\\v11" read as two rows (str.splitlines breaks at \\v and \\x1c, which SPEC §1's
    "whitespace ignored" covers)."""
    for sep in ("\v", "\x1c", "\f", "\u2028", " \t"):
        assert Observation.from_text(f"?1{sep}11").grid.tolist() == [[-1, 1, 1, 1]], repr(sep)
    for end in ("\n", "\r\n", "\r"):
        assert Observation.from_text(f"?1{end}11{end}").grid.tolist() == [[-1, 1], [1, 1]], repr(end)
