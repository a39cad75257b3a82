"""Paired comparisons of two players on the same games (sweeplab.stats.paired_difference)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import binomtest

import sweeplab
from sweeplab.stats import (
    format_summary,
    paired_difference,
    paired_mean_difference,
    summarize,
    wilson_interval,
)


def pairs(both: int, only_a: int, only_b: int, neither: int) -> tuple[np.ndarray, np.ndarray]:
    """Outcome arrays with the given counts of the four kinds of game (shuffled: order must not matter)."""
    a = np.repeat([True, True, False, False], [both, only_a, only_b, neither])
    b = np.repeat([True, False, True, False], [both, only_a, only_b, neither])
    order = np.random.default_rng(both * 7 + only_a).permutation(a.size)
    return a[order], b[order]


def test_counts_difference_and_mcnemar():
    a, b = pairs(380, 21, 35, 564)
    d = paired_difference(a, b)
    assert (d.games, d.wins_a, d.wins_b, d.only_a, d.only_b) == (1000, 401, 415, 21, 35)
    assert d.difference == pytest.approx(0.014)
    assert d.low < d.difference < d.high
    assert d.p_value == pytest.approx(binomtest(35, 56, 0.5).pvalue)
    assert str(d).startswith("+35/-21 of 1000 games: +1.40 points [")


def test_swapping_the_players_mirrors_the_interval():
    a, b = pairs(50, 3, 11, 36)
    ab, ba = paired_difference(a, b), paired_difference(b, a)
    assert (ba.only_a, ba.only_b) == (ab.only_b, ab.only_a)
    assert ba.difference == pytest.approx(-ab.difference)
    assert (ba.low, ba.high) == pytest.approx((-ab.high, -ab.low))
    assert ba.p_value == pytest.approx(ab.p_value)


def test_identical_players_differ_by_nothing():
    a, _ = pairs(30, 0, 0, 70)
    d = paired_difference(a, a.copy())
    assert (d.only_a, d.only_b, d.difference, d.p_value) == (0, 0, 0.0, 1.0)
    assert d.low <= 0.0 <= d.high


def test_pairing_narrows_the_interval():
    # agents that agree on most games: the paired interval is far narrower than the two rates' intervals
    a, b = pairs(3800, 200, 300, 5700)
    d = paired_difference(a, b)
    la, ua = wilson_interval(4000, 10_000)
    lb, ub = wilson_interval(4100, 10_000)
    assert d.high - d.low < 0.5 * ((ua - la) + (ub - lb)) / 2
    assert d.low > 0  # +300/-200 in 10,000: clearly better
    assert d.p_value < 1e-4


@pytest.mark.parametrize(("probs", "n"), [((0.38, 0.02, 0.03, 0.57), 400), ((0.3, 0.1, 0.1, 0.5), 60),
                                          ((0.9, 0.02, 0.05, 0.03), 200)])
def test_the_interval_covers_the_true_difference_95_times_in_100(probs, n):
    rng = np.random.default_rng(2026)
    truth = probs[2] - probs[1]
    runs = 2000
    hits = 0
    for _ in range(runs):
        d = paired_difference(*pairs(*rng.multinomial(n, probs)))
        hits += d.low <= truth <= d.high
    # binomial spread of 2,000 runs at 0.95 is 0.005: a wrong correlation term or Wald's interval leaves this
    assert 0.935 <= hits / runs <= 0.975, hits / runs


@given(st.integers(0, 60), st.integers(0, 60), st.integers(0, 60), st.integers(0, 60),
       st.sampled_from([0.8, 0.9, 0.95, 0.99]))
def test_interval_is_ordered_and_inside_minus_one_one(both, only_a, only_b, neither, confidence):
    if both + only_a + only_b + neither == 0:
        return
    d = paired_difference(*pairs(both, only_a, only_b, neither), confidence=confidence)
    assert -1.0 <= d.low <= d.difference <= d.high <= 1.0
    assert 0.0 <= d.p_value <= 1.0
    wider = paired_difference(*pairs(both, only_a, only_b, neither), confidence=0.999)
    assert wider.low <= d.low + 1e-12 and wider.high >= d.high - 1e-12


def test_zero_one_numbers_and_series_are_accepted():
    a, b = pairs(5, 2, 4, 9)
    expected = paired_difference(a, b)
    assert paired_difference(a.astype(int), b.astype(float)) == expected
    import pandas as pd

    assert paired_difference(pd.Series(a), pd.Series(b)) == expected


@pytest.mark.parametrize(
    ("won_a", "won_b", "kwargs", "message"),
    [
        ([True, False], [True], {}, "same games: got 2 and 1"),
        ([], [], {}, "no games to compare"),
        ([[True, False]], [[True, False]], {}, "1-d sequence"),
        ([True, 2], [True, False], {}, "booleans (True: won) or 0/1"),
        (["yes", "no"], [True, False], {}, "booleans (True: won) or 0/1"),
        ([True], [False], {"confidence": 95}, "confidence must be within (0, 1)"),
    ],
)
def test_bad_input_is_named(won_a, won_b, kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        paired_difference(won_a, won_b, **kwargs)


def test_series_in_different_orders_are_refused_not_mis_paired():
    """A new user's review: a re-sorted Series was paired by position (+3/-1 where the games say +2/-0)."""
    a = pd.Series([True, True, False, False], index=[0, 1, 2, 3])
    b = pd.Series([True, True, True, False], index=[0, 1, 2, 3])
    assert (paired_difference(a, b).only_b, paired_difference(a, b).only_a) == (1, 0)
    with pytest.raises(ValueError, match="different indexes.*pass the two tables of results"):
        paired_difference(a, b.sample(frac=1, random_state=1))
    d = paired_difference(a, b.sample(frac=1, random_state=1).reindex(a.index))
    assert (d.only_b, d.only_a) == (1, 0)


