"""plot_position: artists returned, overlays, bad input."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import sweeplab  # noqa: E402
from sweeplab import Observation, plot_position  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_plain_position():
    obs = Observation.from_text("?F*\n-.8\n12?", mines=4)
    art = plot_position(obs)
    assert sorted(art) == ["image", "numbers"]
    texts = sorted(t.get_text() for t in art["numbers"])
    assert texts == ["*", "-", "1", "2", "8", "F"]
    assert art["image"].get_array().shape == (3, 3)


def test_overlays_on_a_given_axes():
    obs = Observation.from_text("???\n121", mines=2)
    _, ax = plt.subplots()
    p = np.full((2, 3), np.nan)
    p[0] = [1.0, 0.0, 1.0]
    art = plot_position(obs, ax=ax, safe={(0, 1)}, mines=np.array([[0, 0], [0, 2]]), probabilities=p)
    assert {"safe", "mines", "probabilities"} <= set(art)
    assert art["safe"].get_offsets().tolist() == [[1, 0]]
    assert sorted(art["mines"].get_offsets().tolist()) == [[0, 0], [2, 0]]
    assert art["image"].axes is ax
    assert {t.get_text() for t in ax.texts} >= {"1", "2", "0"}


def test_big_board_skips_numbers():
    obs = Observation(np.zeros((80, 80), dtype=int))
    assert plot_position(obs)["numbers"] == []


def test_bad_overlays():
    obs = Observation.from_text("??\n11")
    with pytest.raises(ValueError, match="probabilities must be an array of the position.s shape"):
        plot_position(obs, probabilities=np.zeros((3, 3)))
    with pytest.raises(ValueError, match="outside the 2x2 board"):
        plot_position(obs, safe=[(2, 0)])


def test_probability_labels_never_show_a_risk_as_certain():
    """0.004 was drawn '.00' beside a certain-safe cell's '.00', 0.996 as '1.00' beside a mine's '1'."""
    from sweeplab.plotting import probability_label

    obs = Observation.from_text("\n".join(["." + "?" * 15] + ["?" * 16] * 15), mines=1)
    plot_position(obs, probabilities=sweeplab.probabilities(obs))
    assert [probability_label(p) for p in (0.0, 0.004, 0.0051, 0.5, 0.994, 0.996, 1.0)] == [
        "0", "<.01", ".01", ".50", ".99", ">.99", "1"]
    texts = [t.get_text() for t in plt.gca().texts]
    assert "<.01" in texts and "0" in texts and ".00" not in texts
    plt.close("all")


def test_text_positions_are_drawn_and_explained():
    text = "??????\n?1122?"
    proof = sweeplab.deduce(Observation.from_text(text, mines=3), "rref", proofs=True).proofs[(0, 1)]
    assert proof.explain(text) == proof.explain(Observation.from_text(text))
    assert sweeplab.plot_proof(text, proof)["target"] is not None and plot_position(text)["image"] is not None
    with pytest.raises(ValueError, match="no key 'value' .*cell, value, method and steps"):
        sweeplab.plot_proof(text, {"cell": [0, 1]})
    with pytest.raises(ValueError, match="such as sweeplab.probabilities"):
        plot_position(text, probabilities=True)
    plt.close("all")


def test_plot_proof_says_when_the_proof_does_not_hold_and_cells_are_pairs():
    from sweeplab.plotting_proofs import plot_proof
    from sweeplab.proofs import Proof

    obs = Observation.from_text("???\n121")
    proof = sweeplab.deduce(obs, "rref", proofs=True).proofs[(0, 1)]
    assert plot_proof(obs, proof)["title"].get_text() == "(0,1) is safe: 1 step, 3 rows"
    flipped = Proof.from_dict({**proof.to_dict(), "value": 1})
    assert plot_proof(obs, flipped)["title"].get_text().startswith("NOT A VALID PROOF on this position")
    for cells in [(0, 0), [(0.7, 0)]]:  # one cell, not a list of them; a fraction
        with pytest.raises(ValueError, match="safe must be .row, col. pairs of integers"):
            plot_position(obs, safe=cells)
    plt.close("all")


def test_game_strip_keeps_the_start_the_first_click_and_the_last_move():
    """A review: the strip left out step 1 (the first click), so mines appeared with no move shown."""
    from sweeplab import experiments, figures

    df = experiments.run("001-game-steps", preset="smoke")
    moves = int((df["kind"] != "start").sum())
    assert moves > 5
    fig = figures.game_steps_figure(df, max_panels=5)
    titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
    assert len(titles) == 5
    assert titles[0].startswith("0: start") and titles[1].startswith("1: ")
    assert titles[-1].startswith(f"{moves}: ")
    assert f"4 of {moves} moves shown" in fig._suptitle.get_text()
    with pytest.raises(ValueError, match="max_panels must be at least 3"):
        figures.game_steps_figure(df, max_panels=2)
    plt.close("all")


def test_proofs_figure_counts_the_proofs_it_draws():
    """A review: the headline counted the proofs of both uses of the total, the panels drew one."""
    from sweeplab import experiments, figures
    from sweeplab.bench import proof_cells

    rows = experiments.run("015-proofs", preset="smoke")
    cells = proof_cells(rows)
    assert set(cells["use_total"]) == {True, False}
    drawn = int(cells["use_total"].sum())
    fig = figures.proofs_figure(rows)
    assert f"(with the total): {drawn} proofs, all checked" in fig._suptitle.get_text()
    assert drawn < len(cells)
    without = figures.proofs_figure(rows[~rows["use_total"]])
    assert f"(without the total): {len(cells) - drawn} proofs" in without._suptitle.get_text()
    plt.close("all")


def test_win_rate_labels_stay_off_the_reports_diamonds():
    """A review: the report's diamond covered the value label of a bar whose interval ends near it."""
    import pandas as pd

    from sweeplab import figures

    df = pd.DataFrame({"agent": ["a", "b"], "first_click": ["safe", "safe"], "win_rate": [0.50, 0.30],
                       "ci_low": [0.45, 0.25], "ci_high": [0.55, 0.35], "report": [0.58, 0.90],
                       "games": [400, 400], "wrong_claims": [0, 0]})
    fig = figures.win_rates_figure(df)
    ax = fig.axes[0]
    labels = {t.get_text(): t.get_position()[1] for t in ax.texts if t.get_text().endswith("%")}
    assert labels["50.0%"] > 0.58 + 0.03  # moved above the diamond at 0.58
    assert labels["30.0%"] == pytest.approx(0.35 + 0.015)  # the diamond at 0.90 is far: left in place
    plt.close("all")


