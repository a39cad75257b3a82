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
# The strongest published solvers win (win = every safe cell opened):
#
# | level | first click safe, in a corner | first click always a zero |
# |---|---|---|
# | beginner 9×9/10 | 91.7% | 97.2% |
# | intermediate 16×16/40 | 78.2% | 89.1% |
# | expert 16×30/99 | 41.1% | 54.3% |
#
# Our `best` agent (`sweeplab.AGENTS["best"]`) uses exact probabilities weighted by the total, an
# exact two-step value of the safest cells (the number a cell will show is counted over the layouts,
# not drawn from independent neighbours) and an exhaustive endgame. `best-v1` is the agent before
# issue 13; both play the same games (same seeds), so their difference is measured in one run
# (`gained`: games only `best` won; `lost_vs_v1`: games only `best-v1` won; `gain`: the difference of the
# win rates, with its paired 95% interval `gain_low`..`gain_high` and McNemar's p-value `gain_p`, from
# `sweeplab.stats.paired_difference`). Each starts where it chooses from the rules: the corner under
# "first click safe"; on a guaranteed zero, `best` at (3, 3) on expert and (2, 2) on the smaller levels,
# `best-v1` at (2, 2) everywhere (so on an expert zero start their difference holds the first cell's too).
# Win-rate intervals are Wilson 95%.

# %%
# %matplotlib inline
import pandas as pd

from sweeplab import experiments, figures, new_game
from sweeplab.losses import CAUSES
from sweeplab.rollouts import move_win_rates

PRESET = experiments.preset_from_env()
print(experiments.describe_preset(PRESET))
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
    print(f"{row.level:12s} first click {row.first_click}: best {100 * row.win_rate:5.1f}% "
          f"[{100 * row.ci_low:.1f}, {100 * row.ci_high:.1f}], best-v1 {100 * row.v1_win_rate:5.1f}% "
          f"[{100 * row.v1_ci_low:.1f}, {100 * row.v1_ci_high:.1f}] vs {100 * row.report:.1f}%: {verdict}")

# %% [markdown]
# ## Where games are lost
#
# The referee classifies the move that lost each game (`sweeplab.losses`): the position the agent saw
# is analysed exactly afterwards; the agent never sees the layout. Per 100 games, before (`best-v1`)
# and after (`best`):

# %%
losses = {
    (row["level"], row["first_click"], who): {c: 100 * row[prefix + c] / row["games"] for c in CAUSES}
    for _, row in best.iterrows()
    for who, prefix in (("best-v1", "v1 loss: "), ("best", "loss: "))
}
pd.DataFrame(losses).round(2)

