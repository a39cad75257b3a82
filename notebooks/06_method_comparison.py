# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 6. Deductive power and speed of every method against enumeration
#
# For every method of `sweeplab.METHODS`: on mid-game positions from real play (the labelled corpus of
# `sweeplab.corpus`: beginner, intermediate, expert, 30×30 boards at densities 0.15–0.25, 100×100, and
# noisy clues; plus the small hand-made positions of `sweeplab.examples`, the reports' boards and the
# methods' counterexamples), how many of the truly forced cells does it find (recall), how often is it
# wrong, and how long does it take? The truth is exhaustive enumeration, with and without the total. The run
# is `sweeplab.bench.run_bench` (also `sweeplab bench`); the preset picks the corpus size.

# %%
# %matplotlib inline
from IPython.display import display

from sweeplab import METHODS, bench, experiments, figures

PRESET = experiments.preset_from_env()
display(experiments.PresetNote(PRESET))
rows = experiments.run("006-methods", preset=PRESET)
summary = bench.summarize(rows)
print(f"{rows['id'].nunique()} positions, {len(METHODS)} methods, preset {PRESET}")

# %% [markdown]
# ## The table, all slices together
#
# One row per method, over every position it answered:
#
# - `answered`: positions the method gave an answer for (not refused: `brute` refuses large frontiers,
#   and the methods that need exact clues refuse the noisy positions whose numbers are only bounds);
# - `forced`: cells the position forces (safe or mine in every layout, from enumeration), `found`: how many
#   of them the method claimed, `recall` = found / forced, and `wrong`: claims that are false (only an
#   unsound method can have any);
# - `progress_share`: among the positions where some cell is forced, the share where the method finds at
#   least one, so that a player using it can move without guessing;
# - `median_ms`, `p90_ms`: time per position (median and 90th percentile);
# - `x_enumerate`: the method's median time over `enumerate`'s on the same positions (2 means twice as
#   slow as exact enumeration, 0.5 twice as fast).

# %%
columns = ["method", "sound", "complete", "answered", "forced", "found", "recall", "wrong",
           "progress_share", "median_ms", "p90_ms", "x_enumerate"]
for use_total in (True, False):
    print("with the total" if use_total else "clues only")
    display(summary[(summary["slice"] == "all") & (summary["use_total"] == use_total)][columns]
            .set_index("method").round(3))

# %%
fig = figures.methods_figure(rows)

# %% [markdown]
# ## By board size and density

# %% [markdown]
# Recall on each board size, smallest boards first (with the total): the smallest ones are the hand-made
# examples (which sizes depends on the preset's corpus). A board whose positions force no cell has no recall to show, and is left out; a
# method that refused every position of a size (`brute` on large frontiers) shows NaN there.

# %%
recall = bench.recall_by_board(rows)
if recall.attrs["no_forced_cell"]:
    print("no forced cell on:", ", ".join(recall.attrs["no_forced_cell"]))
recall.round(3)

# %% [markdown]
# ## Recall against mine density
#
# On the 30×30 boards of densities 0.15–0.25 (the `quick` and `full` presets); a preset without them
# shows the densities its game positions have (beginner and intermediate boards).

# %%
fig = figures.methods_density_figure(rows)

# %% [markdown]
# ## Time against board area
#
# One panel per method (in colour), the other methods in grey behind it: each curve reads on its own, and
# its place among the others at a glance.

# %%
fig = figures.methods_time_figure(rows)

# %% [markdown]
# **Reading it.** Only `lstsq` may be wrong (it is unsound, report 000 §3.1); every sound method's wrong
# count must be 0, and the complete ones (`milp`, `enumerate`, `brute` where it accepts the size) have
# recall 1. Power is not bought with time in the order of the list (a `quick` run, 349 positions, with
# the total; the times are those of one such run, and the table above, this run's, differs with the
# machine and its load):
# `subset`, a local rule on pairs of equations, finds 99.0% of the forced cells at a median 0.19 ms,
# more than `rref` (73.8%, 1.0 ms) and `gfp` (73.0%), which see whole components but read rows
# only at their bounds, and as many as `bounded` (98.7%, 1.6 ms), which iterates to a fixpoint; `lp`,
# every linear consequence of $0 \le x \le 1$, finds 99.9% (5.5 ms). Only integer reasoning (`milp`,
# `enumerate`) is complete, and on these positions `enumerate` is faster than every method but `trivial`
# (median 0.15 ms; `x_enumerate` above 1 for the others). `brute` refuses large frontiers by design.
