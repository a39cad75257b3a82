"""Reach, the cascade and the solution-space geometry along games (issue 11 items 1, 2 and 4)."""

from __future__ import annotations

import itertools
import json
import logging
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import sympy

import sweeplab
from sweeplab import Game, InconsistentPositionError, Observation, experiments
from sweeplab.geometry import block_counts, geometry, log10_layouts
from sweeplab.noguess import CASCADE, ReachAgent, solve_layout
from sweeplab.positions import COVERED, neighbour_counts
from sweeplab.reach import (
    PUBLISHED_CASCADE,
    cascade_games,
    cascade_shares,
    geometry_games,
    geometry_summary,
    reach_games,
    reach_summary,
    run_games,
)
from sweeplab.stats import wilson_interval
from sweeplab.testing import random_positions

# ------------------------------------------------------------------------------------------ reach


def test_reach_agent_stops_at_the_first_guess():
    layout = np.zeros((2, 5), dtype=bool)
    layout[0, 4] = True  # the last column is a 50/50 for every method
    game = solve_layout(layout, (0, 0), "enumerate")
    assert game.status == "playing" and game.mines_hit == 0
    assert game.observation.grid[0, 4] == COVERED and game.observation.grid[1, 4] == COVERED
    assert game.revealed_fraction == pytest.approx(8 / 9)


def test_reach_rows_and_meaning():
    rows = reach_games(method="trivial", level="beginner", games=6, seed=3)
    assert len(rows) == 6 and rows["game"].tolist() == list(range(6))
    assert (rows["mines_hit"] == 0).all()
    assert (rows.loc[rows["won"], "revealed"] == 1).all()
    assert (rows.loc[~rows["won"], "revealed"] < 1).all()
    assert (rows["opening"] > 0).all() and (rows["opening"] <= rows["revealed"]).all()
    assert set(rows["first_move"]) == {"2,2"}  # "auto" under the zero rule


def test_exact_enumeration_reaches_every_game_a_sound_method_reaches():
    """The forced cells only grow as cells open, so enumerate's reach covers every sound method's."""
    kw = {"level": "beginner", "games": 12, "seed": 7, "first_click": "zero"}
    exact = reach_games(method="enumerate", **kw)
    for method in ("trivial", "subset", "rref", "gf2"):
        rows = reach_games(method=method, **kw)
        assert (~rows["won"] | exact["won"]).all(), method
        assert (rows["revealed"] <= exact["revealed"] + 1e-12).all(), method


def test_monotone_methods_reach_the_same_in_every_order_of_moves():
    kw = {"level": "beginner", "games": 6, "seed": 4}
    for method in ("trivial", "subset"):
        runs = [reach_games(method=method, convention=c, **kw) for c in ("all", "reveal", "single")]
        assert all((r["won"] == runs[0]["won"]).all() for r in runs), method
        assert all(np.allclose(r["revealed"], runs[0]["revealed"]) for r in runs), method
    with pytest.raises(ValueError, match="convention must be one of"):
        reach_games(method="rref", convention="sometimes", **kw)


def test_reach_summary_has_wilson_intervals():
    rows = reach_games(method="subset", level="beginner", games=8, seed=0, use_total=False)
    table = reach_summary(rows)
    assert len(table) == 1
    r = table.iloc[0]
    assert r.games == 8 and r.wins == rows["won"].sum()
    assert r.ci_low <= r.win_rate <= r.ci_high
    assert not r.use_total
    assert (r.ci_low, r.ci_high) == pytest.approx(wilson_interval(int(r.wins), 8))
    revealed = rows["revealed"].to_numpy(dtype=float)
    assert r.mean_revealed == pytest.approx(revealed.mean())
    assert r.sem_revealed == pytest.approx(np.sqrt(((revealed - revealed.mean()) ** 2).sum() / 7 / 8))


