# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 11. Beyond the reports: the best agent against the published win rates
#
# How often can a player who never sees the mines win Minesweeper? The strongest published solvers win
# (win = every safe cell opened):
#
# | level | first click safe, in a corner | first click always a zero |
# |---|---|---|
# | beginner 9×9/10 | 91.7% | 97.2% |
# | intermediate 16×16/40 | 78.2% | 89.1% |
# | expert 16×30/99 | 41.1% | 54.3% |
#
# These are the rates the project's brief (issues 4 and 13) quotes as published, from 10⁸ games (10⁷ for
# expert with a safe corner), without naming a source we could check; the public figures nearest them
# are at the end of "Results at scale" below.
#
# Our `best` agent (`sweeplab.AGENTS["best"]`) plays every forced cell first (single-clue rules, then exact
# enumeration with the total), and when it must guess it
#
# - takes at once a cell of a **coin flip no clue can ever settle** (it must be guessed anyway);
# - in the **endgame** (few layouts left) searches every sequence of reveals over the layouts themselves;
# - otherwise values the safest cells, and a few others whose number is likely to settle the frontier,
#   **two moves deep**: the chance the cell is safe and shows each number, counted exactly over the
#   layouts, times the safety of the best move that number leaves.
#
# `best-v1`, the first version (the number a cell will show drawn from independent neighbours, a smaller
# endgame), is kept so that the gain is measured on the same games: `gained` counts games only `best`
# won, `lost_vs_v1` games only `best-v1` won, and `gain` is the difference of the win rates with its
# paired 95% interval `gain_low`..`gain_high` and McNemar's p-value `gain_p`
# (`sweeplab.stats.paired_difference`). Each agent starts where it chooses from the rules: the corner
# under "first click safe"; on a guaranteed zero, `best` at (3, 3) on expert and (2, 2) on the smaller
# levels, `best-v1` at (2, 2) everywhere. Win-rate intervals are Wilson 95%.
#
# ## This run

# %%
# %matplotlib inline
import pandas as pd
from IPython.display import display

from sweeplab import experiments, figures, new_game
from sweeplab.losses import CAUSES
from sweeplab.rollouts import move_win_rates

PRESET = experiments.preset_from_env()
display(experiments.PresetNote(PRESET))
best = experiments.run("011-best", preset=PRESET)
best[["level", "first_click", "games", "win_rate", "ci_low", "ci_high", "v1_win_rate", "v1_ci_low",
      "v1_ci_high", "gained", "lost_vs_v1", "gain", "gain_low", "gain_high", "gain_p", "report",
      "games_per_cpu_s", "v1_games_per_cpu_s"]]

# %%
fig = figures.best_figure(best)

# %%
for row in best.itertuples():
    if row.ci_low > row.report:
        verdict = "above the published rate"
    elif row.ci_high < row.report:
        verdict = "below the published rate"
    else:
        verdict = "consistent with the published rate"
    print(f"{row.level:12s} first click {row.first_click}, {row.games:,} games: "
          f"best {100 * row.win_rate:5.1f}% [{100 * row.ci_low:.1f}, {100 * row.ci_high:.1f}], "
          f"best-v1 {100 * row.v1_win_rate:5.1f}% "
          f"[{100 * row.v1_ci_low:.1f}, {100 * row.v1_ci_high:.1f}] vs {100 * row.report:.1f}%: {verdict}")

