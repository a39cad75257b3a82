"""Issue 13: best-v1 reproduces the old best, the new best is sound and deterministic, loss causes."""

import hashlib
import itertools
from itertools import combinations

import numpy as np
import pandas.testing as pd_testing
import pytest

import sweeplab
from sweeplab import Observation
from sweeplab.agents import make_agent
from sweeplab.agents.best_v1 import endgame_layouts
from sweeplab.agents.lookahead import analyse_weighted, number_distribution
from sweeplab.game import new_game
from sweeplab.losses import CAUSES, classify_loss, loss_table, play_losses
from sweeplab.positions import COVERED, FLAG, MINE, NOCLUE, neighbour_table
from sweeplab.referee import referee
from sweeplab.simulate import game_seeds

# Recorded with `best` at commit 08c5ce4 (before issue 13): expert, root seed 2024, games 0..5,
# (status, moves that changed the board, sha256 of their repr).
OLD_BEST = {
    "safe": [("lost", 3, "359d5440fa0a"), ("lost", 2, "a4a0afbc7872"), ("won", 321, "e4d615182773"),
             ("won", 284, "97ecf2a8f272"), ("lost", 17, "f3fdfeb3af6b"), ("lost", 298, "7613f8a9e4c2")],
    "zero": [("won", 283, "8d58d73bc331"), ("won", 315, "09354f92fabe"), ("won", 317, "60cb76d12ad9"),
             ("won", 285, "ccfe8d3e44e7"), ("lost", 182, "85b3532176a7"), ("lost", 298, "ec663add9dc6")],
}


def fingerprint(agent_name, first_click, game_index, seed=2024):
    agent = make_agent(agent_name).for_rules(first_click=first_click, shape=(16, 30))
    board, agent_ss = game_seeds(seed, game_index)
    game = new_game(shape=(16, 30), mines=99, first_click=first_click, seed=board)
    played = referee(agent, game, np.random.default_rng(agent_ss))
    moves = [(p.move.kind, p.move.row, p.move.col) for p in played]
    return game.status, len(moves), hashlib.sha256(repr(moves).encode()).hexdigest()[:12]


@pytest.mark.parametrize("first_click", ["safe", "zero"])
def test_best_v1_plays_the_old_best_games(first_click):
    for i in (0, 2, 4):
        assert fingerprint("best-v1", first_click, i) == OLD_BEST[first_click][i]


def test_best_v1_is_registered_beside_best():
    assert make_agent("best-v1").name == "best-v1" and make_agent("best").name == "best"
    assert sweeplab.AGENTS["best-v1"].sound


def test_best_never_reads_the_layout():
    # Record every observation the agent saw in a real game, then ask again on bare copies
    # (no Game anywhere): the same observation and generator state give the same moves.
    agent = make_agent("best").for_rules(first_click="safe", shape=(16, 30))
    board, agent_ss = game_seeds(3, 1)
    game = new_game(shape=(16, 30), mines=99, first_click="safe", seed=board)
    rng = np.random.default_rng(agent_ss)
    seen = []

    class Recorder:
        name = "recorder"

        def next_moves(self, obs, rng):
            state = rng.bit_generator.state
            moves = agent.next_moves(obs, rng)
            seen.append((obs, state, moves))
            return moves

    list(referee(Recorder(), game, rng))
    assert len(seen) > 3
    for obs, state, moves in seen:
        bare = Observation(np.array(obs.grid), mines=obs.mines)
        again = np.random.default_rng(0)
        again.bit_generator.state = state
        assert agent.next_moves(bare, again) == moves


# The agent in another process, sent only the grid's codes, the total and its generator's state.
_ISOLATED_AGENT = """
import json, sys
import numpy as np
from sweeplab.agents import make_agent
from sweeplab.positions import Observation
rules = json.loads(sys.stdin.readline())
agent = make_agent("best").for_rules(first_click=rules["first_click"], shape=tuple(rules["shape"]),
                                     mines=rules["mines"])
for line in sys.stdin:
    msg = json.loads(line)
    if "state" in msg:
        bits = np.random.PCG64()
        bits.state = msg["state"]
        rng = np.random.Generator(bits)
        continue
    obs = Observation(np.array(msg["grid"], dtype=np.int8), mines=msg["mines"])
    print(json.dumps([list(m) for m in agent.next_moves(obs, rng)]), flush=True)
"""


@pytest.mark.parametrize("first_click", ["safe", "zero"])
def test_best_plays_the_same_games_in_a_process_without_the_game(first_click):
    # No Game, board seed or generator seed exists in the agent's process: if its moves needed
    # anything but the observation, these games would differ from sweeplab.play's.
    import json
    import subprocess
    import sys

    from sweeplab.agents.base import Move
    from sweeplab.simulate import agent_generator, play_game

    games, seed = 4, 5150
    child = subprocess.Popen([sys.executable, "-c", _ISOLATED_AGENT], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)

    def ask(message):
        child.stdin.write(json.dumps(message) + "\n")
        child.stdin.flush()

    class Isolated:
        name = "best"

        def next_moves(self, obs, rng):
            ask({"grid": obs.grid.tolist(), "mines": obs.mines})
            return [Move(*m) for m in json.loads(child.stdout.readline())]

    try:
        ask({"first_click": first_click, "shape": [16, 30], "mines": 99})
        rows = []
        for i in range(games):
            board, agent_ss = game_seeds(seed, i)
            ask({"state": agent_generator(agent_ss).bit_generator.state})
            game = new_game("expert", first_click=first_click, seed=board)
            out = play_game(Isolated(), game, np.random.default_rng(0))  # the proxy never draws
            rows.append((bool(out["won"]), out["moves"], out["guesses"], out["revealed"]))
    finally:
        child.stdin.close()
        child.wait(timeout=60)
    ref = sweeplab.play("best", level="expert", games=games, seed=seed, first_click=first_click)
    expected = zip(ref["won"].astype(bool), ref["moves"], ref["guesses"], ref["revealed"], strict=True)
    assert rows == list(expected)
    assert sum(r[1] for r in rows) > 20 * games  # real games, not lost at the first guess only


