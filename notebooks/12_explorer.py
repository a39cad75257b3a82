# %% [markdown]
# # 12. The interactive explorer
#
# A JupyterLab widget (ipywidgets): click a covered cell to reveal it (toggle *flag* to flag instead),
# or let an agent play one turn with *Agent step*. Choose a method to see its deductions overlaid
# (green: safe, red: mine; the status line says whether the method is sound), tick *probabilities* for
# the exact mine probabilities, and open the `[A | b]` and `RREF` tabs to see the clue matrix of the
# current position and its exact reduced form. *Apply* plays the method's deductions.

# %%
# %matplotlib inline
import matplotlib.pyplot as plt

import sweeplab
from sweeplab.explorer import Explorer

explorer = Explorer(level="beginner", seed=7, method="rref")
explorer

# %% [markdown]
# The same actions from code (what the buttons call), so a notebook can script a scenario:

# %%
explorer.click(4, 4)
explorer.set_method("bounded")
explorer.show_probabilities.value = True
print(explorer.status.value)

# %%
explorer.agent_box.value = "best"
for _ in range(3):
    print(explorer.agent_step())

# %%
fig, ax = plt.subplots(figsize=(4, 4))
d = explorer.deduction
sweeplab.plot_position(explorer.game.observation, ax=ax, safe=d.safe if d else None,
                       mines=d.mines if d else None, probabilities=explorer.probabilities)
ax.set_title(f"after three agent turns: {explorer.game.status}")
plt.show()