def test_two_agents_on_the_same_seeds():
    a = sweeplab.play("probability", level="beginner", games=40, seed=11)
    b = sweeplab.play("best", level="beginner", games=40, seed=11)
    assert (a["game"].to_numpy() == b["game"].to_numpy()).all()
    d = paired_difference(a["won"], b["won"])
    assert d.wins_a == int(a["won"].sum()) and d.wins_b == int(b["won"].sum())
    assert d.only_b - d.only_a == d.wins_b - d.wins_a


def test_confidence_next_to_one_gives_a_wide_interval_not_a_point():
    c = np.nextafter(1.0, 0.0)  # 0.5 + c / 2 rounds to 1, whose normal quantile is infinite
    lo, hi = wilson_interval(3, 10, confidence=c)
    assert 0.0 < lo < 0.05 and 0.9 < hi < 1.0
    d = paired_difference([1, 1, 0, 0, 1], [0, 0, 1, 1, 1], confidence=c)
    assert -1.0 <= d.low < -0.8 and 0.8 < d.high <= 1.0


def test_no_games_no_interval():
    assert np.isnan(wilson_interval(0, 0)).all()
    lo, hi = wilson_interval(np.array([0, 0, 5]), np.array([0, 5, 5]))
    assert np.isnan(lo[0]) and np.isnan(hi[0]) and (lo[1], hi[2]) == (0.0, 1.0)


@pytest.mark.parametrize("wins, games, message", [
    (0, 0, "games > 0"), (4, 3, "0 <= wins <= games"), (-1, 3, "0 <= wins <= games"),
    (1.5, 3, "wins must be a whole number"), (1, 3.0, "games must be a whole number"),
    (True, 3, "wins must be a whole number"),
])
def test_rate_text_refuses_what_is_not_a_count(wins, games, message):
    with pytest.raises(ValueError, match=message):
        sweeplab.stats.rate_text(wins, games)


def test_paired_text_names_the_confidence_it_used():
    assert "(99.5% CI)" in str(paired_difference([1, 0, 1], [0, 1, 1], confidence=0.995))
    assert "(95% CI)" in str(paired_difference([1, 0, 1], [0, 1, 1]))


def test_object_arrays_of_booleans_are_outcomes():
    a = np.array([True, False, True, True], dtype=object)
    assert paired_difference(a, [1, 1, 0, 1]) == paired_difference([True, False, True, True], [1, 1, 0, 1])