# %% [markdown]
# At the smoke and quick presets each row is a few hundred games or fewer: intervals several points wide,
# and about one row in twenty lands outside its 95% interval by chance alone (at the quick preset, the
# first 300 beginner games of seed 0 with a safe corner are such a row: 96% where 3,000 games give 92.0%
# [90.9, 92.9]). Quote the large runs below, not these.
#
# ## Results at scale
#
# Every game the current `best` played on evaluation seeds (never used for tuning; three of them, named
# below, also decided the current defaults; the list is in `sweeplab.agents.best`'s docstring),
# `sweeplab play --agent best --workers 2`:
#
# | level | first click | `best` | games | published | target (issue 13) |
# |---|---|---|---|---|---|
# | beginner | safe, corner | 91.71% [91.46, 91.95] | 50,000 | 91.69% | not below |
# | beginner | zero | 97.16% [97.01, 97.30] | 50,000 | 97.17% | not below |
# | intermediate | safe, corner | 78.29% [77.93, 78.65] | 50,000 | 78.23% | not below |
# | intermediate | zero | 89.28% [89.00, 89.54] | 50,000 | 89.08% | not below |
# | expert | safe, corner | **40.71% [40.44, 40.99]** | 120,000 | 41.13% | 41.6% |
# | expert | zero, (3, 3) | **54.02% [53.80, 54.23]** | 200,000 | 54.3% | 54.8% |
#
# (Beginner and intermediate: seed 6337. Expert: seeds 4447, 3571 and 5120 with a safe corner, 7919, 9973,
# 2393, 8675 and 4096 with a zero start; without the three of them that also decided the current defaults,
# 7919, 9973 and 4447: 53.99% [53.71, 54.27] of 120,000 and 40.74% [40.40, 41.08] of 80,000.)
#
# So `best` matches the published rates on beginner and intermediate (every interval holds the published
# figure) and falls short on expert by 0.3-0.4 points, and by about 0.8-0.9 points of the project's
# target. The strongest published solver, JSMinesweeper, run unchanged on 40,000 of *our* expert boards,
# wins 41.16% [40.68, 41.64] with a safe corner (`best` on the same boards: 40.88% [40.39, 41.36]; the
# difference, +4,399/-4,285 games, is within noise, z = 1.2) and 54.84% [54.35, 55.33] with a zero start
# at (3, 3) (`best`: 54.42% [53.93, 54.90]; +2,025/-1,855, z = 2.7, a real lead of 0.4 points). It too
# would miss the 41.6% target with a safe corner. (These two runs cannot be repeated from this repository:
# they drove JSMinesweeper's own code under Node.js with a harness kept outside it, as that code is not ours
# to ship. Their boards are those of seed 2026, first played for evaluation and later also used to choose
# options.)
#
# **Speed.** `best` plays 62-73 expert games per CPU second with a safe corner and 52-54 with a zero start
# (`benchmarks/agent_speed.py --agents best --games 200 --repeat 2 [--first-click zero]`, idle machine,
# 2026-11-27, two sittings; the target is at least 30), and about 270-300 intermediate games. The columns
# `games_per_cpu_s` above are this run's, loss classification included.
#
# **Where the published figures come from.** The strongest published solver (David Hill's JSMinesweeper
# and its Java sibling) plays by the rules used here: mines placed uniformly on every cell but the
# first click, which is the corner (0, 0); a win is every safe cell opened, with the mine count known.
# Its zero start keeps the first cell and its neighbours free, at (3, 3) on expert. The JavaScript README
# gives 41% and 54.3% for the Java solver, the Java README 40% and 53%; the JavaScript code records bulk
# runs of 41.54% (12,500 games) and 41.31% (10,000) with a corner start, each about ±0.9 points at 95%.
#
# ## Where games are lost
#
# The referee classifies the move that lost each game (`sweeplab.losses`): the position the agent saw
# is analysed exactly afterwards; the agent never sees the layout. Per 100 games of this run, before
# (`best-v1`) and after (`best`):

# %%
losses = {
    (row["level"], row["first_click"], who): {c: 100 * row[prefix + c] / row["games"] for c in CAUSES}
    for _, row in best.iterrows()
    for who, prefix in (("best-v1", "v1 loss: "), ("best", "loss: "))
}
pd.DataFrame(losses).round(2)

# %% [markdown]
# On 4,000 games (`sweeplab.losses` on games 0–3,999 of seed 2026; `benchmarks/best_agent.py --games 4000
# --speed-games 0 [--first-click zero]`), in lost games per 100 played:
#
# | cause | best-v1, safe corner | best, safe corner | best-v1, zero start | best, zero start (3, 3) |
# |---|---|---|---|---|
# | opening (under 10% of the safe cells open) | 28.3 | 27.3 | 4.2 | 2.0 |
# | coin flip no play can avoid, or none safer than 0.45 | 12.5 | 13.9 | 17.5 | 20.4 |
# | endgame (40 covered cells or fewer) | 6.5 | 5.9 | 9.4 | 8.4 |
# | a cell riskier than the safest | 6.3 | 8.1 | 6.7 | 8.6 |
# | another guess on a safest cell | 7.2 | 5.3 | 10.8 | 7.9 |
# | won | 39.25% | 39.65% | 51.55% | 52.77% |
#
# With a safe corner start almost half the lost games are lost in the opening: the corner shows a number
# and the next guesses, nearly blind, are mines about one time in five. Coin flips (the mined side of
# two cells or two diagonals of a 2x2 box that no clue, shown or to come, can tell apart: the referee
# checks it exactly, `sweeplab.agents.best.free_coin_flip_cells`) come next. `best` loses fewer games on
# safest cells and more on slightly riskier ones: its two-step value takes a somewhat riskier cell when
# its number is likelier to settle the next move, and the losses count those it lost, not those it won
# (played out against a safest cell on 200 layouts each, 318 such guesses win 0.88 points more often,
# standard error 0.17). A zero start moves the losses from the opening to coin flips; (3, 3) opens more
# than (2, 2) and leaves 2.0 opening losses per 100 games.
#
# ## Where the strongest solver wins more
#
# On 10,000 of our expert boards (safe corner), letting JSMinesweeper choose only the guesses made while
# fewer than 60 cells are revealed, and `best` (as it was then) everything else, recovered most of their
# difference: the gap is in the opening. There `best` first valued exactly only the five cells its cheap
# score ranked first (corners, mostly); on 616 opening positions where the two solvers disagreed, `best`'s
# own exact two-step value preferred the other solver's cell 224 times and its own 57 times. So `best` now
# also values every frontier cell at least 0.9 times as safe as the safest, and on expert the cells two
# away from a number (`sweeplab.agents.best.wide_candidates`): +0.6 points with a safe corner start and
# +0.4 with a zero start on 20,000 tuning games. On intermediate the cells off the frontier lose 0.6 points
# (50,000 games), so they are valued only on boards at least 0.18 mines per cell dense
# (`candidates="auto"`, the default; expert is 0.206).
#
# What remains is spread thin. `sweeplab.rollouts.move_win_rates` plays each candidate move on the same
# layouts, drawn exactly from those that fit the position (`sample_layouts`), with `best` finishing every
# game. On 473 opening positions where the two solvers disagreed (80 layouts each), the other solver's
# choice won more by only a fraction of a point per decision: +0.52 points where `best`'s two-step values
# tie, +0.38 where `best` rates its own cell higher, +0.17 for a second corner rather than a cell two from
# the first number: about 0.3 points a game, in many small decisions. Here is one: the corner showed a 1,
# and the next guess is blind. Every candidate is equally safe, and the win rates differ by less than the
# noise (at 1,000 layouts each, `"full"` preset, all lay between 31.2% and 33.3%).

