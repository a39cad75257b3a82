"""Pictures of positions: the grid, with deductions or mine probabilities overlaid."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .positions import COVERED, FLAG, MINE, NOCLUE, Observation, as_observation, cell_pair

__all__ = ["plot_position", "probability_label"]

_NUMBER_COLOURS = {1: "#1f4fd1", 2: "#1b7f2a", 3: "#c81e1e", 4: "#1a1a7a", 5: "#7a1a1a",
                   6: "#137a7a", 7: "#000000", 8: "#555555"}


def probability_label(p: float) -> str:
    """A mine probability in at most three characters, certain and uncertain never alike.

    Examples
    --------
    >>> [probability_label(p) for p in (0.0, 0.004, 0.25, 0.996, 1.0)]
    ['0', '<.01', '.25', '>.99', '1']
    """
    if p <= 0 or p >= 1:
        return "0" if p <= 0 else "1"
    if p < 0.005:
        return "<.01"
    if p >= 0.995:
        return ">.99"
    return f"{p:.2f}".lstrip("0")


def _cell_list(name: str, cells: Any) -> list[tuple[int, int]]:
    """``cells`` (an iterable of (row, col) pairs, or ``None``) as a list; ``ValueError`` naming ``name``."""
    if cells is None:
        return []
    out = []
    for cell in cells:
        pair = cell_pair(cell)
        if pair is None:
            raise ValueError(f"{name} must be (row, col) pairs of integers, such as [(0, 1)]; got {cell!r} "
                             f"in {cells!r:.60}")
        out.append(pair)
    return out


def plot_position(
    obs: Observation,
    *,
    ax=None,
    safe: Iterable[tuple[int, int]] | None = None,
    mines: Iterable[tuple[int, int]] | None = None,
    probabilities: np.ndarray | None = None,
    annotate: bool | None = None,
) -> dict[str, Any]:
    """Draw a position with matplotlib, overlaying deductions or probabilities.

    Parameters
    ----------
    obs : Observation
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure is made when omitted.
    safe, mines : iterable of (row, col), optional
        Deduced cells: safe ones get a green circle, mines a red cross.
    probabilities : numpy.ndarray, optional
        Mine probability per cell (``nan`` where revealed), shown as a colour
        map on the covered cells.
    annotate : bool, optional
        Write probabilities as text; default on for boards up to 20x30.

    Returns
    -------
    dict
        The artists: ``"image"``, ``"numbers"`` (texts), and where drawn
        ``"probabilities"`` (image), ``"safe"``, ``"mines"`` (path collections).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> art = plot_position(Observation.from_text("?1\\n11"), mines=[(0, 0)])
    >>> sorted(art)
    ['image', 'mines', 'numbers']
    """
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap

    obs = as_observation(obs)
    grid = obs.grid
    h, w = grid.shape
    if ax is None:
        _, ax = plt.subplots(figsize=(max(2.0, 0.32 * w + 0.6), max(2.0, 0.32 * h + 0.4)))
    # 0 covered, 1 revealed, 2 flag, 3 revealed mine, 4 no clue
    kind = np.select([grid == COVERED, grid == FLAG, grid == MINE, grid == NOCLUE], [0, 2, 3, 4], 1)
    cmap = ListedColormap(["#b9bec7", "#eeeeee", "#b9bec7", "#f4a3a3", "#e2e2e2"])
    artists: dict[str, Any] = {
        "image": ax.imshow(kind, cmap=cmap, vmin=-0.5, vmax=4.5, interpolation="nearest")
    }
    if probabilities is not None:
        p = np.asarray(probabilities, dtype=float)
        if p.shape != grid.shape:
            raise ValueError(f"probabilities must be an array of the position's shape {grid.shape} (such as "
                             f"sweeplab.probabilities(obs)), got shape {p.shape}")
        shown = np.where(grid == COVERED, p, np.nan)
        # white (safe) to red (a mine): a sequential map, so 0 and a small probability look apart
        artists["probabilities"] = ax.imshow(shown, cmap="Reds", vmin=0, vmax=1, alpha=0.9,
                                             interpolation="nearest")
        if annotate if annotate is not None else (h <= 20 and w <= 30):
            for r, c in zip(*np.nonzero(np.isfinite(shown)), strict=True):
                ax.text(c, r, probability_label(shown[r, c]), ha="center", va="center", fontsize=7,
                        color="white" if shown[r, c] > 0.6 else "black")
    small = h * w <= 4000
    texts = []
    if small:
        for r, c in zip(*np.nonzero(grid > 0), strict=True):
            v = int(grid[r, c])
            texts.append(ax.text(c, r, str(v), ha="center", va="center", fontsize=9,
                                 fontweight="bold", color=_NUMBER_COLOURS[v]))
        for r, c in zip(*np.nonzero(grid == FLAG), strict=True):
            texts.append(ax.text(c, r, "F", ha="center", va="center", fontsize=9, color="#c81e1e"))
        for r, c in zip(*np.nonzero(grid == MINE), strict=True):
            texts.append(ax.text(c, r, "*", ha="center", va="center", fontsize=11, color="#000000"))
        for r, c in zip(*np.nonzero(grid == NOCLUE), strict=True):
            texts.append(ax.text(c, r, "-", ha="center", va="center", fontsize=9, color="#888888"))
    artists["numbers"] = texts
    safe, mines = _cell_list("safe", safe), _cell_list("mines", mines)
    for name, cells in (("safe", safe), ("mines", mines)):
        off = [(r, c) for r, c in cells if not (0 <= r < h and 0 <= c < w)]
        if off:
            raise ValueError(f"{name} cells {off[:3]} are outside the {h}x{w} board")
    if safe:
        rs, cs = zip(*safe, strict=True)
        artists["safe"] = ax.scatter(cs, rs, s=60, facecolors="none", edgecolors="#1b9e3a", linewidths=2)
    if mines:
        rs, cs = zip(*mines, strict=True)
        # white-edged: seen on a cell coloured by a high mine probability (dark red) too
        artists["mines"] = ax.scatter(cs, rs, s=90, marker="X", facecolors="#d62020", edgecolors="white",
                                      linewidths=1)
    ax.set_xticks(np.arange(-0.5, w, 1), minor=True)
    ax.set_yticks(np.arange(-0.5, h, 1), minor=True)
    if small:
        ax.grid(which="minor", color="#888888", linewidth=0.5)
    # rows and columns numbered from 0, as cells are named (r,c) in proofs and tables
    step = 1 if max(h, w) <= 12 else 5
    ax.set_xticks(np.arange(0, w, step))
    ax.set_yticks(np.arange(0, h, step))
    ax.tick_params(which="both", length=0, labelsize=6, labeltop=True, labelbottom=False, labelleft=True)
    ax.set_xlim(-0.5, w - 0.5)
    ax.set_ylim(h - 0.5, -0.5)
    return artists