# %% [markdown]
# **Reading it.** The table above is this run's (few games at the smoke and quick presets). A larger
# run, `sweeplab.losses` on games 0–3,999 of seed 2026 with today's agents (`best` as it plays since
# session 29; `benchmarks/best_agent.py --games 4000 --speed-games 0 [--first-click zero]`, session 35),
# gives, in lost games per 100 played:
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
# its number is likelier to settle the next move, and the losses count those it lost, not those it won.
# A zero start moves the losses from the opening to coin flips; (3, 3) opens more than (2, 2) and leaves
# 2.0 opening losses per 100 games.
#
# **Where it stands.** Since session 29 `best` searches larger endgames and, on an expert zero start,
# credits a guess whose mine would be half of a coin flip anyway ("Fresh games decide", below). On every
# game this play has played on evaluation seeds (its side of the `sweeplab compare` runs of
# sessions 29-32), it won 54.02% [53.80, 54.23] of 200,000 expert zero-start games (seeds 7919, 9973,
# 2393, 8675 and 4096) and 40.71% [40.44, 40.99] of 120,000 safe-corner games (seeds 4447, 3571 and
# 5120); without the seeds that decided its defaults (7919, 9973, 4447), 53.99% [53.71, 54.27] of 120,000
# and 40.74% [40.40, 41.08] of 80,000. Both expert intervals lie below the published 54.3% and 41.13%.
# On 50,000 fresh games each (seed 6337, session 30) it won beginner 91.71% [91.46, 91.95] and 97.16%
# [97.01, 97.30], intermediate 78.29% [77.93, 78.65] and 89.28% [89.00, 89.54], each interval holding the
# published rate (91.69%, 97.17%, 78.23% and 89.08%). The play before (session 19, fresh seed 8128) won
# 40.73% [40.39, 41.07] of 80,000 expert games with a safe corner start and 53.98% [53.49, 54.47] of
# 40,000 with a zero start. It plays 62-73 expert games per CPU second with a safe corner and 52-54 with
# a zero start (`benchmarks/agent_speed.py --agents best --games 200 --repeat 2 [--first-click zero]`,
# idle machine, 2026-11-27, two sittings; the issue asks for at least 30). How it got there, measurement
# by measurement, is at the end of this notebook.
#
# **Where the expert figures come from.** The strongest published solver (David Hill's JSMinesweeper
# and its Java sibling) plays by the rules used here: mines placed uniformly on every cell but the
# first click, which is the corner (0, 0); a win is every safe cell opened, with the mine count known.
# Its zero start keeps the first cell and its neighbours free, at (3, 3) on expert. `best` started at
# (2, 2) until session 12; on expert (3, 3) wins 0.22 points more on 60,000 tuning games and 0.38 more on
# 40,000 fresh ones (seed 4242: 53.83% [53.34, 54.32] against 53.45%), while on intermediate and beginner it
# loses about 0.3, so `best` opens a zero at (3, 3) on expert only (`best`'s docstring, seventh round).
# The JavaScript README gives 41% and 54.3% for the Java solver, the Java README 40% and 53%; the
# JavaScript code records bulk runs of 41.54% (12,500 games) and 41.31% (10,000) with a corner start,
# of about ±0.9 points at 95%. `best` (40.71% [40.44, 40.99] and 54.02% [53.80, 54.23], above) is above
# the 40% and 53%, 0.3 points below the 41% and 54.3%, and 0.6-0.8 points below the JavaScript bulk runs.
#
# **Where the strongest solver wins more.** JSMinesweeper's solver, run unchanged under Node.js on our
# own boards (a diagnostic kept outside this package), wins 41.71% of 10,000 expert games (evaluation
# seed 2026, games 200,000–209,999, safe corner) where `best` as it was then won 40.03%: 1,001 games
# only it won, 833 only `best` won. On 12,500 of its own boards it wins 41.33% and `best` 39.68%. So the
# gap is real, and not in the rules. Letting it choose only the guesses made while fewer than 60 cells
# are revealed, and `best` everything else, wins 41.32%: most of the gap is in the opening. There `best`
# valued exactly only the five cells its cheap score ranked first (corners, mostly). It missed frontier
# cells whose every number makes another cell safe, and cells two away from a number beside a small
# opening. On 616 opening positions where the two solvers disagreed, `best`'s own exact two-step value
# preferred the other solver's cell 224 times and its own 57 times. `best` now values those cells too
# (`sweeplab.agents.best.wide_candidates`): on 20,000 tuning games (seed 1000) +0.6 points with a safe
# corner start (+2,067/-1,947 games) and +0.4 with a zero start (+661/-576). On the 10,000 boards above
# the other solver's opening guesses still add 0.75 points to it (+916/-841 games). On intermediate the
# wider candidates lose 0.6 points (50,000 games, +3,775/-4,090). The loss is all in the cells off the
# frontier: valuing only the extra frontier cells gains there (+0.16 points on 110,000 intermediate games,
# tuning and fresh, safe corner) and loses nowhere. So `best` values the extra frontier cells on every
# board, and the cells off the frontier only on boards at least as dense as 0.18 mines per cell
# (`candidates="auto"`, the default; expert is 0.206).
#
# **How much one choice is worth.** The gap is spread thin. `sweeplab.rollouts.move_win_rates` plays
# each candidate move on the same layouts, drawn exactly from those that fit the position
# (`sample_layouts`), with `best` finishing every game. Run on 473 opening positions where the two
# solvers disagreed (80 layouts each, `best`'s docstring, fifth round), the other solver's choice won
# more by only a fraction of a point per decision: +0.52 points where `best`'s two-step values tie, +0.38
# where `best` rates its own cell higher, +0.17 for a second corner rather than a cell two from the
# first number. That is about 0.3 points a game. Here is one decision: the corner showed a 1, and the
# next guess is blind. Every candidate is equally safe, and the win rates differ by less than the noise
# (at 1,000 layouts each, `"full"` preset, all lay between 31.2% and 33.3%).

