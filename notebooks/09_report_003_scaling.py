# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 9. Reproducing report 003: Algorithms A and B against grid area and density
#
# Report 003 has two agents: **Algorithm A** applies the single-clue rules (our `trivial` agent) and
# **Algorithm B** row-reduces the augmented clue matrix and reads the rows (our `rref` agent; report 003
# Algorithm B = report 002 Algorithm 1). Both guess uniformly at random when stuck. The report plots
#
# * runtime against grid area (A up to area ~1000; B "far too inefficient on grid areas of greater than
#   300", where it stops row-reducing);
# * runtime against density (area 1000 for A, 300 for B);
# * "performance" (fraction of squares revealed) against grid area and against density (area 1000 for
#   A, 300 for B).
#
# It states no numbers, only trends: runtime grows with area ($O(n^2)$ for A in its analysis, $O(n^3)$ in
# its Figure 1 caption; $O(n^4)$ for B) and with density (A: "clearly a positive correlation between bomb
# density and runtime"; B: "a loose positive correlation"); performance falls with density for A ("an
# obvious negative correlation"), while B does "extremely well" at "abysmally low bomb density" and past
# that shows "an extremely loose positive correlation between the tiles opened matrix and bomb density". Ours
# plays classic games with a safe first click: the area sweep at density 0.15 (the report does not give its
# density there), the density sweep on 306 cells (17×18, the near-square board of about 300 cells: height
# round(√300)) for both algorithms.

# %%
# %matplotlib inline
from IPython.display import display

from sweeplab import experiments, figures
from sweeplab.examples import EXAMPLES
from sweeplab.explorer import bound_table, rref_table

PRESET = experiments.preset_from_env()
display(experiments.PresetNote(PRESET))
scaling = experiments.run("003-scaling", preset=PRESET)
scaling.round(4)

# %%
fig = figures.scaling_figure(scaling)

# %%
area = scaling[scaling["sweep"] == "area"].pivot(index="area", columns="agent", values="mean_seconds")
(1000 * area).round(1).rename(columns=lambda c: f"{c} ms/game")

# %%
dens = scaling[scaling["sweep"] == "density"].pivot(index="density", columns="agent", values="mean_seconds")
(1000 * dens).round(2).rename(columns=lambda c: f"{c} ms/game")

# %% [markdown]
# **Where we disagree, and why.**
#
# * *"RREF is impractical above 300 cells."* Report 003 row-reduces one dense matrix with a row per
#   revealed cell and a column per cell of the board (its "2d array of size grid area squared"), so a
#   step costs $O(n^3)$ in the area $n$. Our `rref` method builds only the frontier's equations,
#   splits them into independent components and reduces each exactly; the cost follows the size of the
#   components, not the board. Our Algorithm B's time per game grows about fivefold from 36 to 1,024
#   cells, a 28-fold area (1.2 to 6.7 ms on 400 boards a point, the quick preset's parameters with
#   `games=400`; Algorithm A, which opens less, takes about a sixth of B's time at both ends), with no
#   wall at 300 cells: the wall is an artefact of the report's implementation, not of linear algebra.
#   The first table above plays the quick preset's 15 games a point (the book: the smoke preset, 36 and
#   100 cells only), where a few long games move a point's time twofold between runs, and the
#   milliseconds depend on the machine.
#   [Notebook 6](06_method_comparison.ipynb) and `sweeplab bench` time single positions up to a million cells.
# * *Fraction revealed.* We measure the share of safe cells opened before the game ends (classic
#   rules, safe first click). Report 003 continues after a mine (it collects a bomb list). For A it
#   plots "fraction of squares revealed", which falls with density, as ours does. For B it plots "tiles
#   opened", whose sense it leaves open: its goal is to "find the bomb list with fewer opened tiles",
#   which makes tiles opened a cost, and then its loosely rising curve means B too gets worse with
#   density, as ours does; read as a share revealed, it would mean the opposite. The report does not
#   say, so its B curve neither confirms nor contradicts ours.
#   Between the algorithms we disagree above 400 cells: the report has "Algorithm A far outperforms this
#   algorithm on matrices of grid area 400+" because its B stops row-reducing there, while ours reduces
#   at every size. On 400 boards a point (the quick preset's parameters with `games=400`, both
#   algorithms on the same boards), ours opens 0.72, 0.68 and 0.72 of the safe cells at 306, 484 and
#   1,024 cells, A 0.66, 0.64 and 0.67 (standard errors 0.022): on the same boards B opens more by 0.066,
#   0.045 and 0.044 (paired standard errors 0.011; B opens more in 121, 118 and 139 games, A in 29, 20
#   and 19), ahead at every size. (The quick preset's 15 boards a point, in the table above, cannot
#   order them: standard errors near 0.12.) A different Algorithm B, not a different finding about
#   row reduction.
# * *Runtime against density.* The report's runtime grows with density. Ours, for B, rises to a peak
#   near density 0.15 to 0.2 and then falls (1.0, 3.5, 3.8 and 1.3 ms per game at density 0.05, 0.15,
#   0.2 and 0.3 on 400 boards a point; the second table above, at 15 games a point, moves twofold
#   between runs); A's times, under a millisecond, move by as much between runs as between densities,
#   so we read no trend into them. A classic game stops at
#   the first mine, and on dense boards the first guesses soon hit one, while the report's algorithms
#   play on after a mine ("the algorithm adjusts and continues") until every bomb is listed, so their
#   work grows with the mines. Only B's rise up to the peak is comparable.
# * Report 003 averages "at least 5 trials" per point; at 5 games the standard error of a fraction
#   revealed is easily 10 points, so its "loose" correlations are within noise.

# %% [markdown]
# ## A flaw in Algorithm B as written
#
# Report 003 reads each reduced row: "If [the last entry] is a zero, we know that every single variable
# that doesn't have a zero in the row must have a value equal to zero". That holds for rows whose
# coefficients are all positive, but a reduced row can have negative ones. Report 002's second board
# reduces to a row $v_3 - v_6 - v_8 = 0$: read literally, three cells are "safe", yet $v_3 = v_6 = 1$ is a
# solution. Our `rref` method uses the row bound rule, which reads this row as undetermined.

# %%
board = EXAMPLES["002-one-one-two-two"]
table = bound_table(rref_table(board.observation, use_total=False))
display(table)
zero_rows = [label for label, row in table.iterrows() if row["b"] == 0]
print("rows with right side 0:", zero_rows)
print("complete answer:", sorted(board.safe), "safe,", sorted(board.mines), "mines")
