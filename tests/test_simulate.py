"""The simulator: tidy rows, determinism, outcomes that mean what they say."""

import re
import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pandas as pd
import pytest

import sweeplab
from sweeplab.agents import Agent, Move, make_agent
from sweeplab.agents.base import random_covered
from sweeplab.simulate import RESULT_COLUMNS, play_game

OUTCOME = [c for c in RESULT_COLUMNS if not c.startswith("seconds")]  # timings differ run to run


def test_rows_columns_and_parameters():
    df = sweeplab.play("trivial", level="beginner", games=5, seed=3, first_click="zero")
    assert list(df.columns) == list(RESULT_COLUMNS)
    assert df["game"].tolist() == [0, 1, 2, 3, 4]
    assert (df[["agent", "level", "height", "width", "mines", "first_click"]].iloc[0].tolist()
            == ["trivial", "beginner", 9, 9, 10, "zero"])


def test_same_seed_same_games_and_chunking_does_not_matter():
    a = sweeplab.play("trivial", level="intermediate", games=12, seed=7)
    b = pd.concat([sweeplab.play("trivial", level="intermediate", games=5, seed=7),
                   sweeplab.play("trivial", level="intermediate", games=7, seed=7, start=5)],
                  ignore_index=True)
    pd.testing.assert_frame_equal(a[OUTCOME], b[OUTCOME])
    c = sweeplab.play("trivial", level="intermediate", games=12, seed=8)
    assert not a[OUTCOME].equals(c[OUTCOME])


def test_won_means_every_safe_cell_and_no_mine():
    df = sweeplab.play("trivial", level="beginner", games=40, seed=1)
    assert df["won"].any() and not df["won"].all()
    won = df[df["won"]]
    assert (won["revealed"] == 1).all() and (won["mines_hit"] == 0).all() and (won["score"] == 1).all()
    lost = df[~df["won"]]
    assert (lost["status"] == "lost").all() and (lost["mines_hit"] == 1).all()
    assert (df["wrong_claims"] == 0).all()  # the single-clue rule is sound
    assert (df["certain"] == df["certain_trivial"]).all()


def test_random_agent_never_wins_intermediate():
    # report 000 §2.1: "After trying 3000 times, we could not win the game even once"
    df = sweeplab.play("random", level="intermediate", games=300, seed=0, first_click="none")
    assert df["won"].sum() == 0
    assert (df["certain"] == 0).all()


def test_score_mode_plays_on_after_a_mine():
    df = sweeplab.play("trivial", level="beginner", games=30, seed=2, mode="score")
    assert (df["status"] == "won").all()  # every safe cell gets opened in the end
    assert (df["revealed"] == 1).all()
    hit = df["mines_hit"] > 0
    assert hit.any()
    assert np.allclose(df["score"], 1 - df["mines_hit"] / df["mines"])
    assert (df.loc[hit, "won"] == False).all()  # noqa: E712


def test_agent_gets_only_observations():
    seen = []

    class Spy(type(make_agent("trivial"))):
        def next_moves(self, obs, rng):
            seen.append((type(obs), type(rng)))
            return super().next_moves(obs, rng)

    game = sweeplab.new_game("beginner", seed=5)
    play_game(Spy(), game, np.random.default_rng(0))
    assert seen and set(seen) == {(sweeplab.Observation, np.random.Generator)}
    # an Observation holds the grid, the total and the noise kind: nothing reaches the layout
    assert sweeplab.Observation.__slots__ == ("_grid", "_mines", "_noise")