# %%
game = new_game("expert", first_click="safe", seed=1)
game.reveal(0, 0)
print(game.observation.to_text().splitlines()[0])
layouts = {"smoke": 10, "quick": 200, "full": 1000}[PRESET]
move_win_rates(game.observation, [(0, 2), (2, 0), (2, 2), (0, 29), (15, 29)], samples=layouts, seed=7)

# %% [markdown]
# **Two rules of the other solver that changed nothing (session 18).** It plays a walled-in region first
# (covered cells that no clue links to the rest, whose mine count the total fixes) by searching every
# way to play it over its layouts: there the search gives a best move of the whole game. `best` can do
# the same (`isolated_regions=True`, `sweeplab.agents.best.isolated_region_move`); on 20,000 expert
# tuning games (root seed 1000, games 200,000–219,999, safe corner) the rule applies in about one game
# in eight, yet only 9 games end differently (+5/-4), at 10–20% less speed, so it stays off: the guess
# rules lose next to nothing in such regions. Valuing also the cells off the frontier
# with at most three covered neighbours (the untouched corners, cells walled in by flags) changed 14 of
# the same games (+4/-10). So neither of these rules closes the gap.
#
# **Two checks of what `best` keeps (session 27; tuning seed 1031, safe corner).** Its endgame search at
# the other solver's size (no limit on the cells, 10 million nodes, the same 1,000 layouts) plays the same
# as the default limits in 6,000 of 6,000 expert games: the limits never bind. And the guesses where
# `best` takes a cell more than 0.02 riskier than the safest (318 of them in 1,500 games, 11 to 400 cells
# revealed) are right: played out against a safest cell on 200 layouts each, the riskier cell wins 0.88
# points more often (standard error 0.17). They are among the "riskier than the safest" losses of the
# table above (which counts every guess more than 0.005 riskier): the price of guesses that win more games
# than they lose.
#
# **The strongest solver on 40,000 of our boards (session 28).** Its 41.71% on 10,000 boards was at the
# lucky end. Run unchanged on 30,000 more of the same seed (2026, games 210,000–239,999, safe corner) it
# won 40.98%, and `best` 40.84%. Over all 40,000 boards it wins 41.16% [40.68, 41.64] and `best` 40.88%
# [40.39, 41.36]: 4,399 games only it won and 4,285 only `best` won, a gap of 0.29 points that noise
# explains (z = 1.2). With a zero start at (3, 3) (40,000 boards, games 300,000–339,999) it wins
# 54.84% [54.35, 55.33] and `best` 54.42% [53.93, 54.90] (+2,025/-1,855, z = 2.7): there its lead of 0.4
# points is real, and since a zero start leaves fewer guesses in the opening, not all of it is there. With a
# safe corner, then, the strongest published solver itself would not pass issue 13's bar of 41.6% (its own
# estimate is 0.4 points below it), and `best` is within noise of it. Switching off its parts one at a time on
# the same boards shows no part alone clearly worth anything. Dropping its 50/50 influence and long-term-risk
# candidates costs 0.26 points (40,000 boards, z = -1.3). Dropping the cells off the frontier from its
# candidates costs 0.29 (10,000 boards). The same influence given to `best`'s two-step value (option
# `coin_flip_credit=0.9`) gains 0.22 points with a zero start, where the other solver's lead is real (40,000
# tuning games, z = 2.9), and loses 0.11 with a safe corner (40,000, z = -1.3): it was then an option, off by
# default, until fresh games decided (`best`'s docstring, thirteenth round; on with an expert zero start since
# session 29, below).
#
# **Fresh games decide (session 29).** With a zero start, on 40,000 expert games of a seed never used
# before (6174), the credit alone won 0.09 points more (+453/-417, p = 0.24). Together with the larger
# endgame that had gained on zero-start tuning games (64 cells, 2,000 layouts, 300,000 nodes) it won
# 0.17 more on seed 7919 (53.97% -> 54.15%, +529/-460, p = 0.03) and 0.16 more on seed 9973 (53.80% ->
# 53.96%, +493/-429, p = 0.04). The larger endgame alone, with a safe corner, gains a little too: +52/-32
# on 40,000 tuning games (seed 1061) and +39/-27 on 40,000 fresh ones (seed 4447), nothing on intermediate
# (+2/-1 of 20,000). So `best` now searches the larger endgames on every board, and under the zero rule on
# expert adds the credit (`sweeplab.agents.best.ZERO_RULE_CREDIT`; `sweeplab compare "best
# coin_flip_credit=0" best --level expert --first-click zero` measures the credit alone). The gains are
# real but small: on those 80,000 fresh games the new zero-start play won 54.05% [53.71, 54.40], about the
# published 54.3%, still short of the 54.8% that issue 13 asks for, and on the 40,000 fresh safe-corner
# games 40.66% [40.18, 41.14], short of 41.6%. The play before won 54.81% on seed 6174, 53.97% on 7919 and
# 53.80% on 9973: at 40,000 games one seed's rate moves by half a point either way, so only many seeds
# together place it.
#
# **Larger still (session 30).** An endgame of 4,000 layouts and 1,000,000 nodes gains again with a zero
# start: +32/-12 on 20,000 tuning games (seed 1069, p = 0.004) and +60/-37 on 40,000 fresh ones (seed
# 2393, 53.55% -> 53.61%, p = 0.025), nothing with a safe corner (+14/-11). But it plays 31.3 expert
# games per CPU second with a zero start where the default plays 43.0 (38.0 and 44.1 with a safe corner;
# same sitting), too near the floor of 30, so it is an option (`--option endgame_layouts=4000 --option
# endgame_budget=1000000`), not the default. 10,000 layouts add nothing more (+16/-12) at a third of the
# speed, and the cell limit of 64 never binds (the same play in 20,000 of 20,000 games with 96).
#
# **Fresh games say no (session 31).** 4,000 layouts at the default 300,000 nodes, which had kept most of
# that gain on tuning games (+25/-9), won +34/-27 of 40,000 fresh zero-start games (seed 8675, 54.09% ->
# 54.11%, p = 0.44): the defaults stay. A new idea fared the same: where a position has too many layouts
# for the exhaustive endgame, draw 1,000 of them (`sweeplab.agents.best.sampled_endgame_layouts`) and run
# the endgame search on those. With a safe corner it won +131/-100 of 20,000 tuning games (seed 1091,
# p = 0.048), then +245/-238 of 40,000 fresh ones (seed 3571, 40.76% -> 40.77%), at 40 expert games per CPU
# second against the default's 65 (`sweeplab.play`, 200 safe-corner games, one sitting). With a zero start it
# won +189/-173 of 20,000 tuning games (seed 1093, p = 0.43). It is an option (`--option
# sampled_endgame=1000`), off by default.
#
# **The stronger endgame, confirmed (session 32).** On a second fresh seed (4096, 40,000 zero-start games)
# 4,000 layouts and 1,000,000 nodes won 54.33% -> 54.38% (+53/-34, p = 0.053); with seed 2393 that is
# +113/-71 on 80,000 fresh games (p = 0.002). The gain is real and about 0.05 points. With a safe corner
# (fresh seed 5120, 40,000 games) it won 40.72% -> 40.76% (+41/-28, p = 0.15). In this sitting it
# plays 40 expert games per CPU second with a zero start against the default's 50 (55 against 60 with a
# safe corner), so it stays the stronger option rather than the default.

