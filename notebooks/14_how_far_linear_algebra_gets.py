# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 14. How far does linear algebra get, game by game?
#
# The bench (notebook 06) answers the project's question position by position. Players ask it game by
# game: *with only RREF, how many expert games can I finish without guessing? How much of a game does
# each method decide? Which method is strictly stronger than which, and what is the smallest board that
# shows it?* This notebook measures, with the library's experiments (`sweeplab.experiments`, the same
# tables as the report's section 014):
#
# 1. **reach**: the share of games a method wins alone, never guessing after the opening click;
# 2. **the cascade**: the share of a game's decisions made by trivial → subset → rref → bounded → lp →
#    enumerate → guess, beside the shares the project's brief quotes as published (single-clue rules about
#    88%, subset rules about 8%, under 2% guessed; it names no source);
# 3. **dominance** between the sound methods, with the smallest counterexamples;
# 4. the **geometry** of the solution space along games, measured (report 002 only imagines one: "the
#    space of possible solutions has dimension 68");
# 5. **boards graded by method**: `sweeplab.generate_board` and `sweeplab.grade`.

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
import pandas as pd

import sweeplab
from sweeplab import experiments, figures
from sweeplab.dominance import counterexamples
from sweeplab.noguess import solve_layout
from sweeplab.reach import geometry_summary, reach_games, reach_summary

PRESET = experiments.preset_from_env()
print(experiments.describe_preset(PRESET))
PRESET

# %% [markdown]
# ## 1. Reach: games won by one method alone
#
# A reach player (`sweeplab.noguess.ReachAgent`) clicks the opening, then applies every cell its one
# method proves (opens the safe ones, flags the mines) and asks again; it stops at the first position
# where the method proves nothing, where a player would have to guess. Every method plays the same boards
# (game *i* of the seed, as `sweeplab.play` deals them), first click "zero" then "safe", with and without
# the total number of mines. The runs are chunked and resumable (`sweeplab.reach.run_games`).

# %%
reach = experiments.run("014-reach", preset=PRESET)
fig = figures.reach_figure(reach)

# %%
levels = reach[(reach["sweep"] == "level") & reach["use_total"]]
levels.pivot_table(index="method", columns=["first_click", "board"], values="win_rate", sort=False).round(3)

# %% [markdown]
# One RREF pass is not monotone: what it proves depends on the reduced basis, so on the order in which the
# player learned the cells. The reach above applies every answer at once (safe cells opened, mines flagged);
# here the same intermediate games with the safe cells only, and one move per question.

# %%
n = 100 if PRESET != "smoke" else 5
orders = [reach_games(method="rref", level="intermediate", games=n, convention=c)
          for c in ("all", "reveal", "single")]
reach_summary(pd.concat(orders))[["method", "convention", "games", "win_rate", "ci_low", "ci_high",
                                  "mean_revealed"]]

# %% [markdown]
# Where does each method stop? One expert board, opened on a zero: the position where rref first
# proves nothing, and how far exact enumeration gets on the same board (here it wins without a guess).

# %%
game = sweeplab.new_game("expert", first_click="zero", seed=sweeplab.simulate.game_seeds(0, 7)[0])
game.reveal(2, 2)
layout = game.layout
fig, axes = plt.subplots(1, 2, figsize=(13, 4))
for ax, method in zip(axes, ("rref", "enumerate")):
    stuck = solve_layout(layout, (2, 2), method)
    sweeplab.plot_position(stuck.observation, ax=ax)
    ended = "won" if stuck.status == "won" else "stuck"
    ax.set_title(f"{method}: {ended}, {100 * stuck.revealed_fraction:.0f}% of the safe cells open")

# %% [markdown]
# ## 2. Who decides each cell: the cascade
#
# One player tries the methods weakest first and credits each decision (a cell opened or flagged; the
# cells a zero opens around it are not decisions) to the first method that proves it; it guesses only
# when every method, exact enumeration included, proves nothing.