def test_a_summary_by_noise_shows_its_probability():
    """``lost`` at 0.1 and at 0.3 are different experiments; a summary by noise kind alone hid p."""
    from sweeplab.stats import summarize

    rows = [sweeplab.play("trivial", level="beginner", games=4, seed=1, noise=n) for n in
            (None, ("lost", 0.1), ("under", 0.1))]
    import pandas as pd

    table = summarize(pd.concat(rows, ignore_index=True))
    assert "noise_p" in table.columns and table["games"].tolist() == [4, 4, 4]
    assert sorted(table["noise_p"].tolist()) == [0.0, 0.1, 0.1]
    from sweeplab.stats import format_summary

    text = format_summary(table)  # exact clues read "none", not NaN
    kinds = [line.split()[3] for line in text.splitlines()[1:]]
    assert "NaN" not in text and kinds == ["lost", "under", "none"]


def test_a_summary_of_a_board_given_by_its_shape_names_the_board():
    from sweeplab.stats import format_summary, summarize

    rows = sweeplab.play("trivial", shape=(10, 10), mines=10, games=3, seed=1)
    table = summarize(rows)
    assert table[["height", "width", "mines"]].values.tolist() == [[10, 10, 10]]
    line = format_summary(table).splitlines()[1].split()
    assert line[:5] == ["trivial", "-", "10", "10", "10"]


def test_summarize_refuses_what_it_cannot_count_and_prints_no_games():
    import pandas as pd

    from sweeplab.stats import format_summary, summarize

    df = pd.DataFrame({"agent": ["a"] * 4, "won": [True, False, True, None], "score": [1, .5, 1, 1],
                       "revealed": [1, .2, 1, 1], "guesses": [1, 2, 0, 1], "wrong_claims": 0, "seconds": 0.5})
    with pytest.raises(ValueError, match="summarize: 1 game has no 'won' value"):  # was counted as a loss
        summarize(df)
    with pytest.raises(ValueError, match=r"lack the columns \['score'\]"):
        summarize(df.drop(columns="score"))
    played = df.dropna()
    assert summarize(played, by="agent")[["agent", "games", "wins"]].to_dict("records") == [
        {"agent": "a", "games": 3, "wins": 2}]  # one column by name, not its letters
    assert format_summary(summarize(played.iloc[:0])) == "(no games)"


@pytest.mark.parametrize("k, n, match", [(2.5, 10, "whole numbers"), ("3", 10, "must be numbers"),
                                         (5, float("inf"), "whole numbers"),
                                         (1, float("nan"), "whole numbers")])
def test_wilson_interval_counts_are_whole_numbers(k, n, match):
    with pytest.raises(ValueError, match=match):
        wilson_interval(k, n)


def test_summarize_totals_claims_and_speed_and_groups_a_column_that_is_partly_missing():
    import pandas as pd

    df = pd.DataFrame({"agent": ["a"] * 3 + ["b"] * 2, "won": [True, False, True, True, True],
                       "score": [1, 0.5, 1, 1, 1], "revealed": [1, 0.5, 1, 1, 1], "guesses": [0, 1, 2, 0, 0],
                       "wrong_claims": [1, 2, 0, 0, 0], "seconds": [0.5, 1.0, 0.5, 2.0, 2.0],
                       "noise_p": [0.1, 0.1, 0.1, np.nan, np.nan]})
    s = summarize(df).set_index("agent")
    assert s.loc["a", "wrong_claims"] == 3 and s.loc["b", "wrong_claims"] == 0  # a sum, not a maximum
    assert s.loc["a", "games_per_s"] == pytest.approx(3 / 2.0)  # games over total seconds
    assert s.loc["b", "games_per_s"] == pytest.approx(2 / 4.0)
    assert s.loc["a", "guesses"] == pytest.approx(1.0) and s.loc["a", "score"] == pytest.approx(2.5 / 3)
    # noise_p holds one value and NaN: two groups, so it is a grouping column
    assert "noise_p" in summarize(df).columns