# %% [markdown]
# ## The record: how the measurements moved
#
# Measured in session 8 with `benchmarks/best_agent.py --games 12000` on evaluation
# seed 2026 (tuning used seed 1000 only), expert, same games for both agents (`best` as it was then,
# before the wider candidates and the (3, 3) zero start):
#
# | expert | best-v1 | best | games only best won / only best-v1 won | published |
# |---|---|---|---|---|
# | first click safe, corner | 39.91% [39.04, 40.79] | 40.06% [39.18, 40.94] | +67 / -49 | 41.13% |
# | first click a zero, (2, 2) | 52.57% [51.67, 53.46] | 52.69% [51.80, 53.58] | +59 / -44 | 54.3% |
#
# On the 4,000 games of the loss table above, `best` wins +0.40 and +1.23 points over `best-v1` (16 and
# 49 games; the run's paired counts, which would say whether that is noise, are not recorded here). On
# 40,000 fresh evaluation games each (seed 2026, games
# 100,000 on), session 8's `best` won 39.95% [39.48, 40.44] with a safe corner start and 53.30% [52.81,
# 53.79] with a zero start. With the wider candidates ("Where the strongest solver wins more", above) it wins,
# on 40,000 fresh games each (seed 3141), 40.77% [40.29, 41.25] and 53.92% [53.43, 54.41]: both intervals now
# hold the published rates (41.13% and 54.3%), though not yet above them. On 40,000 more (seed 4242, session
# 12) it won 40.59% [40.11, 41.07] with a safe corner start, just below 41.13%, and on 80,000 more (seed 5555,
# session 14) 40.79% [40.45, 41.13]: over the three seeds, 160,000 games, 40.74% [40.49, 40.98], 0.4 points
# short. On 50,000 games each it matches the published beginner and intermediate rates, and beats the
# intermediate one with a zero start (seed 2718: beginner 91.63% [91.38, 91.87] and 97.09% [96.94,
# 97.23], intermediate 78.39% [78.02, 78.74] and 89.42% [89.14, 89.68] against 89.08%; the frontier
# candidates of the same paragraph). Session 18 made its endgame search larger (48 cells, 1,000 layouts,
# 100,000 nodes, from 32, 400 and 20,000: +50/-25 zero-start and +38/-26 safe-corner games of 20,000 tuning
# games); on 80,000 fresh games (seed 8128, session 19) it won 40.73% [40.39, 41.07] with a safe corner start
# and on 40,000 53.98% [53.49, 54.47] with a zero start, and on 50,000 each beginner 91.88% and 97.18%,
# intermediate 78.32% and 89.13%: every interval held the published rate but expert with a safe corner.
# Session 19 compiled that search (the same choices, game for game): `best` then played about 85-92 expert
# games per CPU second, where it played 52-54 with the search in Python, and about 300 intermediate
# (`benchmarks/agent_speed.py --agents best --games 200`, idle machine, 2026-11-26, two alternating rounds:
# 91.7 and 85.2 against 52.1 and 54.0; the issue asks for at least 30 expert). Speeds differ from one
# machine to the next: on 2026-11-25 the agent before session 18 measured 59.5 expert games per CPU second,
# on 2026-11-26 99; in session 11 65, and 47 before the layout count behind its two-step value was
# compiled (62 expert before the wider candidates, 233 intermediate before the wider frontier candidates
# there).