# %%
cascade = experiments.run("014-cascade", preset=PRESET)
fig = figures.cascade_figure(cascade)

# %%
overall = cascade[(cascade["scope"] == "game") & (cascade["source"] != "first")]
overall.pivot_table(index="source", columns="group", values="share", sort=False).round(4).assign(
    published=overall[overall["group"] == "all"].set_index("source")["report"])

# %% [markdown]
# ## 3. Which method finds everything another finds?
#
# Method A *dominates* B when A proves every cell B proves, on every tested position (the committed
# corpus and random small positions). The Hasse diagram draws the order between the groups of
# equivalent methods; where a pair is not ordered, `sweeplab.examples` holds the smallest counterexample
# found by search (fewest covered cells, then smallest board), each checked by the tests against an
# independent SAT oracle.

# %%
dominance = experiments.run("014-dominance", preset=PRESET)
fig = figures.dominance_figure(dominance)

# %%
ce = counterexamples()
boards = {}  # one panel per board: a board that tells several pairs apart is drawn once
for pair in (("rref", "subset"), ("subset", "rref"), ("lp", "gfp"), ("bounded", "rref"), ("rref", "trivial"),
             ("lp", "enumerate")):
    if pair in ce:
        obs = ce[pair].observation
        boards.setdefault((obs.to_text(), obs.mines), []).append(pair)
fig, axes = plt.subplots(1, max(len(boards), 1), figsize=(3.2 * max(len(boards), 1), 3.2), squeeze=False)
for ax, pairs in zip(axes[0], boards.values()):
    a, b = pairs[0]
    ex = ce[(a, b)]
    found = sweeplab.deduce(ex.observation, b)
    missed = sweeplab.deduce(ex.observation, a).cells
    sweeplab.plot_position(ex.observation, ax=ax, safe=found.safe - missed, mines=found.mines - missed)
    ax.set_title("\n".join(f"{winner} beats {loser}" for loser, winner in pairs), fontsize=9)

# %% [markdown]
# ## 4. The solution space along a game
#
# For every position the cascade player meets: the rank and nullity of the frontier's clue matrix (the
# "dimension" of report 002), the number of mine layouts that fit the clues and the total, and the
# independent blocks of the frontier.

# %%
geometry = experiments.run("014-geometry", preset=PRESET)
fig = figures.geometry_figure(geometry)
geometry_summary(geometry).round(2)

# %% [markdown]
# ## 5. Boards graded by the method they need
#
# `sweeplab.generate_board` draws boards whose opening is a zero until the named method solves one from
# the opening without a guess (with the total), repairing stuck layouts by moving a mine away from where
# the player got stuck; `sweeplab.grade` names the weakest method of the cascade that solves a board, the
# first in the cascade's order. The methods before it fail; the ones after it need not succeed, as the order
# is not one of strength on whole boards: one RREF pass gets stuck on some boards single-clue rules finish.
# `sweeplab generate --level expert --solvable-by rref --count 10 --out boards/` writes them as
# `sweeplab.game` files.

# %%
board = sweeplab.generate_board("beginner", solvable_by="rref", exact_grade=True, seed=2)
fig, ax = plt.subplots(figsize=(3.5, 3.5))
start = sweeplab.Game.from_layout(board.layout)
start.reveal(*board.opening)
sweeplab.plot_position(start.observation, ax=ax)
ax.set_title(f"grade {board.grade}: opening {board.opening}", fontsize=9)
print(board, sweeplab.grade(board.layout, board.opening))

# %%
boards = experiments.run("014-boards", preset=PRESET)
fig = figures.boards_figure(boards)
boards