def _newcombe_10(both, only_a, only_b, neither, z=1.959963984540054):
    """Newcombe (1998) method 10 written out from the paper: Wilson intervals of the two rates, the
    correlation's numerator AD - BC lowered by n/2 when above it and taken as 0 between 0 and n/2."""
    n = both + only_a + only_b + neither

    def wilson(k):
        p = k / n
        centre, half = p + z * z / (2 * n), z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        return p, (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)

    (pa, la, ua), (pb, lb, ub) = wilson(both + only_a), wilson(both + only_b)
    ad_bc = both * neither - only_a * only_b
    numerator = ad_bc - n / 2 if ad_bc > n / 2 else (0.0 if ad_bc >= 0 else ad_bc)
    phi = numerator / np.sqrt((both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither))
    d = pb - pa
    low = d - np.sqrt((pb - lb) ** 2 - 2 * phi * (pb - lb) * (ua - pa) + (ua - pa) ** 2)
    high = d + np.sqrt((ub - pb) ** 2 - 2 * phi * (ub - pb) * (pa - la) + (pa - la) ** 2)
    return low, high


@pytest.mark.parametrize("counts", [
    (5, 4, 4, 4),     # AD - BC = 4, within (0, n/2 = 8.5]: phi is 0
    (5, 4, 6, 5),     # AD - BC = 1: phi 0, not 1 / sqrt(...)
    (40, 3, 9, 48),   # AD - BC = 1893 > n/2: lowered by 50
    (3, 20, 25, 2),   # AD - BC < 0: unchanged
])
def test_the_interval_is_newcombes_method_10_in_each_zone_of_the_correction(counts):
    d = paired_difference(*pairs(*counts))
    assert (d.low, d.high) == pytest.approx(_newcombe_10(*counts), abs=1e-12)


def test_summarize_keeps_first_click_and_averages_guesses():
    """first_click is a grouping column even with one value (like agent and level); guesses is a mean."""
    df = pd.DataFrame({"agent": "a", "first_click": "zero", "won": [True, False, False],
                       "score": [1.0, 0.5, 0.5], "revealed": [1.0, 0.2, 0.2], "guesses": [0, 0, 3],
                       "wrong_claims": 0, "seconds": 1.0})
    s = summarize(df)
    assert s["first_click"].tolist() == ["zero"]
    assert s["guesses"].tolist() == [1.0]  # (0 + 0 + 3) / 3; the median would be 0


@pytest.mark.parametrize("seed", range(5))
def test_paired_mean_difference_is_scipys_paired_t_interval(seed):
    from scipy.stats import ttest_rel

    rng = np.random.default_rng(seed)
    a = rng.random(25)
    b = np.clip(a + rng.normal(0.05, 0.1, 25), 0, 1)
    mean, low, high = paired_mean_difference(a, b)
    ci = ttest_rel(b, a).confidence_interval(0.95)
    assert mean == pytest.approx(float(np.mean(b - a)))
    assert (low, high) == pytest.approx((ci.low, ci.high))


def test_paired_mean_difference_needs_pairs():
    assert np.isnan(paired_mean_difference([0.5], [0.7])[1])
    with pytest.raises(ValueError, match="same length"):
        paired_mean_difference([0.1, 0.2], [0.3])


def test_two_points_of_one_sweep_are_paired_by_seed_and_game_even_with_games_missing():
    """A review (rev51d): the docstring's "two points of one sweep" could not be compared as written (their
    indexes differ), its advice failed, and .to_numpy() on a sweep loaded part way paired other games."""
    from sweeplab.stats import paired_difference
    from sweeplab.sweeps import run_sweep

    df = run_sweep([{"agent": "trivial", "level": "beginner"}, {"agent": "rref", "level": "beginner"}],
                   games=60, seed=21, workers=1, progress=False)
    a, b = df[df.point == 0], df[df.point == 1]
    a_part, b_part = a[~a.game.between(10, 19)], b[~b.game.between(40, 44)]  # chunks lost from each
    common = sorted(set(a_part.game) & set(b_part.game))
    expected = paired_difference(a.set_index("game").won.loc[common].to_numpy(),
                                 b.set_index("game").won.loc[common].to_numpy())
    assert paired_difference(a_part, b_part.sample(frac=1, random_state=0)) == expected  # any row order
    assert expected.games == 45
    with pytest.raises(ValueError, match="pass the two tables of results instead"):
        paired_difference(a.won, b.won)
    with pytest.raises(ValueError, match="holds game 0 of seed 21 twice"):
        paired_difference(df, b)
    other = sweeplab.play("rref", level="intermediate", games=5, seed=21)
    with pytest.raises(ValueError, match="not played on the same boards: their 'level' differs"):
        paired_difference(a, other)