def test_reach_density_panel_draws_one_first_click_rule_per_line():
    """The full preset sweeps density under two first-click rules; one line per method must not zigzag
    between them (it drew each density twice, the "zero" and the "safe" rates joined as one line)."""
    import pandas as pd

    from sweeplab import figures

    rows = []
    for sweep, click, density, rate in [("level", "zero", 0.12, 0.9), ("level", "safe", 0.12, 0.5),
                                        ("density", "zero", 0.05, 1.0), ("density", "zero", 0.10, 0.9),
                                        ("density", "safe", 0.05, 0.6), ("density", "safe", 0.10, 0.3)]:
        rows.append({"sweep": sweep, "board": "beginner" if sweep == "level" else f"16x16 d={density:.2f}",
                     "method": "trivial", "use_total": True, "first_click": click, "level": None,
                     "height": 16, "width": 16, "density": density, "win_rate": rate, "ci_low": rate - 0.1,
                     "ci_high": min(rate + 0.1, 1.0), "mean_revealed": rate})
    fig = figures.reach_figure(pd.DataFrame(rows))
    ax = fig.axes[1]
    for line in ax.get_lines():
        x = list(line.get_xdata())
        assert len(x) == len(set(x)), x  # one point per density on each line
    assert "first click zero" in ax.get_title()


