# %% [markdown]
# # 6. Deductive power and speed of every method against enumeration
#
# For every method of `sweeplab.METHODS`: on mid-game positions from real play (the labelled corpus of
# `sweeplab.corpus`: beginner, intermediate, expert, 30×30 boards at densities 0.15–0.25, 100×100, and
# noisy clues), how many of the truly forced cells does it find (recall), how often is it wrong, and
# how long does it take? The truth is exhaustive enumeration, with and without the total. The run is
# `sweeplab.bench.run_bench` (also `sweeplab bench`); the preset picks the corpus size.

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
import seaborn as sns
from IPython.display import display

from sweeplab import METHODS, bench, experiments, figures

PRESET = experiments.preset_from_env()
rows = experiments.run("006-methods", preset=PRESET)
summary = bench.summarize(rows)
print(f"{rows['id'].nunique()} positions, {len(METHODS)} methods, preset {PRESET}")

# %% [markdown]
# ## The table, all slices together

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

# %%
by = rows[(rows["status"] == "ok") & rows["use_total"]].copy()
by["board"] = by["height"].astype(str) + "x" + by["width"].astype(str)
grouped = by.groupby(["method", "board"], sort=False)[["forced", "found"]].sum()
recall = (grouped["found"] / grouped["forced"]).unstack("board").round(3)
recall

# %%
dens = by[by["slice"] == "dense30"]
if len(dens):
    g = dens.groupby(["method", "density"])[["forced", "found"]].sum().reset_index()
    g["recall"] = g["found"] / g["forced"]
    fig, ax = plt.subplots(figsize=(7, 3.5))
    sns.lineplot(g, x="density", y="recall", hue="method", marker="o", ax=ax)
    ax.set_title("recall against mine density (30×30 boards)")
    ax.legend(fontsize=7, ncol=2)
    plt.show()

# %%
fig, ax = plt.subplots(figsize=(7, 3.8))
times = by.groupby(["method", "area"])["ms"].median().reset_index()
sns.lineplot(times, x="area", y="ms", hue="method", marker="o", ax=ax)
ax.set(xscale="log", yscale="log", xlabel="board area (cells)", ylabel="median ms per position",
       title="time per position against board area")
ax.legend(fontsize=7, ncol=2)
plt.show()

# %% [markdown]
# **Reading it.** Only `lstsq` may be wrong (it is unsound, report 000 §3.1); every sound method's wrong
# count must be 0, and the complete ones (`milp`, `enumerate`, `brute` where it accepts the size) have
# recall 1. Between them, the linear methods trade power for speed: `trivial` and `subset` are local
# rules; `rref` and `gfp` see whole components but read rows only at their bounds; `bounded` iterates
# to a fixpoint; `lp` adds every linear consequence of $0 \le x \le 1$; only integer reasoning
# (`milp`, `enumerate`) is complete. `brute` refuses large frontiers by design.