def test_format_summary_labels_the_confidence_summarize_used():
    """A review (rev51d): a 99% interval went out labelled "95% CI", and 0.995 printed as "100% CI"."""
    from sweeplab.stats import format_summary, summarize

    df = pd.DataFrame({"agent": ["a"] * 100, "won": [True] * 58 + [False] * 42, "score": 1.0,
                       "revealed": 1.0, "guesses": 1, "wrong_claims": 0, "seconds": 0.5})
    for confidence, interval in ((0.99, "[45.18, 69.82]"), (0.95, "[48.21, 67.20]")):
        header, row = format_summary(summarize(df, confidence=confidence)).splitlines()
        assert f"{confidence:.0%} CI" in header and interval in row
    assert "99.9% CI" in format_summary(summarize(df, confidence=0.999), confidence=0.999)
    with pytest.raises(ValueError, match="at confidence 0.99, not 0.95"):
        format_summary(summarize(df, confidence=0.99), confidence=0.95)
    # a summary that no longer says (pandas drops attrs in a merge, or a concat at two levels): "CI" alone
    merged = summarize(df, confidence=0.99).merge(pd.DataFrame({"agent": ["a"]}))
    mixed = pd.concat([summarize(df, confidence=0.99), summarize(df)])
    for summary in (merged, mixed):
        header = format_summary(summary).splitlines()[0]
        assert " CI " in f"{header} " and "%" not in header.replace("win %", "")
    assert "99.99999% CI" in format_summary(summarize(df, confidence=0.9999999))
    with pytest.raises(ValueError, match=r"paired_difference \(won_b\): 1 game has no 'won' value"):
        sweeplab.stats.paired_difference(df.assign(seed=0, game=range(100)),
                                         df.assign(seed=0, game=range(100), won=[None] + [True] * 99))


def test_every_summary_refuses_a_missing_outcome_and_the_loss_table_a_repeated_game():
    """A review (rev51d): reach_summary counted a missing 'won' as a loss, loss_table as a win, and
    loss_table took pd.concat([l, l]) without a word (summarize refused both)."""
    from sweeplab.losses import loss_table
    from sweeplab.reach import reach_summary

    reach = pd.DataFrame({"method": "trivial", "level": "beginner", "seed": 0, "game": range(4),
                          "won": [True, False, None, True], "revealed": 0.5})
    with pytest.raises(ValueError, match="reach_summary: 1 game has no 'won' value"):
        reach_summary(reach)
    losses = pd.DataFrame({"seed": 0, "game": range(3), "won": [True, None, False],
                           "cause": [None, "opening", "endgame"]})
    with pytest.raises(ValueError, match="loss_table: 1 game has no 'won' value"):
        loss_table(losses)
    known = losses.dropna(subset=["won"])
    assert loss_table(known)["lost"].tolist() == [1]
    with pytest.raises(ValueError, match="loss_table: 2 rows repeat a game of the same point"):
        loss_table(pd.concat([known, known]))
    other_seed = known.assign(seed=1)  # two seeds' games pooled: each counts
    pooled = loss_table(pd.concat([known, other_seed]))
    assert pooled["lost"].tolist() == [2] and pooled["per 100 games"].tolist() == [50.0]


def test_format_summary_never_rounds_a_lost_game_to_a_perfect_score():
    """A reviewer: one lost 300x300 game printed "score 1.000 revealed 1.000"."""
    df = pd.DataFrame({"agent": ["a"], "won": [False], "score": [1 - 1 / 10800], "revealed": [0.99995],
                       "guesses": [3], "wrong_claims": [0], "seconds": [1.0]})
    line = format_summary(summarize(df)).splitlines()[1]
    assert ">0.999" in line and "1.000" not in line
    df["score"] = df["revealed"] = 1.0
    assert "1.000" in format_summary(summarize(df))