def test_best_is_deterministic_across_worker_counts():
    kwargs = dict(level="expert", games=12, seed=11, first_click="safe")
    one = sweeplab.play("best", workers=1, **kwargs)
    two = sweeplab.play("best", workers=2, **kwargs)
    timing = [c for c in one.columns if "seconds" in c]
    pd_testing.assert_frame_equal(one.drop(columns=timing), two.drop(columns=timing))


def brute_layouts(obs):
    flat = obs.grid.ravel()
    known = (flat == FLAG) | (flat == MINE)
    cov = np.flatnonzero(flat == COVERED)
    table = neighbour_table(obs.shape)
    out = []
    for chosen in combinations(cov.tolist(), obs.mines - int(known.sum())):
        m = known.copy()
        m[list(chosen)] = True
        if all(m[table[i][table[i] >= 0]].sum() == flat[i] for i in np.flatnonzero(flat >= 0)):
            out.append(m)
    return out


@pytest.mark.parametrize("text, mines", [
    ("1??.\n??2?\n????\n????", 4),
    ("1*?.\n??2?\n?F??\n????", 5),  # score mode: a shown mine and a flag count in every number
    ("??1?\n*?2?\n??F?\n1???", 5),
])
def test_number_distribution_is_exact(text, mines):
    obs = Observation.from_text(text, mines=mines)
    layouts = brute_layouts(obs)
    assert layouts
    a = analyse_weighted(obs)
    assert np.exp(a.log_layouts) == pytest.approx(len(layouts))
    table = neighbour_table(obs.shape)
    for cell in map(tuple, np.argwhere(obs.grid == COVERED).tolist()):
        i = cell[0] * 4 + cell[1]
        nb = table[i][table[i] >= 0]
        dist = number_distribution(obs, cell, base=a)
        truth = {}
        for m in layouts:
            if not m[i]:
                truth[int(m[nb].sum())] = truth.get(int(m[nb].sum()), 0) + 1 / len(layouts)
        assert {k: pytest.approx(v) for k, v in truth.items()} == {k: pk for k, (pk, _) in dist.items()}
    # the endgame's list of layouts is the same set, over the covered cells
    cells, listed = endgame_layouts(obs, max_cells=16, max_layouts=10_000)
    index = [r * 4 + c for r, c in cells]
    truth = sorted(tuple(m[index].astype(int).tolist()) for m in layouts)
    assert sorted(map(tuple, listed.astype(int).tolist())) == truth


def test_classify_loss_on_hand_made_positions():
    # a 50/50 (two layouts no clue tells apart)
    obs = Observation.from_text("??\n11\n..", mines=1)
    lay = np.array([[1, 0], [0, 0], [0, 0]], dtype=bool)
    assert classify_loss(obs, (0, 0), lay, endgame_cells=0, opening_share=0).cause == "coin flip"
    assert classify_loss(obs, (0, 0), lay).cause == "coin flip"  # unavoidable, in the endgame too
    # (0, 2) and (1, 2) are certainly safe (the "1" holds the only mine), yet (0, 1) was taken
    obs = Observation.from_text("1??\n???", mines=1)
    lay = np.zeros((2, 3), dtype=bool)
    lay[0, 1] = True
    assert classify_loss(obs, (0, 1), lay).cause == "certain cell skipped"
    # a frontier cell at 1/3 taken while an interior cell was safer
    text = "1?????\n??????\n??????\n??????\n??????\n??????"
    obs = Observation.from_text(text, mines=3)
    lay = np.zeros((6, 6), dtype=bool)
    lay[0, 1] = lay[5, 5] = lay[4, 4] = True
    loss = classify_loss(obs, (0, 1), lay, endgame_cells=0)
    assert loss.cause == "riskier than safest" and loss.place == "frontier" and loss.safest_was_safe
    loss = classify_loss(obs, (5, 5), lay, endgame_cells=0)
    assert loss.cause == "opening" and loss.place == "interior"
    untouched = Observation.from_text("??\n??", mines=1)
    assert classify_loss(untouched, (0, 0), np.eye(2, dtype=bool), first=True).cause == "first click"
    # the 1/3 frontier cell is within a tolerance of 0.5 of the safest: no longer "riskier"
    assert classify_loss(obs, (0, 1), lay, endgame_cells=0, tolerance=0.5).cause == "opening"
    # the endgame starts at endgame_cells covered cells, inclusive (35 here)
    assert classify_loss(obs, (5, 5), lay, endgame_cells=35).cause == "endgame"
    assert classify_loss(obs, (5, 5), lay, endgame_cells=34).cause == "opening"
    # the one cell of lowest probability was a mine: the safest was not safe (a layout drawn with it)
    from sweeplab.rollouts import sample_layouts
    from sweeplab.testing import random_positions

    checked = 0
    for pos in random_positions(300, seed=6, noise=False, arbitrary=0.0):
        if pos.mines is None or not (pos.grid == COVERED).any():
            continue
        p = np.where(pos.grid == COVERED, sweeplab.probabilities(pos), np.inf)
        low = np.argwhere(np.isclose(p, p.min())).tolist()
        if len(low) != 1 or not 0 < p.min() < 1:
            continue
        cell = tuple(low[0])
        lay = sample_layouts(pos, count=1, seed=0, given={cell: 1})[0]
        assert not classify_loss(pos, cell, lay).safest_was_safe
        checked += 1
    assert checked >= 3
    # the opened share counts the cells whose clue is lost ("-"): 5 of the 5 safe cells but the one taken
    lost = Observation.from_text("1-\n?-\n--", mines=1, noise="lost")
    lay = np.zeros((3, 2), dtype=bool)
    lay[1, 0] = True
    assert classify_loss(lost, (1, 0), lay).opened_share == pytest.approx(5 / 5)
    # inputs that do not fit together are refused (a 1-D layout read as a coin flip, opened share 2.0)
    misfits = [((0, 2), lay), ((0, 0), lay), ((0, 1), lay[0]), ((9, 9), lay), ((0, 1), lay & False)]
    for cell, layout in misfits:
        with pytest.raises(ValueError, match="layout has shape|must be a covered cell"):
            classify_loss(obs, cell, layout)
    # (0, 0) and (1, 0) are both exactly 1/9 a mine, computed 1e-17 apart: equally safe even at tolerance 0
    obs = Observation.from_text("???\n???\n???\n1??\n?1?", mines=2)
    lay = np.zeros((5, 3), dtype=bool)
    lay[0, 0] = lay[4, 0] = True
    loss = classify_loss(obs, (0, 0), lay, tolerance=0.0, endgame_cells=5, opening_share=0.5)
    assert loss.cause == "opening" and loss.p_chosen == pytest.approx(1 / 9) and loss.safest_was_safe