def test_reach_summary_names_the_columns_it_needs():
    """Rows that are not reach rows (a summary, a cascade table) gave pandas' "No group keys passed!"."""
    match = "reach_games rows .*'method', 'won', 'revealed'.* got columns \\['x'\\]"
    with pytest.raises(ValueError, match=match):
        reach_summary(pd.DataFrame({"x": [1]}))


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"method": "magic", "level": "beginner"}, "unknown method 'magic'"),
    ({"method": "lstsq", "level": "beginner"}, "not sound"),
    ({"method": "rref", "level": "giant"}, "unknown level"),
    ({"method": "rref", "level": "beginner", "games": -1}, "games must be"),
    ({"method": "rref", "level": "beginner", "use_total": "yes"}, "use_total"),
])
def test_reach_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        reach_games(**kwargs)


def test_reach_names_a_bad_density():
    # it named the mines it made of the density ("mines must be an integer within [0, 256], got 512")
    with pytest.raises(ValueError, match="density must be a number within \\[0, 1\\], got 2.0"):
        experiments.reach(methods=("rref",), levels=("beginner",), densities=(2.0,), games=2, workers=1)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"every": 0}, "every must be a positive integer, got 0"),
    ({"games": 2.5}, "games must be a non-negative integer, got 2.5"),
    ({"start": True}, "start must be a non-negative integer, got True"),
])
def test_geometry_bad_counts(kwargs, match):
    # the same count checks, and messages, as play and run_sweep (executor.check_count / check_positive)
    with pytest.raises(ValueError, match=match):
        geometry_games(**{"level": "beginner", "games": 1, **kwargs})


def test_run_games_resumes_and_does_not_depend_on_workers(tmp_path: Path, caplog):
    points = [{"method": "trivial", "level": "beginner"}, {"method": "subset", "shape": [8, 8], "mines": 9}]
    plain = run_games("reach", points, games=6, seed=2, chunk_size=2)
    out = tmp_path / "run"
    first = run_games("reach", points, games=6, seed=2, chunk_size=2, out=out, workers=2)
    chunks = sorted((out / "chunks").glob("*.parquet"))
    assert len(chunks) == 6
    chunks[3].unlink()
    chunks[0].write_bytes(b"broken")
    (out / "chunks" / "p0005-g000000000.parquet").write_bytes(chunks[1].read_bytes())  # no point 5
    with caplog.at_level(logging.WARNING, logger="sweeplab.reach"):
        again = run_games("reach", points, games=6, seed=2, out=out)
    said = [r.getMessage() for r in caplog.records]
    assert any("p0005-g000000000.parquet is not among the planned chunks of this run" in m for m in said)
    assert any(chunks[0].name in m and "recomputing" in m for m in said)
    cols = [c for c in plain.columns if c != "seconds"]
    assert plain[cols].equals(first[cols]) and plain[cols].equals(again[cols])
    with pytest.raises(ValueError, match="holds another run of run_games"):
        run_games("reach", points, games=7, seed=2, out=out)
    manifest = json.loads((out / "manifest.json").read_text())
    (out / "manifest.json").write_text(json.dumps({**manifest, "code": "0123456789abcdef"}))
    with pytest.raises(ValueError, match="started by other sweeplab code"):
        run_games("reach", points, games=6, seed=2, out=out)


def test_run_games_bad_points():
    with pytest.raises(ValueError, match="unknown kind"):
        run_games("nope", [{}], games=1)
    with pytest.raises(ValueError, match="unknown parameter"):
        run_games("reach", [{"method": "rref", "level": "beginner", "colour": 1}], games=1)
    with pytest.raises(ValueError, match="repeats point 0"):
        run_games("reach", [{"level": "beginner"}, {"level": "beginner"}], games=1)
    with pytest.raises(ValueError, match="unknown kind"):
        run_games(["reach"], [{}], games=1)
    with pytest.raises(ValueError, match="names, numbers and lists only"):
        run_games("reach", [{"method": {"rref"}, "level": "beginner"}], games=1)
    numpy_mines = run_games("reach", [{"method": "trivial", "shape": (9, 9), "mines": np.int64(10)}], games=1)
    assert numpy_mines["mines"].tolist() == [10]


# ---------------------------------------------------------------------------------------- cascade