def test_the_first_cell_map_gives_the_widest_wilson_interval_of_its_cells():
    """A review of the book: the title said "up to ±18 points" (the normal approximation at p = 1/2) where
    the Wilson intervals beside it, as everywhere else, are at most ±16.8 at 30 games."""
    from sweeplab.figures import FIGURES
    from sweeplab.stats import wilson_interval

    rows = []
    for r in range(2):
        for c in range(2):
            wins = 9 + 3 * r + c
            lo, hi = wilson_interval(wins, 30)
            rows.append({"row": r, "col": c, "first_click": "none", "games": 30, "wins": wins,
                         "win_rate": wins / 30, "ci_low": lo, "ci_high": hi})
    fig = FIGURES["000-first-cell"](pd.DataFrame(rows))
    widest = max((r["ci_high"] - r["ci_low"]) / 2 for r in rows)
    assert f"up to ±{100 * widest:.0f} points" in fig.axes[0].get_title() and round(100 * widest) == 17


def test_the_first_cell_map_names_the_columns_it_needs_and_draws_no_games():
    from sweeplab.figures import FIGURES

    rows = pd.DataFrame([{"row": 0, "col": 0, "games": 0, "win_rate": np.nan, "ci_low": np.nan,
                          "ci_high": np.nan}])
    assert "no games" in FIGURES["000-first-cell"](rows).axes[0].get_title()  # it said "±nan points"
    with pytest.raises(ValueError, match="ci_high"):  # a KeyError before
        FIGURES["000-first-cell"](rows.drop(columns=["ci_low", "ci_high"]))


def test_plot_proofs_centres_a_shorter_last_row_and_leaves_no_blank_panel():
    obs = Observation.from_text("???\n121")
    proofs = sweeplab.deduce(obs, "rref", proofs=True).proofs
    fig = sweeplab.plot_proofs(obs, [proofs[cell] for cell in sorted(proofs)], ncols=2)
    first, second, last = (ax.get_position() for ax in fig.axes)
    assert len(fig.axes) == 3 and all(ax.get_visible() for ax in fig.axes)
    assert last.y1 < min(first.y0, second.y0)
    middle = (last.x0 + last.x1) / 2
    assert first.x1 < middle < second.x0 and abs(middle - (first.x0 + second.x1) / 2) < 0.05
    plt.close(fig)


def test_score_and_share_bars_are_t_intervals_of_the_games_they_average():
    """A review (rev51d): the "95% interval" bars were 1.96 standard errors, about 10% too narrow on the
    12 games a point of the quick preset and 6.5 times on the smoke preset's 2."""
    from scipy.stats import t

    from sweeplab.figures import density_score_figure, scaling_figure

    df = pd.DataFrame({"agent": "basic", "noise": "none", "density": [0.1, 0.2], "games": [12, 2],
                       "mean_score": [0.8, 0.5], "sem_score": [0.02, 0.01]})
    ax = density_score_figure(df).axes[0]
    (low, high), = [np.array(seg)[:, 1] for seg in ax.containers[0].lines[2][0].get_segments()[:1]]
    assert high - 0.8 == pytest.approx(t.ppf(0.975, 11) * 0.02)
    high2 = np.array(ax.containers[0].lines[2][0].get_segments()[1])[:, 1].max()
    assert high2 - 0.5 == pytest.approx(t.ppf(0.975, 1) * 0.01)  # 12.7 standard errors, not 1.96
    rows = pd.DataFrame({"agent": "a", "sweep": "area", "area": [100, 400], "density": 0.1, "games": 12,
                         "mean_seconds": 0.01, "mean_revealed": [0.5, 0.99], "sem_revealed": 0.02})
    share = scaling_figure(rows).axes[1].containers[0].lines[2][0].get_segments()
    assert np.ptp(np.array(share[0])[:, 1]) == pytest.approx(2 * t.ppf(0.975, 11) * 0.02)
    assert np.array(share[1])[:, 1].max() == pytest.approx(1.0)  # cut at 1
    plt.close("all")