# %%
game = new_game("expert", first_click="safe", seed=1)
game.reveal(0, 0)
print(game.observation.to_text().splitlines()[0])
layouts = {"smoke": 10, "quick": 200, "full": 1000}[PRESET]
move_win_rates(game.observation, [(0, 2), (2, 0), (2, 2), (0, 29), (15, 29)], samples=layouts, seed=7,
               first_click="safe")

# %% [markdown]
# ## What was tried
#
# Each idea was measured on the same games with and without it (`sweeplab compare A B --level expert
# ...`): `+a/-b` counts the games only one side won. Tuning seeds chose; fresh seeds confirmed. The full
# record, with every seed and command, is the docstring of `sweeplab.agents.best`
# (`help(sweeplab.agents.best)`).
#
# | idea | expert games | effect | now |
# |---|---|---|---|
# | exact number distributions in the two-step value (against independent neighbours) | 1,000 | +7/-7 | kept (exact) |
# | wider candidates (frontier cells ≥ 0.9 × safest; cells two from a number) | 20,000 tuning | +0.6 points safe, +0.4 zero | default |
# | zero start at (3, 3) rather than (2, 2) | 40,000 fresh | +0.38 points | default on expert |
# | endgame search over 64 cells, 2,000 layouts, 300,000 nodes | 80,000 fresh, zero start | +0.17 points with the credit below (+1,022/-889) | default |
# | credit a guess whose mine would be half of a coin flip anyway (`coin_flip_credit`) | 40,000 tuning each | +0.22 zero start, -0.11 safe corner | default with a zero start only |
# | endgame over 4,000 layouts and 1,000,000 nodes | 80,000 fresh, zero start | +0.05 points (+113/-71, p = 0.002), 20% slower | option |
# | endgame search on 1,000 drawn layouts where there are too many (`sampled_endgame`) | 40,000 fresh | +245/-238 | option |
# | play a walled-in region by exhaustive search first (`isolated_regions`) | 20,000 tuning | +5/-4, 10-20% slower | option |
# | guess first a cell that is half of a coin flip no move can settle (`free_coin_flips`) | 2,000 tuning | +2/-4 | option |
# | the other solver's "50/50 influence", "dead cells last", "dominating tile", tie-breaks | 4,000-40,000 | within noise (the dominating tile never applied) | not kept |
# | three steps deep for close candidates; bonus for opening all neighbours | 4,000 tuning | +34/-34; +74/-84 | not kept |
# | deterministic tie-breaks (row-major first, nearest the first cell, ...) | 80,000 tuning | z = 2 on 40,000, reversed on the next 40,000 | random ties |
# | endgame search at the other solver's size (no cell limit, 10,000,000 nodes) | 6,000 | the same play in every game | limits never bind |
#
# After the wider candidates and the (3, 3) start, no idea gained more than 0.2 points on fresh games, and
# none closes the 0.9-point distance to the target with a safe corner, which the strongest published solver
# misses too.
#
# **How the measurements moved.** On fresh evaluation games, expert, safe corner / zero start:
#
# | `best` | games | safe corner | zero start | published |
# |---|---|---|---|---|
# | first version of the exact two-step value (seed 2026) | 40,000 each | 39.95% [39.48, 40.44] | 53.30% [52.81, 53.79], (2, 2) | 41.13% / 54.3% |
# | with the wider candidates (seed 3141) | 40,000 each | 40.77% [40.29, 41.25] | 53.92% [53.43, 54.41], (2, 2) | |
# | with a larger, compiled endgame (seed 8128) | 80,000 / 40,000 | 40.73% [40.39, 41.07] | 53.98% [53.49, 54.47], (3, 3) | |
# | today (pooled, above) | 120,000 / 200,000 | 40.71% [40.44, 40.99] | 54.02% [53.80, 54.23], (3, 3) | |
#
# `best` compiled its endgame search (the same choices, game for game) and the layout count behind its
# two-step value, so it plays faster than its first version despite doing more: 47 expert games per CPU
# second before the count was compiled, 85-92 with the smaller endgame, 52-73 today with the larger one.
