# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 12. The interactive explorer
#
# One board to play on, with a method's reasoning drawn on it (`sweeplab.explorer.Explorer`, a widget
# that runs in JupyterLab, Jupyter Notebook 7 and VS Code). The game and the methods run in Python; the board
# draws what they hold after every move and sends back your clicks.
#
# - **Left click** reveals a covered cell; **right click** flags or unflags it (or turn on
#   *⚑ flag mode* to flag with left clicks). *New game* starts the next seed; the level menu starts a
#   game on another level. From the keyboard: Tab to the board, the arrows move the selected cell,
#   Enter or Space reveals it, F flags it.
# - **A flag is taken as a mine** by every method and by the probabilities (SPEC §1): a flag is your
#   claim, and the methods reason from it. A wrong flag makes them "prove" cells from a false premise
#   (the proofs name it: "a flag counts as a mine"), or find that no layout fits. Unflag a cell to weigh it.
# - **method**: the deduction method whose conclusions are drawn on the covered cells, a white disc
#   with a dark outline for a safe cell and a purple cross for a mine (colours no clue digit uses).
#   *Apply* plays them all. Unsound methods (`lstsq`) are marked as such: their claims can be wrong.
# - **Hover** any cell: its exact mine probability, and for a deduced cell its proof (SPEC §6) in
#   words, with the clues it uses framed on the board (blue: added, orange: subtracted, grey: both, in
#   different steps; with their multipliers). Before a first click that the rules make safe no
#   probability is shown: that cell is safe whatever the layout.
# - **probabilities** colours every covered cell by its exact mine probability, from blue (0) to
#   orange (1), with the percentage on cells large enough for it.
# - **deductions**: clear it to hide the method's marks, proofs and certainties (the hover line then
#   gives no probability unless *probabilities* is on), so a class can play unaided, then check.
# - The numbers above and left of the board are the rows and columns, from 0, as proofs name cells:
#   `(2,5)` is row 2, column 5; the hovered cell's numbers are in bold. When the game ends, the layout
#   shows: mines left covered faded, a wrong flag crossed out (the legend adds both).
# - **matrix**: `[A | b]` or its exact `RREF` beside the board (below it on a narrow screen), scrolling
#   on its own; the rows of the hovered cell's proof are highlighted, with their multipliers, and its
#   column is marked.
# - **Agent step**: one turn of the chosen agent (`sweeplab.AGENTS`).
#
# The board at the end of this notebook is a new game, ready to play. Widgets live in the running
# kernel: if a board shows *Error displaying widget: model not found* (a saved notebook reopened),
# run the notebook again (**Run → Run All Cells**).

# %% [markdown]
# ## What the buttons call
#
# Every action of the board is a method of the explorer, so a scenario can be scripted. This one plays a
# beginner game from code (it is not displayed; the board to play is the last cell).

# %%
# %matplotlib inline
import matplotlib.pyplot as plt

import sweeplab
from sweeplab.explorer import Explorer, bound_table, rref_table

demo = Explorer(level="beginner", seed=3, method="enumerate")
demo.click(4, 4)
print(demo.board.summary)

# %% [markdown]
# The proof of one deduced cell, as the board shows it on hover, and as a picture (the first cell that
# one RREF pass also fixes, so that the table below shows it):

# %%
obs = demo.game.observation
by_rref = sweeplab.deduce(obs, "rref").cells
cell, proof = min((c, p) for c, p in demo.deduction.proofs.items() if c in by_rref)
print(proof.explain(obs))
fig, ax = plt.subplots(figsize=(4, 4))
sweeplab.plot_proof(obs, proof, ax=ax)
plt.show()

# %% [markdown]
# The matrix panel holds the same tables as `sweeplab.explorer.panel_table`; the notebooks' labelled
# tables show the component of that cell, its exact RREF and what the row bound rule reads off each row
# (the cell's variable name is printed first; the row holding it fixes it):

# %%
part = next(p for p in sweeplab.clue_system(obs, use_total=False).components() if cell in p.cells)
print(f"cell {cell} is x{part.cells.index(cell)}")
bound_table(rref_table(part))

# %% [markdown]
# Three turns of the `best` agent, then *Apply* with `bounded`:

# %%
for _ in range(3):
    print(demo.agent_step("best"))
demo.set_method("bounded")
print("apply:", demo.apply(), "moves;", demo.board.summary)

# %%
fig, ax = plt.subplots(figsize=(4, 4))
d = demo.deduction
sweeplab.plot_position(demo.game.observation, ax=ax, safe=d.safe if d else None,
                       mines=d.mines if d else None, probabilities=demo.probabilities)
ax.set_title(f"the scripted game: {demo.game.status}")
plt.show()

# %% [markdown]
# ## Play
#
# A new beginner game; the level menu on the board switches to intermediate or expert (try the RREF
# panel there).

# %%
explorer = Explorer(level="beginner", seed=7, method="rref")
explorer
