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
# The bench ([notebook 06](06_method_comparison.ipynb)) answers the project's question position by position.
# Players ask it game by game: *with only RREF, how many expert games can I finish without guessing? How much
# of a game does each method decide? Which method is strictly stronger than which, and what is the smallest
# board that shows it?* This notebook measures, with the library's experiments (`sweeplab.experiments`, the
# same tables as the report's section 014):
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
from IPython.display import display

import sweeplab
from sweeplab import experiments, figures
from sweeplab.dominance import counterexamples
from sweeplab.noguess import solve_layout
from sweeplab.reach import geometry_summary, published_share_text, reach_games, reach_summary

PRESET = experiments.preset_from_env()
display(experiments.PresetNote(PRESET))
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
brief = overall[overall["group"] == "all"].set_index("source")["report"].dropna()
overall.pivot_table(index="source", columns="group", values="share", sort=False).round(4).assign(
    **{"brief (no source)": {src: published_share_text(src, v) for src, v in brief.items()}})

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
fig.suptitle("circles: cells the winner proves safe, crosses: mines it proves (the loser misses both)",
             fontsize=10)
fig.tight_layout()

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
# the player got stuck; `sweeplab.grade` names the first method of the cascade, in its order, that solves a
# board. The methods before it fail; the ones after it need not succeed, as the order
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
# The level figures below come from a larger run than this notebook's: 1,000 games per cell, the boards
# of root seed 0 (`experiments.reach(games=1000)`, the same code as `sweeplab report`'s section 014 at
# 10 times the quick preset's games; Wilson 95% intervals of at most ±3.1 points; paired comparisons
# with `sweeplab.stats.paired_difference`, McNemar's exact p). The density, cascade, dominance and
# geometry figures are the `quick` preset's (40 games per density cell, about ±15 points; 300 cascade
# games); the `full` preset plays 10,000 games per cell, resumable in `sweeps/` (under `sweeplab report`, in
# the report's folder).
#
# - **Reach, first click on a zero, with the total.** Exact enumeration wins 92.9% of beginner, 70.5% of
#   intermediate and 13.4% of expert games without a single guess ([91.1, 94.3], [67.6, 73.2], [11.4,
#   15.7]); that is the ceiling for every sound method. The LP relaxation wins exactly the same games;
#   bounds propagation (`bounded`: 92.6%, 68.9%, 11.1%) and the pair rule (`subset`: 91.0%, 67.5%, 9.8%)
#   come close. *One pass of RREF with the row bound rule* wins 82.6%, 44.9% and **0.8%** (beginner,
#   intermediate, expert), well below the pair rule, and GF(7) reduction about as many (80.8%, 43.9%,
#   0.8%), though the two do not prove the same cells everywhere (each finds cells the other misses:
#   `gfp-beats-rref` and `smallest-rref-beats-gfp` in `sweeplab.examples`). Single-clue rules win 65.4%,
#   23.3%, 0.1%; the null-space certificate (`lstsq-certified`) and GF(2) 17.8%, 0%, 0%. So the answer to
#   "how many expert games can I finish with only RREF" is: almost none (8 of 1,000, [0.4%, 1.6%]);
#   RREF opens 30% of an expert board before its first forced guess, exact enumeration 63%.
# - **A safe first click** cuts everything by about half or more (beginner 92.9% → 52.9% for
#   enumeration): 52.9%, 35.8%, 4.4% for enumeration, 42.1%, 19.5%, 0.2% for one RREF pass, because a first
#   click that shows a number is often a guess already.
# - **The total** helps every method but one RREF pass and GF(7), on the same games, and never costs them a
#   game: with a zero start enumeration and the LP relaxation gain 6.2, 7.8 and 4.2 points (beginner,
#   intermediate, expert; +62/−0, +78/−0, +42/−0 games, p < 10⁻¹²), bounds propagation 6.2, 7.7 and 3.5, the
#   pair rule 4.5, 5.7 and 1.8, single-clue rules 0.3, 0.6 and 0 (the total settles the last cells); with a
#   safe first click enumeration gains 3.2, 3.4 and 1.0 points (+32/−0, +34/−0, +10/−0). For enumeration, the
#   LP relaxation, the pair rule and single-clue rules the direction is a theorem, not a test: the total is
#   one more constraint, and their answers only grow with what they know, so no game can go the other way.
#   Bounds propagation has no such guarantee, but it reads the reduced rows both with and without the total,
#   and lost no game to it here either. The total **costs** one RREF pass: with a zero start 83.2% → 82.6% on
#   beginner (+58/−64, p = 0.65), 49.1% → 44.9% on intermediate (+59/−101, p = 0.001, paired interval −6.7 to
#   −1.7 points) and 2.0% → 0.8% on expert (+3/−15, p = 0.008); with a safe first click 45.4% → 42.1%, 23.7% →
#   19.5% and 0.8% → 0.2% (+27/−60, +24/−66, +0/−6; p = 0.0005, 0.00001, 0.03). GF(7) loses the same way
#   (intermediate, zero start: 49.0% → 43.9%, +57/−108). The total row changes the reduced basis, and the row
#   bound rule then reads a different set of rows; it happens on single positions too: on
#   [notebook 12](12_explorer.ipynb)'s board (beginner, seed 3, zero start, the click at (4, 4)) one `rref`
#   pass proves 11 cells with the total and 13 without. On the committed corpus
#   (`data/corpus/corpus-small.jsonl.gz`, its 323 positions with a known total and exact clues) adding the
#   total loses cells on 86 positions for one `rref` pass and for `gfp`. `bounded` reads the reduced rows both
#   with and without the total, so the total costs it nothing there (it gains cells on 33 positions); reading
#   only the rows with the total, it lost cells on 14. The order of the moves matters to RREF for the same
#   reason: what one pass proves depends on the reduced basis, so on the order in which cells were
#   learned (`sweeplab.boards` shows a board where one order of proved moves leaves `gfp` stuck with 32
#   forced cells covered, 29 safe and 3 mines). Over whole games the effect is small: on 100 intermediate games (the cell
#   above, at the quick preset) RREF wins 40 applying each answer at once, 37 opening the safe cells only
#   or one move at a time, a difference noise explains (3 games apart; `sweeplab.stats.paired_difference`
#   tests such pairs).
# - **Against density** (16×16): every method finishes at least 90% of the games at 5% mines (all but
#   `lstsq-certified` and GF(2) 97.5% or more); at 15% (38 mines: near intermediate's 40, but another
#   board, and 40 games, about ±13 points) exact enumeration still finishes 78%, RREF 58% and single-clue
#   rules 40%; at 25% none.
# - **The cascade** credits 88.3% of the decisions after the opening to single-clue rules, pooled over the
#   three levels' zero-start games (92.6% on beginner, 92.9% on intermediate, 85.6% on expert, which
#   makes 62% of the decisions; the brief's unsourced figure: about 88%), 10.5% to the pair rule (about
#   8%) and 0.8% to guesses (under 2%); RREF, the
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