@pytest.mark.parametrize("via", ["play", "play_losses", "reach"])
def test_the_agents_generator_does_not_name_the_game(monkeypatch, via):
    """``default_rng(seed)`` kept the root seed and game index in ``seed_seq``, enough to rebuild a board."""
    import dataclasses

    from sweeplab.agents import basic
    from sweeplab.simulate import game_seeds

    seen = []

    @dataclasses.dataclass(frozen=True)
    class Spy(basic.TrivialAgent):
        def next_moves(self, obs, rng):
            seq = rng.bit_generator.seed_seq
            seen.append((seq.spawn_key, tuple(np.atleast_1d(seq.entropy).tolist()),
                         rng.bit_generator.state["state"]["state"]))
            return super().next_moves(obs, rng)

    agent = Spy(first_move="corner")
    root = 271828
    if via == "play":
        sweeplab.play(agent, level="beginner", games=3, seed=root)
    elif via == "play_losses":
        from sweeplab.losses import play_losses

        monkeypatch.setattr("sweeplab.losses.make_agent", lambda name: agent)
        play_losses("trivial", level="beginner", games=3, seed=root)
    else:
        from sweeplab.reach import _games

        for _, game, rng in _games((9, 9), 10, "zero", root, 0, 3):
            play_game(agent, game, rng)
    assert seen
    firsts = set()
    for spawn_key, entropy, _ in seen:
        assert spawn_key == () and root not in entropy
        firsts.add(entropy)
    assert len(firsts) == 3  # still one generator per game
    # each game's first move draws from the start of the agent's own stream, never the board's
    starts = []
    for _, entropy, state in seen:
        if not starts or entropy != starts[-1][0]:
            starts.append((entropy, state))
    agent_starts = {np.random.PCG64(game_seeds(root, i)[1]).state["state"]["state"] for i in range(3)}
    board_starts = {np.random.PCG64(game_seeds(root, i)[0]).state["state"]["state"] for i in range(3)}
    assert {state for _, state in starts} == agent_starts and not agent_starts & board_starts
    # the same draws as default_rng of the agent's seed: no documented rate moves
    for i in range(3):
        ss = game_seeds(root, i)[1]
        same = sweeplab.simulate.agent_generator(ss).random(5) == np.random.default_rng(ss).random(5)
        assert same.all()


def test_bad_parameters_raise():
    with pytest.raises(ValueError, match="unknown agent"):
        sweeplab.play("nope", level="beginner", games=1)
    with pytest.raises(ValueError):
        sweeplab.play("trivial", level="beginner", games=-1)
    with pytest.raises(ValueError, match="first_move"):
        sweeplab.play("trivial", level="beginner", games=1, first_move="middle")


@pytest.mark.parametrize("name", ["games", "seed", "start"])
@pytest.mark.parametrize("bad", [-1, 2.5, True, np.True_, "3", None])
def test_counts_must_be_non_negative_integers(name, bad):
    options = {"games": 1, "seed": 0, "start": 0, name: bad}
    with pytest.raises(ValueError, match=f"{name} must be a non-negative integer"):
        sweeplab.play("trivial", level="beginner", **options)


def test_integral_counts_of_any_integer_type_play_the_same_games():
    plain = sweeplab.play("trivial", level="beginner", games=3, seed=4, start=2)
    other = sweeplab.play("trivial", level="beginner", games=np.int64(3), seed=np.uint8(4), start=2.0)
    timing = [c for c in plain.columns if c.startswith("seconds")]
    pd.testing.assert_frame_equal(plain.drop(columns=timing), other.drop(columns=timing))


def test_a_generator_gives_the_root_seed():
    """SPEC §3: everything random takes a seed or a Generator; play refused a Generator."""
    from sweeplab.executor import root_seed

    seed = root_seed(np.random.default_rng(1))
    by_generator = sweeplab.play("trivial", level="beginner", games=3, seed=np.random.default_rng(1))
    by_integer = sweeplab.play("trivial", level="beginner", games=3, seed=seed)
    cols = [c for c in by_integer.columns if not c.startswith("seconds")]
    assert by_generator[cols].equals(by_integer[cols]) and set(by_generator["seed"]) == {seed}
    with pytest.raises(ValueError, match="non-negative integer, got .*a numpy Generator too"):
        sweeplab.play("trivial", level="beginner", games=3, seed=-1)
    # Generators give root seeds over the whole non-negative int64 range (2**63 values), so two generators
    # almost never share a run's games (mutation audit 4: a narrow range survived)
    drawn = [root_seed(np.random.default_rng(i)) for i in range(64)]
    assert len(set(drawn)) == 64 and max(drawn) > 2**62 and min(drawn) >= 0