def test_cascade_decisions_are_credited_to_the_first_method_that_proves_them():
    rows = cascade_games(level="beginner", games=5, seed=1)
    assert set(rows["source"]) <= {"first", "guess", *CASCADE}
    assert (rows.groupby("game")["move"].apply(lambda m: m.tolist() == list(range(len(m))))).all()
    firsts = rows[rows["move"] == 0]
    assert (firsts["source"] == "first").all() and len(firsts) == 5
    # replay: at every turn, the methods before the credited one prove nothing
    game = sweeplab.new_game("expert", first_click="zero", seed=sweeplab.simulate.game_seeds(3, 0)[0])
    agent = sweeplab.reach.CascadeAgent().for_rules(first_click="zero", shape=(16, 30))
    seen = {}
    played = sweeplab.referee.referee(agent, game, np.random.default_rng(0),
                                      on_turn=lambda turn, obs: seen.__setitem__(turn, obs))
    checked = 0
    for p in played:
        src = p.move.source
        if src in CASCADE:
            for weaker in CASCADE[: CASCADE.index(src)]:
                assert not sweeplab.deduce(seen[p.turn], weaker).cells, (src, weaker)
            checked += 1
    assert checked > 10


def test_cascade_shares_sum_to_one_and_carry_the_published_shares():
    rows = cascade_games(level="beginner", games=4, seed=0)
    table = cascade_shares(rows, move_bins=(1, 5, 20))
    overall = table[(table["scope"] == "game") & (table["group"] == "all")]
    assert overall["share"].sum() == pytest.approx(1.0)
    assert overall["cell_share"].sum() == pytest.approx(1.0)
    published = overall.set_index("source")["report"].dropna().to_dict()
    assert published == PUBLISHED_CASCADE
    for _, part in table[table["scope"] == "move"].groupby(["group", "move"]):
        assert part["share"].sum() == pytest.approx(1.0)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"by": "levle"}, "by='levle' is not a column of the cascade rows; choose from .*'level'"),
    ({"move_bins": ("a",)}, "move_bins must be move numbers .* got \\('a',\\)"),
    ({"move_bins": (True, 5)}, "move_bins must be move numbers .* got \\(True, 5\\)"),
])
def test_cascade_shares_bad_options_name_the_value(kwargs, match):
    """A misspelt ``by`` silently gave the pooled table alone, with no per-level rows."""
    rows = cascade_games(level="beginner", games=1, seed=0)
    with pytest.raises(ValueError, match=match):
        cascade_shares(rows, **kwargs)


def test_a_layout_decided_by_single_clue_rules_alone():
    layout = np.zeros((3, 4), dtype=bool)
    layout[0, 3] = True
    game = Game.from_layout(layout)
    agent = sweeplab.reach.CascadeAgent(first_move=(2, 0))
    sources = [p.move.source for p in sweeplab.referee.referee(agent, game, np.random.default_rng(0))]
    assert game.status == "won" and set(sources) <= {"first", "trivial"}


# --------------------------------------------------------------------------------------- geometry


def count_layouts(obs: Observation, use_total: bool) -> int:
    """Every 0/1 assignment of the covered cells checked against every clue and the total (plain loops)."""
    grid = np.asarray(obs.grid)
    cells = list(zip(*np.nonzero(grid == COVERED), strict=True))
    known = int(np.count_nonzero((grid == sweeplab.FLAG) | (grid == sweeplab.MINE)))
    total = 0
    for bits in itertools.product((0, 1), repeat=len(cells)):
        mines = np.isin(grid, (sweeplab.FLAG, sweeplab.MINE))
        for (r, c), b in zip(cells, bits, strict=True):
            mines[r, c] = bool(b)
        if use_total and obs.mines is not None and int(mines.sum()) != obs.mines:
            continue
        counts = neighbour_counts(mines)
        clues = grid >= 0
        if (counts[clues] == grid[clues]).all():
            total += 1
    assert known >= 0
    return total


def exact_positions(n: int, seed: int):
    for obs in random_positions(n, seed=seed, max_side=4, noise=False, arbitrary=0.0):
        if np.count_nonzero(obs.grid == COVERED) <= 12:
            yield obs