def test_play_losses_plays_the_same_games_and_tabulates():
    df = play_losses("best-v1", level="beginner", games=12, seed=4)
    ref = sweeplab.play("best-v1", level="beginner", games=12, seed=4)
    assert df["won"].tolist() == ref["won"].tolist()
    lost = df[~df["won"]]
    assert lost["cause"].isin(CAUSES).all() and df[df["won"]]["cause"].isna().all()
    table = loss_table(df)
    assert table["lost"].sum() == len(lost)
    assert table["share of losses"].sum() == pytest.approx(1.0, abs=1e-3)
    # a count stays a count beside the won games' missing values (it read 255.0)
    assert str(df["covered"].dtype) == "Int64" and str(df["safest_was_safe"].dtype) == "boolean"
    assert df["covered"].isna().tolist() == df["won"].tolist() and (lost["covered"] > 0).all()


def test_a_loss_on_a_wrong_claim_is_a_wrong_claim_not_a_skipped_cell():
    """A reviewer's case: lstsq's wrong claim was labelled "certain cell skipped" (a guess, documented)."""
    df = play_losses("lstsq", level="intermediate", games=1, start=64, seed=3, first_click="safe")
    assert df["cause"].tolist() == ["wrong claim"] and df["p_best"].tolist() == [0.0]
    ref = sweeplab.play("lstsq", level="intermediate", games=1, start=64, seed=3, first_click="safe")
    assert ref["wrong_claims"].tolist() == [1] and not ref["won"].any()
    many = play_losses("lstsq", level="intermediate", games=150, seed=3, first_click="safe")
    played = sweeplab.play("lstsq", level="intermediate", games=150, seed=3, first_click="safe")
    # every game lost on a claim is one the referee counted a wrong claim in
    claimed = set(many.loc[many["cause"] == "wrong claim", "game"])
    assert claimed and claimed <= set(played.loc[played["wrong_claims"] > 0, "game"])


def _endgames(n, *, seed=0, shape=(6, 7), mines=11, flag_share=0.0):
    """Small positions part-way through a game (a share of the mines flagged), with their layouts listed."""
    from sweeplab.agents.best import endgame_layouts

    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        game = new_game(shape=shape, mines=mines, first_click="safe", seed=int(rng.integers(2**32)))
        game.reveal(0, 0)
        safe = np.argwhere(~game.layout)
        rng.shuffle(safe)
        for r, c in safe[: rng.integers(2, len(safe) - 3)]:
            if game.status == "playing" and game.observation.grid[r, c] == COVERED:
                game.reveal(int(r), int(c))
        if game.status != "playing":
            continue
        for r, c in np.argwhere(game.layout & (rng.random(shape) < flag_share)):
            game.flag(int(r), int(c))
        obs = game.observation
        listed = endgame_layouts(obs, max_cells=40, max_layouts=2000)
        if listed is not None and listed[1].shape[0] > 1:
            out.append((obs, *listed))
    return out