# %% [markdown]
# ## What the numbers say
#
# Measured at the `quick` preset (`sweeplab report`, section 014: 100 games per cell of the level
# table, Wilson 95% intervals of about ±10 points, and 40 per density cell, about ±15; the `full` preset
# plays 10,000 games per cell, resumable in `sweeps/`).
#
# - **Reach, first click on a zero, with the total.** Exact enumeration wins 97% of beginner, 64% of
#   intermediate and 14% of expert games without a single guess; that is the ceiling for every sound
#   method. The pair rule (`subset`) is almost there (94%, 64%, 10%), and so are bounds propagation
#   (`bounded`: 97%, 64%, 12%) and the LP relaxation (identical to enumeration on these games). *One pass
#   of RREF with the row bound rule* wins 83%, 40% and **0%** (beginner, intermediate, expert), fewer
#   than the pair rule, and GF(7) reduction wins as many (83%, 40%, 0%), though it does not prove the same
#   cells everywhere (each finds cells the other misses: `gfp-beats-rref` and `smallest-rref-beats-gfp` in
#   `sweeplab.examples`). Single-clue rules win 70%, 28%, 0%;
#   the null-space certificate (`lstsq-certified`) and GF(2) stop at 20%, 0%, 0%. So the answer to
#   "how many expert games can I finish with only RREF" is: almost none (0 of 100; under 4% at 95%);
#   RREF opens 30% of an expert board before its first forced guess, exact enumeration 61%.
# - **A safe first click** cuts everything by about half or more (beginner 97% → 51% for enumeration):
#   51%, 28%, 5% for enumeration, 39%, 14%, 0% for RREF, because a first click that shows a number is
#   often a guess already.
# - **The total** helps the strong methods on the same games (beginner 90% → 97% for enumeration, McNemar
#   p = 0.016 on these 100 games; intermediate 58% → 64%, p = 0.03; the LP relaxation and bounds
#   propagation alike, the pair rule by +5/−0 and +6/−0, p = 0.06 and 0.03; expert 9% → 14%, +5/−0,
#   p = 0.06, for enumeration and the LP relaxation). Each p-value is for one comparison: the table holds
#   over fifty with/without pairs, and none of these would survive a correction for that many. What settles
#   the direction for enumeration, the LP relaxation, the pair rule and single-clue rules is a theorem, not
#   these tests: the total is one more constraint, and their answers only grow with what they know, so no
#   game can go the other way (every pair above is +k/−0). Bounds propagation and one RREF pass have no
#   such guarantee. The total *costs* one RREF pass (and GF(7), which wins the same games) 8 intermediate
#   games with a safe first click, 22% → 14%, +0/−8, p = 0.008 (paired 95% interval −14 to −2 points), by
#   the same per-comparison standard the strongest effect of the table; elsewhere the differences are within
#   noise at 40-100 games: 16×16 at 0.20, 25% → 35% for enumeration (+4/−0 games, p = 0.13); one RREF pass
#   with the total, intermediate (zero start) 43% → 40% (+3/−6, p = 0.5) and 16×16 at 0.15 68% → 58%
#   (+2/−6, p = 0.3). More games settle the zero-start case: on 900 paired intermediate games
#   (`reach_games(method="rref", level="intermediate", use_total=..., games=300, seed=s)` for seeds 4242,
#   9191 and 5151) one RREF pass wins 45.8% with the total and 50.8% without (+59/−104, p = 0.0005), so
#   the total costs it there too. That the total can hurt one RREF pass is possible (the total row changes the
#   reduced basis, and the row bound rule reads a different set of rows), and it happens on single
#   positions: on notebook 12's board (beginner, seed 3, zero start,
#   the click at (4, 4)) one `rref` pass proves 11 cells with the total and 13 without. On the committed
#   corpus (`data/corpus/corpus-small.jsonl.gz`, its 323 positions with a known total and exact clues)
#   adding the total loses cells on 86 positions for one `rref` pass and for `gfp`. `bounded` reads the
#   reduced rows both with and without the total, so the total costs it nothing there (it gains cells on
#   33 positions); reading only the rows with the total, it lost cells on 14. The order of the moves
#   matters to RREF for the same reason: on the same 100 intermediate games it wins 40 applying each
#   answer at once, 37 opening the safe cells only or one move at a time
#   (`sweeplab.stats.paired_difference` tests any such pair).
# - **Against density** (16×16): every method finishes at least 90% of the games at 5% mines (all but
#   `lstsq-certified` and GF(2) 97.5% or more); at 15% (intermediate's
#   density) exact enumeration still finishes 78%, RREF 58% and single-clue rules 40%; at 25% none.
# - **The cascade** credits 88.3% of the decisions after the opening to single-clue rules (published about
#   88%), 10.5% to the pair rule (published about 8%) and 0.8% to guesses (published under 2%); RREF, the
#   LP relaxation and enumeration together decide half a percent: the linear algebra matters in the few
#   positions that decide whether a game is won, not in the bulk of the moves.
# - **Dominance.** The complete methods (`milp`, `enumerate`, `brute`) are above everything. Below them,
#   `lp` ⊇ `subset` ⊇ `trivial`, `lp` ⊇ `rref`, `bounded` ⊇ `trivial`, and `rref`, `gfp`, `bounded` ⊇
#   `lstsq-certified` on every tested position (every example of `sweeplab.examples`, the corpus and
#   random positions). Some of these orders are theorems: a claim of `trivial`, `subset` or one RREF pass
#   comes from a combination of clue rows whose bounds hold for cells anywhere in [0, 1], so the LP
#   relaxation proves it too, and a null-space certificate is a row of the row space, which RREF reduces to
#   that cell's unit row. The others are measured only: `gfp` ⊇ `lstsq-certified` would fail on a
#   certificate that needs a division by 7, as GF(2) fails on one that needs a half (below); no position
#   with one has turned up. Everything else is incomparable, even where it looks ordered: GF(2) misses cells
#   the certified least squares proves, where the combination of clues needs a half, and bounds propagation
#   misses cells a parity argument of GF(2) proves (adversarial searches on random boards found both, the
#   second on boards up to 10x10: 4 of 156,487 positions; the corpus never shows them); bounds propagation
#   misses a cell one RREF pass finds (smallest found: 13 covered cells), the LP relaxation misses cells
#   that bounds propagation (10 covered) and GF(2)/GF(7) (7 covered, no total) prove, and one RREF pass
#   misses cells next to a revealed zero (a column `?`, `.`, `?`, `.`, `?`, `?` with one mine: the zeros
#   prove three cells safe, 4 covered cells in all). The smallest
#   counterexample of all: two covered cells and no mine (`?` above `?`), where GF(2) and the certificate
#   see `x + y = 0` and cannot conclude.
# - **Geometry.** Along games the frontier's clue matrix leaves a median of 2, 5 and 9 free dimensions on
#   beginner, intermediate and expert (90th percentile 5, 9, 19; largest seen 65), and 10^0.9, 10^10 and
#   10^44 layouts fit what the player sees. Report 002's 68 is an illustration, not a measurement ("For
#   instance if we can conclude from 100 equations that now the space of possible solutions has
#   dimension 68"); it is above every expert position we met.
# - **Boards graded by method** come fast where the method is monotone: subset-solvable boards at about 330,
#   110 and 30 per second on beginner, intermediate and expert (one core, `benchmarks/board_generation.py`,
#   10 boards a level, idle machine, 2026-11-28, two runs; the table above is this run's, on this machine
#   and these few boards),
#   thanks to repairing the layout where the solver got stuck instead of drawing a new one. RREF boards
#   cost more (about 50, 8 and 0.75 per second, the same benchmark): one RREF pass is not monotone, so a board
#   is kept only when RREF and the board's grade (the first method of the cascade that solves it) solve it
#   under three ways of applying their answers (all at once, reveals only, one move at a time) and no method
#   below the grade solves it under any (`exact_grade=True` also requires every method weaker than RREF to
#   fail). That is not every order of moves: `sweeplab.boards` shows a board on which another order of proved
#   moves leaves `gfp` stuck with 32 cells still covered, every one forced (29 safe, 3 mines).