@pytest.mark.parametrize("use_total", [True, False])
def test_log10_layouts_is_the_plain_count(use_total):
    checked = 0
    for obs in exact_positions(60, seed=5):
        if not use_total and obs.mines is None:
            continue
        n = count_layouts(obs, use_total)
        if n == 0:
            with pytest.raises(InconsistentPositionError):
                log10_layouts(obs, use_total=use_total)
            continue
        got = log10_layouts(obs, use_total=use_total)
        assert got == pytest.approx(math.log10(n), abs=1e-9), obs.to_text()
        checked += 1
    assert checked >= 20


def test_block_counts_by_number_of_mines():
    counts, interior, remaining = block_counts(Observation.from_text("???\n121", mines=2))
    assert [c.tolist() for c in counts] == [[0.0, 0.0, 1.0, 0.0]] and interior == 0 and remaining == 2


def test_geometry_rank_is_the_exact_rank():
    for obs in exact_positions(40, seed=9):
        g = geometry(obs, use_total=False)
        system = sweeplab.clue_system(obs, use_total=False)
        exact = sympy.Matrix(system.A.tolist()).rank() if system.A.size else 0
        assert g.rank == exact and g.rank + g.nullity == g.n_frontier
        assert sum(g.components) == g.n_frontier
        assert g.n_frontier + g.n_interior == int(np.count_nonzero(obs.grid == COVERED))


def test_geometry_blocks_are_the_clue_systems_components_largest_first():
    assert geometry("1??1?\n?????", use_total=False).components == (5, 3)  # the 1s at (0,3) and (0,0)
    checked = 0
    for obs in random_positions(60, seed=4, max_side=9, noise=False, arbitrary=0.0):
        g = geometry(obs, use_total=False)
        sizes = sorted((c.n_frontier for c in sweeplab.clue_system(obs, use_total=False).components()),
                       reverse=True)
        assert list(g.components) == sizes and g.largest_component == (sizes[0] if sizes else 0)
        checked += len(set(sizes)) > 1
    assert checked >= 5  # positions with blocks of different sizes


def test_geometry_refuses_a_block_past_its_budget(monkeypatch):
    """A reviewer: a 300x300 board's block needed a 10 GiB dense copy for its rank, with no budget."""
    from sweeplab import geometry as geometry_module
    from sweeplab.errors import ComponentTooLargeError

    monkeypatch.setattr(geometry_module, "MAX_RANK_BYTES", 8 * 4 * 8 - 1)  # under a block of 4 clues x 8
    with pytest.raises(ComponentTooLargeError, match=r"a block of 8 frontier cells and 4 clues .* over "
                                                     r"MAX_RANK_BYTES"):
        geometry("??????\n?1122?", use_total=False)
    monkeypatch.setattr(geometry_module, "MAX_RANK_BYTES", 8 * 4 * 8)
    assert geometry("??????\n?1122?", use_total=False).rank == 4


def test_report_002_board_is_a_space_of_dimension_four():
    g = geometry("??????\n?1122?", use_total=False)
    assert (g.n_frontier, g.rank, g.nullity, g.components) == (8, 4, 4, (8,))


def test_geometry_along_games():
    rows = geometry_games(level="beginner", games=2, seed=0)
    assert len(rows) and set(rows["game"]) == {0, 1}
    assert ((rows["rank"] + rows["nullity"]) == rows["n_frontier"]).all()
    assert (rows["revealed"] > 0).all() and np.isfinite(rows["log10_layouts"]).all()


def test_reach_agent_is_an_agent_that_returns_no_guess():
    agent = ReachAgent(methods=("trivial",))
    assert agent.next_moves(Observation.from_text("1?\n??", mines=1), np.random.default_rng(0)) == []


def test_geometry_does_not_depend_on_the_machine_speed(request):
    """A starved machine (every time budget spent at once) counts the same layouts."""
    from sweeplab.geometry import geometry

    games = [sweeplab.new_game(level="expert", first_click="zero", seed=s) for s in range(3)]
    for g in games:
        g.reveal(8, 15)
    before = [geometry(g.observation) for g in games]
    request.getfixturevalue("starved")
    assert [geometry(g.observation) for g in games] == before
    assert all(np.isfinite(x.log10_layouts) for x in before)