def test_pruned_endgame_search_makes_the_same_choice():
    """Pruning (``best``, compiled) never changes the cell or the win probability of a completed
    search, over one or many 64-bit words of layouts."""
    from sweeplab.agents.best import endgame_choice

    compared, words = 0, set()
    for obs, cells, layouts in _endgames(60, seed=3) + _endgames(40, seed=4, shape=(6, 9), mines=14):
        plain = endgame_choice(obs, layouts, cells, budget=10**6)
        pruned = endgame_choice(obs, layouts, cells, budget=10**6, prune=True)
        assert (plain is None) == (pruned is None)
        if plain is not None:
            assert pruned[0] == plain[0]
            assert pruned[1] == pytest.approx(plain[1], abs=1e-12)
            compared += 1
            words.add(-(-len(layouts) // 64))
    assert compared > 60 and max(words) >= 3 and 1 in words


def test_pruned_endgame_search_gives_up_past_its_budget():
    """A search that needs more nodes than its budget returns None; with enough, the same answer."""
    from sweeplab.agents.best import endgame_choice

    answers = {}
    for budget in (1, 10, 100, 10**4, 10**6, 10**12):  # memory grows with the nodes, not the budget
        answers[budget] = [endgame_choice(obs, layouts, cells, budget=budget, prune=True)
                           for obs, cells, layouts in _endgames(30, seed=5)]
    assert all(a is None for a in answers[1])
    for small, large in itertools.pairwise(answers):
        assert all(b is None or a == b for a, b in zip(answers[large], answers[small], strict=True))
    obs, cells, layouts = _endgames(1, seed=5)[0]
    for budget in (2**63, 10**19, float("inf")):  # past int64: no budget, not a wrapped one
        assert endgame_choice(obs, layouts, cells, budget=budget, prune=True) == answers[10**12][0]
    assert endgame_choice(obs, layouts[:, :0], [], prune=True) is None  # no cells: no move
    given_up = [sum(a is None for a in answers[b]) for b in answers]
    assert given_up == sorted(given_up, reverse=True) and given_up[0] > given_up[-1] == 0


def test_unavoidable_coin_flips_are_symmetric_pairs_with_one_mine():
    """Every pair found is checked on the listed layouts: one mine of the two in each, swapping
    the two maps the layouts onto themselves, and every cell next to only one of them is off the
    board, flagged, a shown mine, a revealed cell without a number, or a mine in every layout
    (so no clue, shown or to come, can ever tell them apart)."""
    from sweeplab.agents.best import unavoidable_coin_flip

    found = 0
    for obs, cells, layouts in _endgames(400, seed=5, shape=(5, 6), mines=10, flag_share=0.3):
        cell = unavoidable_coin_flip(obs)
        if cell is None:
            continue
        found += 1
        col = {rc: j for j, rc in enumerate(cells)}
        a = col[cell]
        table = neighbour_table(obs.shape)
        w = obs.shape[1]
        flat = obs.grid.ravel()
        around = [set(table[i][table[i] >= 0].tolist()) for i in range(flat.size)]
        ia = cell[0] * w + cell[1]

        inert = np.isin(flat, [FLAG, MINE, NOCLUE])  # or covered and a mine in every layout:
        for (r, c), j in col.items():
            inert[r * w + c] = bool(np.all(layouts[:, j]))
        pairs = [j for j, (r, c) in enumerate(cells)
                 if r * w + c in around[ia] and j != a and np.all(layouts[:, a] ^ layouts[:, j])
                 and all(inert[i] for i in (around[ia] ^ around[r * w + c]) - {ia, r * w + c})]
        assert pairs, cell
        rows = {tuple(x) for x in layouts.tolist()}
        for b in pairs:
            swapped = layouts.copy()
            swapped[:, [a, b]] = swapped[:, [b, a]]
            assert {tuple(x) for x in swapped.tolist()} == rows, cell
    assert found >= 3


def test_a_coin_flip_that_a_later_clue_can_settle_is_not_taken_early():
    # (0, 1) and (0, 2) are 50/50, but (0, 3) touches only (0, 2): its number would tell them apart
    obs = Observation.from_text("F???\nF31-", mines=3)
    from sweeplab.agents.best import unavoidable_coin_flip

    p = sweeplab.probabilities(obs)
    assert p[0, 1] == pytest.approx(0.5)
    assert unavoidable_coin_flip(obs) is None
    # without the total each cell of a symmetric pair can look like 1/2 with no pair forced:
    # the check uses the exact probabilities with the total, whatever the agent was given
    loose = Observation.from_text("??\n22\n??\n22\n??\n--\n??", mines=3)
    assert unavoidable_coin_flip(loose) is None


def test_a_diagonal_pair_is_a_coin_flip_to_every_detector():
    # (0, 0) and (1, 1): one mine between them, both 3s see both, every other cell next to only
    # one of them is flagged, so no clue can ever tell them apart
    from sweeplab.agents.best import free_coin_flip_cells, unavoidable_coin_flip

    obs = Observation.from_text("?3F\n3?F\nFFF", mines=6)
    p = sweeplab.probabilities(obs)
    assert unavoidable_coin_flip(obs) == (0, 0)
    assert list(free_coin_flip_cells(obs, p)) == [(0, 0), (1, 1)]
    lay = np.isin(obs.grid, [FLAG, MINE])
    lay[1, 1] = True
    assert classify_loss(obs, (1, 1), lay).cause == "coin flip"


def test_free_coin_flips_lose_only_what_any_play_loses():
    """Each cell found (the agent's shortlist, and every covered cell tried) is matched on the listed
    layouts: every layout with it mined has its own twin, with it safe, that no clue shown or to come
    tells apart (every cell safe in both shows the same number), so any play loses one of each pair:
    at least P(cell mined), which is what guessing it costs."""
    from sweeplab.agents.best import free_coin_flip, free_coin_flip_cells

    found = pseudo = interior = 0
    for obs, cells, layouts in _endgames(300, seed=8, shape=(5, 6), mines=10, flag_share=0.3):
        p = sweeplab.probabilities(obs)
        every = list(free_coin_flip_cells(obs, p, cells=cells))
        first = free_coin_flip(obs, p)
        assert first is None or first in every
        w = obs.shape[1]
        table = neighbour_table(obs.shape)
        flat = obs.grid.ravel()
        col = {r * w + c: j for j, (r, c) in enumerate(cells)}
        known = np.isin(flat, [FLAG, MINE]).astype(int)
        shows = np.zeros((len(layouts), len(cells)), dtype=int)  # the number each covered cell shows
        for j, (r, c) in enumerate(cells):
            around = table[r * w + c][table[r * w + c] >= 0]
            shows[:, j] = known[around].sum() + layouts[:, [col[i] for i in around if i in col]].sum(axis=1)
        for cell in every:
            found += 1
            pseudo += bool(p[cell] < 0.5 - 1e-9)
            r0, c0 = max(cell[0] - 1, 0), max(cell[1] - 1, 0)
            interior += not bool(np.any(obs.grid[r0:cell[0] + 2, c0:cell[1] + 2] >= 0))  # no number near
            t = col[cell[0] * w + cell[1]]
            mined = np.flatnonzero(layouts[:, t])
            twins: dict = {}  # layout with the cell mined -> its twin, one to one (greedy)
            for m in mined:
                free = [k for k in np.flatnonzero(~layouts[:, t]) if k not in twins.values()
                        and np.all((shows[m] == shows[k]) | layouts[m] | layouts[k])]
                assert free, (cell, obs)  # a twin that no clue, shown or to come, tells from m
                twins[m] = free[0]
            # a game lost on it is lost to a coin flip, whatever the cell's probability
            lay = np.isin(obs.grid, [FLAG, MINE])
            for j, (r, c) in enumerate(cells):
                lay[r, c] = layouts[mined[0], j]
            skipped = np.nanmin(np.where(obs.grid == COVERED, p, np.nan)) == 0
            assert classify_loss(obs, cell, lay).cause == ("certain cell skipped" if skipped else "coin flip")
    assert found >= 60 and pseudo >= 10 and interior >= 1, (found, pseudo, interior)
    with pytest.raises(ValueError, match="outside"):
        next(free_coin_flip_cells(obs, p, cells=[(-1, 0)]))


def test_loss_causes_do_not_depend_on_the_machine_speed(request):
    """A starved machine (every time budget spent at once) classifies losses as an idle one does."""
    df = play_losses("best", level="beginner", games=60, seed=4)
    request.getfixturevalue("starved")
    again = play_losses("best", level="beginner", games=60, seed=4)
    assert (~df["won"]).sum() >= 3 and "unanalysed" not in set(again["cause"].dropna())
    pd_testing.assert_frame_equal(again, df)


def _guess_positions(count, *, seed, level="intermediate"):
    """Positions where ``best`` guesses, from its own games (no layout read)."""
    from sweeplab.game import LEVELS

    agent = make_agent("best").for_rules(first_click="safe", shape=LEVELS[level].shape)
    out = []
    seen = {}

    def remember(turn, obs):
        seen["obs"] = obs

    for i in range(200):
        board, agent_ss = game_seeds(seed, i)
        game = new_game(level, first_click="safe", seed=board)
        for p in referee(agent, game, np.random.default_rng(agent_ss), on_turn=remember):
            if p.move.source == "guess" and np.count_nonzero(seen["obs"].grid >= 0) > 1:
                out.append(seen["obs"])
        if len(out) >= count:
            return out[:count]
    return out


def test_wide_candidates_follow_their_rule():
    """Frontier cells at least 0.9 times as safe as the safest; cells off it only when safe enough."""
    from sweeplab.agents.base import frontier_mask
    from sweeplab.agents.best import wide_candidates

    checked_off = 0
    for obs in _guess_positions(25, seed=5):
        p = sweeplab.probabilities(obs)
        grid = obs.grid
        covered = grid == COVERED
        safe = np.where(covered, 1 - p, -np.inf)
        frontier = frontier_mask(grid)
        got = wide_candidates(grid, p)
        assert not (got & ~covered).any()
        np.testing.assert_array_equal(got & frontier, frontier & (safe >= 0.9 * safe.max() - 1e-12))
        np.testing.assert_array_equal(wide_candidates(grid, p, off_frontier=False), got & frontier)
        off = covered & ~frontier
        if (got & off).any():
            checked_off += 1
            assert safe[off].max() >= 0.95 * safe[frontier].max() - 1e-12
            if np.count_nonzero(off) >= 30:  # two cells from a number in a straight line
                for r, c in np.argwhere(got & off):
                    assert any(0 <= r + dr < grid.shape[0] and 0 <= c + dc < grid.shape[1]
                               and grid[r + dr, c + dc] >= 0
                               for dr, dc in ((2, 0), (-2, 0), (0, 2), (0, -2)))
    assert checked_off > 0


@pytest.mark.parametrize("candidates", ["wide", "frontier", "score"])
def test_two_step_keeps_the_best_exact_value(candidates):
    """The pruned two-step value: exact where given, and never skips the best candidate."""
    from sweeplab.agents.best import BestAgent, wide_candidates

    agent = BestAgent(candidates=candidates)
    compared = 0
    for obs in _guess_positions(12, seed=8):
        p = sweeplab.probabilities(obs)
        covered = obs.grid == COVERED
        rng = np.random.default_rng(0)
        cand = covered & (p <= p[covered].min() + agent.tolerance)
        score = np.where(cand, 1 - p + rng.random(p.shape) * 1e-3, -np.inf)  # any ranking will do
        cells = {int(i) for i in np.argsort(-score.ravel(), kind="stable")[: agent.lookahead]
                 if np.isfinite(score.flat[i])}
        if candidates != "score":
            wide = wide_candidates(obs.grid, p, off_frontier=candidates == "wide")
            cells |= set(np.flatnonzero(wide).tolist())
        if len(cells) < 2:
            continue
        exact = {}
        for i in cells:
            value = 0.0
            for pk, a in number_distribution(obs, divmod(i, obs.shape[1])).values():
                q = a.probabilities[np.isfinite(a.probabilities) & (a.probabilities < 1)]
                value += pk * (1.0 if a.safe or q.size == 0 else 1.0 - q.min())
            exact[i] = value
        out = agent._two_step(obs, p, score)
        valued = np.flatnonzero(np.isfinite(out.ravel()))
        assert set(valued.tolist()) <= cells
        for i in valued:
            assert out.flat[i] == pytest.approx(exact[int(i)], abs=1e-9)
        assert out.max() == pytest.approx(max(exact.values()), abs=1e-9)
        compared += 1
    assert compared >= 8


def test_best_rejects_unknown_options():
    with pytest.raises(ValueError, match="candidates must be one of"):
        make_agent("best", candidates="all")


@pytest.mark.parametrize(("level", "same_as", "other"), [
    ("expert", "wide", "frontier"), ("intermediate", "frontier", "wide"), ("beginner", "frontier", "score")])
def test_auto_candidates_are_wide_on_dense_boards_only(level, same_as, other):
    from sweeplab.agents.best import CANDIDATE_SETS, WIDE_DENSITY, BestAgent

    agents = {c: BestAgent(candidates=c) for c in CANDIDATE_SETS}
    assert BestAgent().candidates == "auto"
    differ = 0
    for obs in _guess_positions(8, seed=4, level=level):
        assert (obs.mines / obs.grid.size >= WIDE_DENSITY) == (level == "expert")
        p = sweeplab.probabilities(obs)
        covered = obs.grid == COVERED
        score = np.where(covered & (p <= p[covered].min() + agents["auto"].tolerance), 1 - p, -np.inf)
        values = {c: a._two_step(obs, p, score) for c, a in agents.items()}
        np.testing.assert_array_equal(values["auto"], values[same_as])
        differ += not np.array_equal(values[same_as], values[other])
    assert differ > 0  # the candidate sets do differ on these positions


def test_covered_regions_are_split_only_where_no_clue_links_them():
    from sweeplab.agents.best import covered_regions

    # (0, 0)-(0, 1) and (2, 3) both touch the 1 at (1, 2): one region
    assert covered_regions(Observation.from_text("??1.\n111.\n...?", mines=2).grid) == [[0, 1, 11]]
    # a wall of numbers two wide: no revealed number sees both sides
    obs = Observation.from_text("??F3??\n??F4??\n2FF311", mines=6)
    assert covered_regions(obs.grid) == [[0, 1, 6, 7], [4, 5, 10, 11]]


def _layouts_by_brute_force(obs):
    """Every layout of the covered cells that fits the clues and the total: (cells, bool array)."""
    flat = obs.grid.ravel()
    cov = np.flatnonzero(flat == COVERED)
    return cov, np.array([m[cov] for m in brute_layouts(obs)], dtype=bool)


def _game_values(obs, cells, layouts):
    """Win probability of each first reveal of ``cells`` by a plain game-tree search (no pruning)."""
    table = neighbour_table(obs.shape)
    flat = obs.grid.ravel()
    known = (flat == FLAG) | (flat == MINE)
    col = {int(i): j for j, i in enumerate(cells)}
    numbers = np.zeros(layouts.shape, dtype=int)
    for j, i in enumerate(cells):
        for nb in table[i][table[i] >= 0]:
            numbers[:, j] += layouts[:, col[int(nb)]] if int(nb) in col else known[nb]
    memo = {}

    def value_of(S, revealed, j):
        safe = [l for l in S if not layouts[l, j]]
        parts = {}
        for l in safe:
            parts.setdefault(numbers[l, j], []).append(l)
        return sum(len(P) * best(tuple(P), revealed | {j}) for P in parts.values()) / len(S)

    def best(S, revealed):
        if all(layouts[list(S), j].all() or not layouts[list(S), j].any() for j in range(len(cells))):
            return 1.0
        key = (S, revealed)
        if key not in memo:
            memo[key] = max(value_of(S, revealed, j) for j in range(len(cells))
                            if j not in revealed and not layouts[list(S), j].all())
        return memo[key]

    S = tuple(range(len(layouts)))
    return {divmod(int(i), obs.shape[1]): value_of(S, frozenset(), j) for j, i in enumerate(cells)
            if not layouts[:, j].all()}


def _pockets(seed):
    """Small positions with two pockets of covered cells (walls of numbers and flags between them)."""
    from sweeplab.positions import neighbour_sum

    rng = np.random.default_rng(seed)
    while True:
        layout = rng.random((3, 8)) < 0.3
        covered = np.zeros((3, 8), dtype=bool)
        covered[:2, :3] = rng.random((2, 3)) < 0.8
        covered[:2, 5:] = rng.random((2, 3)) < 0.8
        grid = neighbour_sum(layout.astype(float)).astype(int)
        grid[covered] = COVERED
        grid[layout & ~covered] = FLAG
        if covered.any():
            yield Observation(grid, mines=int(layout.sum()))


def test_isolated_region_moves_are_the_best_first_moves_of_the_whole_game():
    # On small positions with every layout listed by brute force: the move comes from the first
    # region (in order) whose mines number the same in every layout and that still needs a guess,
    # it is a best first move of the whole position (a plain game-tree search over every layout),
    # its win is the region's own, and that region's layouts are equally likely.
    from sweeplab.agents.best import covered_regions, isolated_region_move

    moves = nones = 0
    for obs in _pockets(seed=5):
        cells, layouts = _layouts_by_brute_force(obs)
        if not 0 < len(layouts) <= 60:
            continue
        expected = None
        for region in covered_regions(obs.grid):
            inside = np.isin(cells, region)
            restricted, completions = np.unique(layouts[:, inside], axis=0, return_counts=True)
            needs_guess = len(restricted) > 1 and not (~restricted).all(axis=0).any()
            if len(set(restricted.sum(axis=1).tolist())) == 1 and needs_guess and inside.sum() < len(cells):
                own = _game_values(obs, cells[inside], restricted)
                if max(own.values()) < 1.0:
                    assert len(set(completions.tolist())) == 1  # equally likely
                    expected = own
                    break
        move = isolated_region_move(obs)
        if expected is None:
            assert move is None
            nones += 1
            continue
        cell, win = move
        assert win == pytest.approx(expected[cell]) and win == pytest.approx(max(expected.values()))
        values = _game_values(obs, cells, layouts)
        assert values[cell] == pytest.approx(max(values.values()))
        moves += 1
        if moves == 25:
            break
    assert moves == 25 and nones > 0


def test_isolated_region_move_on_a_position_no_layout_fits():
    from sweeplab.agents.best import isolated_region_move

    # the 2 has a single covered neighbour: no layout fits (it crashed on the block without a layout)
    assert isolated_region_move(Observation.from_text("?2-?", mines=2)) is None


def test_isolated_regions_option_plays_and_stays_deterministic():
    kwargs = dict(level="expert", games=3, seed=11, first_click="safe", isolated_regions=True)
    one = sweeplab.play("best", workers=1, **kwargs)
    two = sweeplab.play("best", workers=2, **kwargs)
    cols = ["game", "won", "moves", "guesses", "revealed"]
    assert one[cols].equals(two[cols])


def _two_step_value(obs, cell, bonus, base):
    """The two-step value of the module notes, from each number the cell may show."""
    value = progress = 0.0
    for pk, after in number_distribution(obs, cell, base=base).values():
        if after.safe:
            value, progress = value + pk, progress + pk
        else:
            p = after.probabilities
            left = np.isfinite(p) & (p < 1.0)
            value += pk * (1.0 - float(p[left].min()) if left.any() else 1.0)
    return value + bonus * progress


def test_pruning_the_candidates_never_loses_the_best_two_step_value():
    """Candidates are valued safest first and the rest skipped once none can reach the best value; with a
    negative progress_bonus the bound was P(safe) (1 + bonus), below values some candidates reach."""
    from sweeplab.agents.best import BestAgent
    from sweeplab.testing import half_revealed

    checked = 0
    for seed in range(200):
        obs = half_revealed(9, density=0.2, seed=seed, revealed=0.15)
        d = sweeplab.deduce(obs, "enumerate", probabilities=True)
        if d.safe or d.mines:
            continue
        p = d.probabilities
        covered = np.isfinite(p) & (obs.grid == COVERED)
        base = analyse_weighted(obs)
        for bonus in (-0.6, -0.3, 0.0, 0.2):
            agent = BestAgent(progress_bonus=bonus, candidates="wide", lookahead=10**6)  # every covered cell
            values = agent._two_step(obs, p, np.where(covered, 1.0 - p, -np.inf))
            best = max(_two_step_value(obs, (int(r), int(c)), bonus, base) for r, c in np.argwhere(covered))
            assert values[np.isfinite(values)].max() == pytest.approx(best, abs=1e-9), (seed, bonus)
        checked += 1
    assert checked >= 10


def _share_by_layouts(obs, cell, layouts):
    """coin_flip_share's definition, counted over every layout (independent of the agent's code)."""
    h, w = obs.shape
    flat = obs.grid.ravel()
    n = len(layouts)
    stack = np.array(layouts)
    known = (flat == FLAG) | (flat == MINE) | ((flat == COVERED) & stack.all(axis=0))
    hidden = (flat == COVERED) & ~known
    remaining = obs.mines - int(known.sum())
    r, c = cell
    t = r * w + c

    def on(rr, cc):
        return 0 <= rr < h and 0 <= cc < w

    def near(a, b):
        return max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1

    def share(mines, safe, tellers):
        missing = [x for x in tellers if not known[x]]
        if any(flat[x] != COVERED for x in missing) or len(missing) > 3:
            return None
        if len(missing) + len(mines) > remaining:
            return None
        rows = stack[:, mines + missing].all(axis=1) & ~stack[:, safe].any(axis=1)
        return rows.sum() / n

    pairs = 0.0
    for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
        u = (r + dr, c + dc)
        if not on(*u) or not hidden[u[0] * w + u[1]]:
            continue
        tellers = [x * w + y for x in range(h) for y in range(w)
                   if (x, y) not in (cell, u) and near((x, y), cell) != near((x, y), u)]
        s = share([t], [u[0] * w + u[1]], tellers)
        pairs += s or 0.0
    box = 0.0
    for dr, dc in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        d, o1, o2 = (r + dr, c + dc), (r + dr, c), (r, c + dc)
        if not all(on(*x) and hidden[x[0] * w + x[1]] for x in (d, o1, o2)):
            continue
        quad = (cell, d, o1, o2)
        tellers = [x * w + y for x in range(h) for y in range(w) if (x, y) not in quad
                   and sum(near((x, y), q) for q in quad) == 1]
        s = share([t, d[0] * w + d[1]], [o1[0] * w + o1[1], o2[0] * w + o2[1]], tellers)
        box = max(box, s or 0.0)
    pm = stack[:, t].mean()
    return min(pairs + box, pm, 1 - pm)


def test_coin_flip_share_matches_a_count_over_every_layout():
    """The "50/50 influence" of best's option coin_flip_credit, against its definition on every layout."""
    from sweeplab.agents.best import coin_flip_share

    rng = np.random.default_rng(28)
    checked = 0
    for _ in range(40):
        game = new_game(shape=(4, 5), mines=int(rng.integers(3, 8)), first_click="safe", seed=rng)
        for _ in range(int(rng.integers(1, 4))):
            covered = np.argwhere(game.observation.grid == COVERED)
            r, c = covered[rng.integers(len(covered))]
            if game.layout is not None and game.layout[r, c]:
                continue
            game.reveal(int(r), int(c))
            if game.status != "playing":
                break
        obs = game.observation
        if game.status != "playing" or obs.mines - int((obs.grid == FLAG).sum()) > 7:
            continue
        layouts = brute_layouts(obs)
        base = analyse_weighted(obs)
        for cell in map(tuple, np.argwhere(obs.grid == COVERED).tolist()):
            truth = _share_by_layouts(obs, cell, layouts)
            got = coin_flip_share(obs, cell, base=base)
            assert got == pytest.approx(truth, abs=1e-12), (obs.to_text(), cell)
            checked += truth > 0
    assert checked >= 20  # the patterns occur: not a test of zeros only


def _midgame(seed, *, covered_at_most=90):
    """An expert position with at most ``covered_at_most`` covered cells: columns settled from the
    left (safe cells revealed, mines flagged), so a covered block with many layouts is left on the right."""
    game = new_game(shape=(16, 30), mines=99, first_click="safe", seed=seed)
    game.reveal(0, 0)
    for c in range(30):
        if np.count_nonzero(game.observation.grid == COVERED) <= covered_at_most:
            break
        for r in range(16):
            if game.observation.grid[r, c] == COVERED:
                if game.layout[r, c]:
                    game.flag(r, c)
                else:
                    game.reveal(r, c)
    return game.observation


def test_sampled_endgame_layouts_fit_the_position_and_are_uniform():
    from sweeplab.agents.best import sampled_endgame_layouts

    checked = 0
    for obs, cells, listed in _endgames(12, seed=8, shape=(6, 9), mines=14):
        count = 3000
        drawn = sampled_endgame_layouts(obs, count=count, rng=np.random.default_rng(1), max_cells=40,
                                        more_than=1)
        assert drawn is not None and drawn[0] == cells
        layouts = drawn[1]
        assert layouts.shape == (count, len(cells))
        # every draw is one of the layouts of the position (clues and total), and each cell is a mine
        # as often as in the list of them all (uniform over layouts), within 5 standard errors
        assert {row.tobytes() for row in layouts} <= {row.tobytes() for row in listed}
        exact = listed.mean(axis=0)
        spread = 5 * np.sqrt(exact * (1 - exact) / count) + 1e-9
        assert (np.abs(layouts.mean(axis=0) - exact) <= spread).all()
        # at most as many layouts as the position has: nothing to sample
        assert sampled_endgame_layouts(obs, count=10, rng=np.random.default_rng(1), max_cells=40,
                                       more_than=len(listed)) is None
        checked += 1
    assert checked == 12


def test_sampled_endgame_layouts_refuse_what_they_cannot_draw():
    from sweeplab.agents.best import sampled_endgame_layouts

    rng = np.random.default_rng(0)
    obs = _midgame(5)
    assert sampled_endgame_layouts(obs, count=5, rng=rng) is not None
    assert sampled_endgame_layouts(obs, count=5, rng=rng, max_cells=40) is None  # too many covered cells
    assert sampled_endgame_layouts(obs.with_mines(None), count=5, rng=rng) is None  # no total
    bounded = Observation(obs.grid, mines=obs.mines, noise="under")
    assert sampled_endgame_layouts(bounded, count=5, rng=rng) is None  # clues are bounds
    assert sampled_endgame_layouts(obs, count=5, rng=rng, max_solutions=1) is None  # too many solutions


def test_sampled_endgame_guesses_the_search_on_the_drawn_layouts():
    from sweeplab.agents.best import endgame_choice, sampled_endgame_layouts, unavoidable_coin_flip

    agent = make_agent("best", sampled_endgame=400).for_rules(first_click="safe", shape=(16, 30), mines=99)
    played = 0
    for seed in range(40):
        obs = _midgame(seed)
        p = sweeplab.probabilities(obs)
        drawn = sampled_endgame_layouts(obs, count=400, rng=np.random.default_rng(seed))
        if drawn is None or unavoidable_coin_flip(obs) is not None:
            continue
        choice = endgame_choice(obs, drawn[1], drawn[0], budget=agent.endgame_budget, prune=True)
        if choice is None:
            continue
        assert agent.guess(obs, np.random.default_rng(seed), p) == choice[0]
        played += 1
        if played == 3:
            break
    assert played == 3


def test_sampled_endgame_option_plays_and_stays_deterministic(monkeypatch):
    import sweeplab.agents.best as best

    drawn, draw = [], best.sampled_endgame_layouts

    def recorded(*args, **kwargs):
        drawn.append(draw(*args, **kwargs))
        return drawn[-1]

    monkeypatch.setattr(best, "sampled_endgame_layouts", recorded)
    kwargs = dict(level="expert", games=3, seed=11, first_click="safe", sampled_endgame=300)
    one = sweeplab.play("best", workers=1, **kwargs)
    assert any(d is not None for d in drawn)  # these games reach a position the option plays
    two = sweeplab.play("best", workers=2, **kwargs)
    cols = ["game", "won", "moves", "guesses", "revealed"]
    assert one[cols].equals(two[cols])
    with pytest.raises(ValueError, match="sampled_endgame"):
        make_agent("best", sampled_endgame=-1)