def _nap(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def test_stopping_a_pool_early_ends_its_running_tasks_at_once():
    """Ctrl-C (or a caller closing the generator) waited for the tasks running: a minute on 500x500."""
    import contextlib

    from sweeplab.executor import run_tasks

    start = time.perf_counter()
    with contextlib.closing(run_tasks(_nap, [{"seconds": 0.05}, {"seconds": 60}, {"seconds": 60}],
                                      workers=2)) as results:
        assert next(results) == (0, 0.05)
    assert time.perf_counter() - start < 20


@pytest.mark.parametrize("kwargs, match", [
    ({"progress": "yes"}, "progress must be True or False, got 'yes'"),
    ({"first_click": "Zero"}, "first_click must be one of none, safe, zero"),
    ({"mode": "Score"}, "mode must be one of classic, score"),
    ({"first_move": (9, 9)}, r"first_move \(9, 9\) is outside the 9x9 board"),
])
@pytest.mark.parametrize("games", [0, 3])
def test_bad_rules_are_refused_before_any_game(kwargs, match, games):
    # also with no game to play: a sweep checks its points by playing none of them
    with pytest.raises(ValueError, match=match):
        sweeplab.play("trivial", level="beginner", games=games, **kwargs)


def test_zero_games_is_an_empty_table_with_every_column():
    one = sweeplab.play("trivial", level="beginner", games=1, seed=0)
    none = sweeplab.play("trivial", level="beginner", games=0, seed=0)
    assert none.empty and list(none.columns) == list(one.columns)


@pytest.mark.parametrize(("first_click", "mines", "message"), [
    ("safe", 9, "a safe first click needs mines <= cells - 1 = 8, got 9"),
    ("zero", 6, "a zero first click cannot fit: 6 mines on 3x3"),
])
def test_a_first_click_rule_that_cannot_fit_is_refused_before_any_game_starts(capsys, first_click, mines,
                                                                               message):
    with pytest.raises(ValueError, match=re.escape(message)):
        sweeplab.play("trivial", shape=(3, 3), mines=mines, first_click=first_click, games=2, progress=True)
    assert capsys.readouterr().err == ""  # no progress bar drawn first
    assert len(sweeplab.play("trivial", shape=(3, 3), mines=mines, first_click="none", games=2)) == 2


def _safe_corner_and_a_wrong_mine(obs, *, use_total=True):
    """A method with a bug: (0, 0) safe (true on the board below) and (0, 1) a mine (false)."""
    covered = obs.grid == sweeplab.positions.COVERED
    return {(0, 0)} & ({(0, 0)} if covered[0, 0] else set()), ({(0, 1)} if covered[0, 1] else set())


@pytest.mark.parametrize("sound", [True, False])
def test_a_wrong_flag_the_same_turn_makes_moot_is_a_wrong_claim(sound):
    """An adversarial review: on 0 0 1 * the safe (0, 0) is revealed first, its zero's flood opens (0, 1),
    and the same turn's wrong flag on (0, 1) was skipped, so it was never counted (and the game won)."""
    from sweeplab.noguess import solve_layout

    layout = np.array([[0, 0, 0, 1]], dtype=bool)
    sweeplab.register_method("test-moot-flag", _safe_corner_and_a_wrong_mine, sound=sound, complete=False)
    try:
        game = sweeplab.Game.from_layout(layout)
        row = play_game(make_agent("chain", methods=("test-moot-flag",), first_move=(0, 2)), game,
                        np.random.default_rng(0))
        assert game.status == "won" and row["flags"] == 0 and row["wrong_claims"] == 1
        if sound:  # generation, grading and reach: a sound method's wrong claim is its bug, said
            for convention in ("all", "reveal", "single"):
                with pytest.raises(sweeplab.errors.MethodBugError, match=r"claimed \(0, 1\) a mine"):
                    solve_layout(layout, (0, 2), "test-moot-flag", convention=convention)
    finally:
        sweeplab.unregister_method("test-moot-flag")


def test_an_opening_click_on_a_mine_is_not_a_wrong_claim():
    """The opening move is no method's claim: stepping on a mine with it is a loss, not a wrong claim."""
    layout = np.zeros((4, 4), dtype=bool)
    layout[0, 0] = True
    row = play_game(make_agent("trivial", first_move=(0, 0)), sweeplab.Game.from_layout(layout),
                    np.random.default_rng(0))
    assert row["mines_hit"] == 1 and not row["won"] and row["guesses"] == 0
    assert row["wrong_claims"] == 0


@pytest.mark.parametrize(("agent", "shape", "mines", "first_move", "message"), [
    ("trivial", (3, 3), 5, "centre", "a zero first click at (1, 1) cannot fit: 5 mines on 3x3"),
    ("trivial", (7, 7), 45, (3, 3), "a zero first click at (3, 3) cannot fit: 45 mines on 7x7"),
])
def test_a_chosen_first_cell_the_zero_rule_cannot_clear_is_refused_before_any_game(
        capsys, agent, shape, mines, first_move, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        sweeplab.play(agent, shape=shape, mines=mines, first_click="zero", first_move=first_move, games=2,
                      progress=True)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("agent", ["trivial", "best"])
def test_the_automatic_zero_start_takes_the_corner_when_the_mines_leave_no_room_elsewhere(agent):
    """(2, 2) and best's (3, 3) keep nine cells free: with 42 mines on 7x7 only a corner's four fit."""
    player = make_agent(agent, first_move="auto").for_rules(first_click="zero", shape=(7, 7), mines=42)
    assert player.first_move == "corner"
    games = sweeplab.play(agent, shape=(7, 7), mines=42, first_click="zero", first_move="auto", games=2)
    assert len(games) == 2
    roomier = make_agent(agent, first_move="auto").for_rules(first_click="zero", shape=(7, 7), mines=40)
    assert roomier.first_move in ((2, 2), (3, 3))


def test_the_rows_name_the_agent_options_so_runs_with_other_options_stay_apart():
    """``play``'s rows record the options given (tidy: parameters as columns), for any worker count, so
    two runs joined into one table are summarised apart rather than counted as one sample."""
    from sweeplab.stats import summarize

    plain = sweeplab.play("chain", level="beginner", games=4, seed=2)
    bare = sweeplab.play("chain", level="beginner", games=4, seed=2, methods=["trivial"], first_move=(0, 0))
    for workers in (1, 2):
        df = sweeplab.play("chain", level="beginner", games=4, seed=2, methods=["trivial"], workers=workers)
        assert df["options"].tolist() == ['methods=["trivial"]'] * 4
    assert (plain["options"] == "").all() and (bare["options"] == 'methods=["trivial"]').all()
    assert bare["first_move"].tolist() == ["corner"] * 4  # its own column (the cell by name), not an option
    table = summarize(pd.concat([plain, df], ignore_index=True))
    assert table["options"].tolist() == ["", 'methods=["trivial"]'] and table["games"].tolist() == [4, 4]
    assert summarize(df)["options"].tolist() == ['methods=["trivial"]']  # given: shown, even alone
    assert "options" not in summarize(plain)


def test_an_agent_object_is_named_by_its_settings_other_than_its_class_defaults():
    from sweeplab.agents.best import BestAgent

    for workers in (1, 2):
        tuned = sweeplab.play(BestAgent(lookahead=0), level="beginner", games=2, seed=0, workers=workers)
        assert tuned["options"].tolist() == ["lookahead=0"] * 2
    assert (sweeplab.play(BestAgent(), level="beginner", games=2, seed=0)["options"] == "").all()
    given = sweeplab.play(BestAgent(lookahead=0), level="beginner", games=2, seed=0, tolerance=0.01)
    assert (given["options"] == "lookahead=0 tolerance=0.01").all()


def test_a_board_of_mines_only_is_won_before_a_move():
    """A reviewer asked that it be refused; report 001's density sweep reaches density 1 (its summary leaves
    that point out), so it is kept, and said in play's docstring: a win is every safe cell open."""
    games = sweeplab.play("random", shape=(3, 3), mines=9, first_click="none", games=2, seed=0)
    assert games.won.all() and (games.moves == 0).all()
    assert "won before any move" in sweeplab.play.__doc__


def test_kernels_load_before_the_first_games_clock_starts():
    """A reviewer: the first game's ``seconds`` held the process's kernel loading (87 games/s for 50 games,
    923 for the same games again).  A built-in agent plays one untimed game first, once per process; a
    researcher's agent (it may keep state) plays only the games asked for."""
    from sweeplab import simulate

    def key(agent):
        return type(agent), agent.name, tuple(getattr(agent, "methods", ()))

    simulate._LOADED.discard(key(make_agent("trivial")))
    sweeplab.play("trivial", shape=(5, 5), mines=3, games=1, seed=0)
    assert key(make_agent("trivial")) in simulate._LOADED
    # a chain of other built-in methods loads other kernels: it plays its own first game
    chain = make_agent("chain", methods=["enumerate"])
    simulate._LOADED.discard(key(chain))
    sweeplab.play(make_agent("chain", methods=["trivial"]), shape=(5, 5), mines=3, games=1, seed=0)
    sweeplab.play(chain, shape=(5, 5), mines=3, games=1, seed=0)
    assert key(chain) in simulate._LOADED

    class Counting(type(make_agent("trivial"))):
        calls: ClassVar[list] = []

        def next_moves(self, obs, rng):
            self.calls.append(1)
            return super().next_moves(obs, rng)

    games = sweeplab.play(Counting(), shape=(5, 5), mines=3, games=2, seed=0)
    assert len(Counting.calls) <= games.moves.sum()  # no game of its own before the two asked for
    assert key(Counting()) not in simulate._LOADED


def test_a_registered_method_runs_only_in_the_games_asked_for():
    """A reviewer: a built-in chain agent ran a researcher's registered method in play's untimed warm-up
    game (15 calls on the first play of a process, 14 after)."""
    from sweeplab import simulate
    from sweeplab.agents.basic import ChainAgent

    calls = []

    def counting(obs, *, use_total=True):
        calls.append(1)
        return set(), set()

    sweeplab.register_method("test-counting", counting, sound=True, complete=False)
    try:
        agent = ChainAgent(methods=("test-counting", "trivial"))
        simulate._LOADED.discard((ChainAgent, agent.name, agent.methods))
        sweeplab.play(agent, level="beginner", games=2, seed=1)
        first = len(calls)
        calls.clear()
        sweeplab.play(agent, level="beginner", games=2, seed=1)
        assert first == len(calls) > 0
        # its built-in methods' kernels still load untimed: the warm-up game plays them alone
        assert (ChainAgent, agent.name, agent.methods) in simulate._LOADED
    finally:
        sweeplab.unregister_method("test-counting")



def _zeros_only(obs, *, use_total=True):
    return sweeplab.deduce(obs, "trivial", use_total=use_total).safe, set()


@dataclass(frozen=True)
class _OwnLoop(Agent):
    """Credits its moves to a registered method it calls itself, outside ``methods``."""

    methods: tuple[str, ...] = ()

    def next_moves(self, obs, rng):
        moves = [Move("reveal", r, c, "test-zeros-only")
                 for r, c in sorted(sweeplab.deduce(obs, "test-zeros-only").safe)]
        cell = None if moves else random_covered(obs.grid, rng)
        return moves or ([] if cell is None else [Move("reveal", *cell, "guess")])


def test_a_method_an_agent_credits_outside_its_chain_has_the_same_column_for_any_worker_count():
    """An adversarial review: with one worker a game in which such a method proved nothing had NaN (a float
    column), with two it had 0: the mean per game differed with the worker count (SPEC §5)."""
    sweeplab.register_method("test-zeros-only", _zeros_only, sound=True, complete=False)
    try:
        one = sweeplab.play(_OwnLoop(), level="beginner", games=12, seed=4, workers=1)
        two = sweeplab.play(_OwnLoop(), level="beginner", games=12, seed=4, workers=2)
    finally:
        sweeplab.unregister_method("test-zeros-only")
    assert (one["certain_test_zeros_only"] == 0).any()  # games in which it proved nothing
    assert one["certain_test_zeros_only"].dtype == np.int64
    timing = [c for c in one.columns if c.startswith("seconds")]
    pd.testing.assert_frame_equal(one.drop(columns=timing), two.drop(columns=timing))