def test_play_losses_takes_custom_boards_and_refuses_unknown_options():
    """shape= went on to classify_loss as an option (a TypeError there); the loss study needs a total."""
    from sweeplab.losses import classify_loss, play_losses
    from sweeplab.reach import cascade_games

    df = play_losses("trivial", shape=(6, 6), mines=5, games=6, seed=1)
    plain = sweeplab.play("trivial", shape=(6, 6), mines=5, games=6, seed=1)
    assert df["won"].tolist() == plain["won"].tolist() and df.loc[~df["won"], "cause"].notna().all()
    with pytest.raises(ValueError, match="play_losses has no option 'shapee'"):
        play_losses("trivial", level="beginner", games=1, shapee=3)
    with pytest.raises(ValueError, match="needs the total number of mines"):
        layout = np.array([[True, False], [False, False], [False, False]])
        classify_loss(sweeplab.Observation.from_text("??\n11\n.."), (0, 0), layout)
    with pytest.raises(ValueError, match="its cascade would count wrong claims"):
        cascade_games(methods=("lstsq",), level="beginner", games=1)
    with pytest.raises(ValueError, match=r"give mines= with shape=\(5, 5\)"):
        sweeplab.generate_board(shape=(5, 5))


@pytest.mark.parametrize("convention", ["all", "single"])
def test_a_method_refusing_a_position_is_marked_refused_not_stuck(convention):
    """A reviewer's case: brute refuses frontiers over 20 cells, and those games read as forced guesses."""
    from sweeplab.reach import reach_games, reach_summary

    kwargs = dict(level="beginner", games=12, seed=0, convention=convention)
    exact = reach_games(method="enumerate", **kwargs)
    brute = reach_games(method="brute", **kwargs)
    assert not exact["refused"].any() and brute["refused"].any()
    # where brute did not refuse it is enumeration, game by game (both complete)
    kept = ~brute["refused"].to_numpy()
    assert brute["won"][kept].tolist() == exact["won"][kept].tolist()
    assert not brute["won"][~kept].any()
    summary = reach_summary(brute)
    assert summary["refused"].tolist() == [int((~kept).sum())]


def test_run_games_refuses_two_reach_points_that_play_the_same_games():
    """A reviewer's case: written differently, the same 30 games were counted as 60 in reach_summary."""
    from sweeplab.reach import run_games

    same = [{"method": "trivial", "level": "beginner"},
            {"method": "trivial", "shape": [9, 9], "mines": 10, "first_move": [2, 2], "convention": "all",
             "use_total": True}]
    with pytest.raises(ValueError, match="point 1 .* plays the same games as point 0"):
        run_games("reach", same, games=3)
    other = [same[0], {**same[0], "first_click": "safe"}, {**same[0], "use_total": False}]
    assert run_games("reach", other, games=2)["point"].tolist() == [0, 0, 1, 1, 2, 2]


@pytest.mark.parametrize("kind", ["cascade", "geometry"])
def test_run_games_refuses_two_points_of_one_measure_on_the_same_games(kind):
    """The audit's case: a level and its shape and mines (or a default restated) were played twice, and
    cascade_shares and geometry_summary, which group by level, counted every game twice."""
    from sweeplab.reach import run_games

    for second in ({"shape": [9, 9], "mines": 10}, {"level": "beginner", "first_click": "zero"}):
        with pytest.raises(ValueError, match="point 1 .* plays the same games as point 0"):
            run_games(kind, [{"level": "beginner"}, second], games=2, workers=1, progress=False)
    other = [{"level": "beginner"}, {"level": "beginner", "first_click": "safe"}]
    assert sorted(set(run_games(kind, other, games=2, workers=1, progress=False)["point"])) == [0, 1]

@pytest.mark.parametrize("convention", ["all", "reveal", "single"])
def test_progress_counts_the_moves_the_game_records(convention):
    """Progress.reveals and .flags are the moves the game recorded after the opening (a cell a flood
    already opened is not revealed again); under "single" each question plays exactly one move."""
    from sweeplab.noguess import play_without_guessing

    rng = np.random.default_rng(4)
    played = 0
    for _ in range(12):
        layout = rng.random((8, 8)) < 0.12
        layout[:2, :2] = False
        game = Game.from_layout(layout)
        p = play_without_guessing(game, "trivial", (0, 0), convention=convention)
        kinds = [m[0] for m in game.moves]
        assert p.reveals == kinds.count("reveal") - 1 and p.flags == kinds.count("flag")
        if convention == "single":
            assert p.turns == p.reveals + p.flags
        played += p.turns
    assert played > 12  # the boards gave the method work


