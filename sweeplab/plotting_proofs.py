"""Pictures of proofs: the board with the clues a proof uses, their multipliers and the cells it involves."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .errors import count_text
from .plotting import plot_position
from .positions import as_observation
from .proofs import Assume, Combine, Proof, Split

__all__ = ["plot_proof", "plot_proofs"]

_POSITIVE = "#1f5fd1"  # clues added
_NEGATIVE = "#e07b00"  # clues subtracted
_MIXED = "#7a7a7a"  # clues added in one step, subtracted in another
_INVOLVED = "#7b3fb5"  # cells fixed, assumed or split on along the way


def _combines(steps):
    for s in steps:
        if isinstance(s, Combine):
            yield s
        elif isinstance(s, Assume):
            yield from _combines(s.steps)
        elif isinstance(s, Split):
            yield from _combines(s.if_0)
            yield from _combines(s.if_1)


def plot_proof(obs: Any, proof: Proof | dict, *, ax=None, title: bool = True) -> dict[str, Any]:
    """Draw a position with a proof on it.

    Each clue the proof uses is framed (blue when it is added, orange when
    subtracted, grey when both in different steps) and labelled with its
    multipliers, one per combining step that uses it;
    the cells the proof fixes, assumes or splits on are outlined in purple; the
    proven cell gets a thick frame and the usual mark (green circle: safe, red
    cross: mine).  The ``"total"`` row, when used, is named in the title.

    Parameters
    ----------
    obs : Observation
    proof : Proof or dict
        A :class:`~sweeplab.proofs.Proof` or its JSON form.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure is made when omitted.
    title : bool, default True
        Set a title naming the cell, its value and the proof's size.

    Returns
    -------
    dict
        The artists of :func:`sweeplab.plot_position` plus ``"clues"`` (frames),
        ``"multipliers"`` (texts), ``"cells"`` (frames of the involved cells),
        ``"target"`` (the proven cell's frame) and, when set, ``"title"``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sweeplab import Observation
    >>> from sweeplab.prover import prove
    >>> obs = Observation.from_text("???\\n121")
    >>> art = plot_proof(obs, prove(obs, (0, 1), 0, style="linear"))
    >>> len(art["clues"]), [t.get_text() for t in art["multipliers"]]
    (3, ['+1', '-1', '+1'])
    """
    from matplotlib.patches import Rectangle

    obs = as_observation(obs)
    if not isinstance(proof, Proof):
        proof = Proof.from_dict(proof)
    cell, value = proof.cell, proof.value
    art = plot_position(obs, ax=ax, safe=[cell] if value == 0 else None, mines=[cell] if value == 1 else None)
    ax = art["image"].axes
    uses: dict[Any, list[int]] = {}
    for step in _combines(proof.steps):
        for src, m in step.rows:
            uses.setdefault(src, []).append(m)
    clues, labels = [], []
    for src, ms in uses.items():
        if src == "total":
            continue
        r, c = src
        colour = _POSITIVE if min(ms) > 0 else _NEGATIVE if max(ms) < 0 else _MIXED
        clues.append(ax.add_patch(Rectangle((c - 0.45, r - 0.45), 0.9, 0.9, fill=False, edgecolor=colour,
                                            linewidth=2.2, zorder=3)))
        labels.append(ax.text(c + 0.42, r - 0.42, ",".join(f"{m:+d}" for m in ms), ha="right", va="top",
                              fontsize=8, color=colour, fontweight="bold", zorder=4))
    cells = []
    for r, c in sorted(proof.cells - {cell}):
        cells.append(ax.add_patch(Rectangle((c - 0.38, r - 0.38), 0.76, 0.76, fill=False, edgecolor=_INVOLVED,
                                            linewidth=1.2, linestyle="--", zorder=3)))
    target = ax.add_patch(Rectangle((cell[1] - 0.5, cell[0] - 0.5), 1, 1, fill=False,
                                    edgecolor="#1b9e3a" if value == 0 else "#d62020", linewidth=3, zorder=5))
    art.update(clues=clues, multipliers=labels, cells=cells, target=target)
    if title:
        size = proof.size
        text = (f"({cell[0]},{cell[1]}) is {'a mine' if value else 'safe'}: "
                f"{count_text(size.steps, 'step')}, {count_text(size.rows, 'row')}")
        moduli = sorted({s.modulus for s in _combines(proof.steps) if s.modulus})
        if moduli:  # the multipliers are read as residues
            text += ", read mod " + ", ".join(map(str, moduli))
        if "total" in uses:
            text += "\nthe total ×" + ",".join(f"({m:+d})" for m in uses["total"])
        if proof.case_analysis:
            text += "\nby cases"
        from .proof_check import check_proof

        if not check_proof(obs, proof.to_dict()):  # drawn as written, but it proves nothing here
            text = f"NOT A VALID PROOF on this position: {text}"
        art["title"] = ax.set_title(text, fontsize=8)
    return art


def plot_proofs(obs: Any, proofs: Iterable[Proof | dict], *, ncols: int = 2, size: float = 3.2):
    """Draw several proofs on one position, :func:`plot_proof` each, ``ncols`` to a row (a last, shorter
    row centred).

    Two to a row keep the multipliers legible where the figure is shrunk to a page's width (the book).

    Parameters
    ----------
    obs : Observation
    proofs : iterable of Proof or dict
    ncols : int, default 2
        Panels per row.
    size : float, default 3.2
        Inches per panel.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sweeplab import Observation, deduce
    >>> obs = Observation.from_text("???\\n121")
    >>> proofs = deduce(obs, "rref", proofs=True).proofs
    >>> fig = plot_proofs(obs, [proofs[cell] for cell in sorted(proofs)])
    >>> [ax.get_title().split(":")[0] for ax in fig.axes]
    ['(0,0) is a mine', '(0,1) is safe', '(0,2) is a mine']
    """
    import matplotlib.pyplot as plt

    proofs = list(proofs)
    if not proofs:
        raise ValueError("plot_proofs needs at least one proof; got none")
    if isinstance(ncols, bool) or not isinstance(ncols, int) or ncols < 1:
        raise ValueError(f"ncols must be a positive integer, got {ncols!r}")
    cols = min(ncols, len(proofs))
    rows = -(-len(proofs) // cols)
    fig = plt.figure(figsize=(size * cols, (size + 0.5) * rows))
    # Each panel spans two half-columns, so a last row with fewer panels sits in the middle.
    grid = fig.add_gridspec(rows, 2 * cols)
    for k, proof in enumerate(proofs):
        row, col = divmod(k, cols)
        start = 2 * col + (cols - min(cols, len(proofs) - row * cols))
        plot_proof(obs, proof, ax=fig.add_subplot(grid[row, start:start + 2]))
    fig.tight_layout()
    return fig