def test_the_total_can_cost_one_rref_pass_a_whole_game():
    """Notebook 14 quotes it: with a safe first click the total costs one RREF pass 8 of the 100
    intermediate games of the quick preset (+0/-8), such as game 7, which it wins without the total
    and abandons at 64% with it.  The total only ever helps the monotone methods: not here."""
    point = {"level": "intermediate", "first_click": "safe", "games": 1, "start": 7, "seed": 0}
    without = reach_games(method="rref", use_total=False, **point).iloc[0]
    with_total = reach_games(method="rref", use_total=True, **point).iloc[0]
    assert without["won"] and not with_total["won"]
    assert with_total["revealed"] == pytest.approx(0.6435, abs=1e-4)
    assert reach_games(method="enumerate", use_total=True, **point).iloc[0]["won"]


@pytest.mark.parametrize("measure", [lambda **kw: reach_games(method="trivial", **kw), cascade_games,
                                     geometry_games])
def test_auto_opening_is_the_corner_where_the_mines_leave_no_room_at_2_2(measure):
    """Under the zero rule "auto" opens at (2, 2) only when the mines leave its nine cells free, as in
    sweeplab.play: 20 mines on 5x5 fit around a corner zero (4 cells) but not around (2, 2)."""
    rows = measure(shape=(5, 5), mines=20, games=2, seed=0)  # before: ValueError, no room at (2, 2)
    assert set(rows["game"]) <= {0, 1}
    if "first_move" in rows:
        assert set(rows["first_move"]) == {"corner"}


@pytest.mark.parametrize("convention", ["all", "single"])
def test_an_opening_click_on_a_mine_opens_no_safe_cell(convention):
    """Under the "none" rule the first click can hit a mine: the game is lost with nothing open, and its
    ``opening`` share is 0, not the one cell (the mine) the reveal counted."""
    rows = reach_games(method="trivial", level="beginner", first_click="none", games=20, seed=5,
                       convention=convention)
    hit = rows[rows["mines_hit"] > 0]
    assert len(hit) == 1 and not hit["won"].any()  # game 10 of seed 5
    assert (hit["revealed"] == 0).all() and (hit["opening"] == 0).all()
    assert (rows["opening"] <= rows["revealed"]).all()


def test_summaries_keep_a_custom_board_which_has_no_level():
    """A custom board's rows have no level: the per-level summaries kept nothing of them (geometry's
    table was empty, the cascade's only had its "all" rows); now they are a group of their own."""
    geo = geometry_games(shape=(8, 8), mines=10, games=2, seed=0)
    table = geometry_summary(geo)
    nullity = table[table["quantity"] == "nullity"]
    assert len(nullity) == 1 and nullity["positions"].item() == len(geo) > 0
    assert nullity["median"].item() == float(np.median(geo["nullity"]))
    shares = cascade_shares(cascade_games(shape=(8, 8), mines=10, games=3, seed=0))
    assert len(shares) == 2 * len(set(shares["source"]))  # the board's group and "all"
    custom = shares[shares["group"] != "all"].set_index("source")["decisions"]
    assert custom.equals(shares[shares["group"] == "all"].set_index("source")["decisions"])
    with pytest.raises(ValueError, match=r"by='board' is not a column .* choose from \['level'"):
        geometry_summary(geo, by="board")


def test_play_losses_takes_a_generator_seed_as_play_does():
    """SPEC §3: everything random takes a seed or a Generator; play_losses refused the Generator that
    play takes, and plays play's games from it."""
    from sweeplab.losses import play_losses

    df = play_losses("trivial", level="beginner", games=4, seed=np.random.default_rng(0))
    plain = sweeplab.play("trivial", level="beginner", games=4, seed=np.random.default_rng(0))
    assert df["won"].tolist() == plain["won"].tolist()


@pytest.mark.parametrize(("option", "value"), [("tolerance", "x"), ("forced", 45), ("opening_share", None),
                                               ("endgame_cells", 2.5)])
def test_loss_thresholds_of_the_wrong_kind_are_named(option, value):
    """A threshold of the wrong kind was a TypeError deep in classify_loss, or nothing at all when no game
    was lost (play_losses classifies losses only)."""
    from sweeplab.losses import classify_loss, play_losses

    with pytest.raises(ValueError, match=rf"^{option} must be .*got {value!r}$"):
        play_losses("trivial", shape=(4, 4), mines=0, games=1, **{option: value})  # no loss to classify
    layout = np.array([[True, False], [False, False], [False, False]])
    with pytest.raises(ValueError, match=rf"^{option} must be"):
        classify_loss(Observation.from_text("??\n11\n..", mines=1), (0, 0), layout, **{option: value})


def test_loss_table_names_the_columns_for_an_unknown_by():
    """loss_table(by=...) of a column the rows do not have was a bare KeyError."""
    from sweeplab.losses import loss_table, play_losses

    df = play_losses("trivial", level="beginner", games=6, seed=2)
    assert loss_table(df, by="place")["lost"].sum() == (~df["won"]).sum()
    with pytest.raises(ValueError, match=r"by='reason' is not a column .* choose from \['guesses', 'cause'"):
        loss_table(df, by="reason")


def test_summaries_of_no_games_keep_their_columns():
    """reach_summary and geometry_summary of no rows gave a table without columns (tidy: the columns
    of any other run, with no rows)."""
    reach = reach_summary(reach_games(method="rref", level="beginner", games=0))
    assert len(reach) == 0
    assert list(reach.columns) == list(reach_summary(reach_games(method="rref", level="beginner",
                                                                   games=1)).columns)
    geo = geometry_summary(geometry_games(level="beginner", games=0))
    assert len(geo) == 0
    assert list(geo.columns) == list(geometry_summary(geometry_games(level="beginner", games=1)).columns)


def test_play_losses_reads_the_board_as_play_does():
    """A level and a shape together were played on the shape in silence (play refuses them); a level
    written (height, width, mines) was refused."""
    from sweeplab.losses import play_losses

    with pytest.raises(ValueError, match="give either a level or shape with mines/density, not both"):
        play_losses("trivial", level="beginner", shape=(6, 6), mines=5, games=1)
    tuple_level = play_losses("trivial", level=(6, 6, 5), games=4, seed=1)
    plain = sweeplab.play("trivial", shape=(6, 6), mines=5, games=4, seed=1)
    assert tuple_level["won"].tolist() == plain["won"].tolist()
    assert play_losses("trivial", games=1, seed=1)["won"].tolist() == sweeplab.play(
        "trivial", level="expert", games=1, seed=1)["won"].tolist()


def test_two_spellings_of_one_opening_are_one_point():
    """"corner" and (0, 0), "centre", "center" and the middle cell open the same cell and play the same
    games: they were labelled apart, so a summary showed each point twice (and play's tables too)."""
    from sweeplab.stats import summarize

    point = {"method": "trivial", "level": "beginner", "first_click": "safe", "games": 3, "seed": 4}
    for spellings, label in [(("corner", (0, 0)), "corner"), (("centre", "center", (4, 4)), "centre"),
                             (((2, 3),), "2,3")]:
        rows = pd.concat([reach_games(first_move=m, **point) for m in spellings], ignore_index=True)
        assert set(rows["first_move"]) == {label}
        played = pd.concat([sweeplab.play("trivial", level="beginner", first_move=m, games=3, seed=4)
                            for m in spellings], ignore_index=True)
        assert set(played["first_move"]) == {label}
        if len(spellings) > 1:  # the same games twice: a summary refuses to count them twice (a review)
            with pytest.raises(ValueError, match="repeat a game of the same point"):
                reach_summary(rows)
            with pytest.raises(ValueError, match="repeat a game of the same point"):
                summarize(played)
        columns = ["first_move", "seed", "game"]
        assert reach_summary(rows.drop_duplicates(columns))["games"].tolist() == [3]
        assert summarize(played.drop_duplicates(columns))["games"].tolist() == [3]
