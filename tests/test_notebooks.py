"""Execute every notebook in the smoke preset (notebooks/README.md) and check it draws.

The percent-format ``notebooks/NN_*.py`` files are the source; each is run in a
fresh ``python3`` kernel (the venv's ipykernel: jupyter_client starts it with
the interpreter running the tests) with ``SWEEPLAB_PRESET=smoke``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

jupytext = pytest.importorskip("jupytext")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS_DIR = Path(__file__).resolve().parents[1] / "notebooks"
NOTEBOOKS = sorted(NOTEBOOKS_DIR.glob("[0-9][0-9]_*.py"))


def _execute(path: Path, preset: str, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("SWEEPLAB_PRESET", preset)
    # CI exports MPLBACKEND=Agg; the kernel must use its inline backend to emit figures.
    monkeypatch.delenv("MPLBACKEND", raising=False)
    nb = jupytext.read(path)
    client = nbclient.NotebookClient(
        nb, kernel_name="python3", timeout=600, resources={"metadata": {"path": str(NOTEBOOKS_DIR)}}
    )
    client.execute()
    return nb


def _figures(nb) -> int:
    return sum(
        1
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
        if "image/png" in out.get("data", {}) or "image/svg+xml" in out.get("data", {})
    )


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 1


@pytest.mark.notebooks
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_in_smoke_preset(path: Path, monkeypatch: pytest.MonkeyPatch):
    nb = _execute(path, "smoke", monkeypatch)
    outputs = [out for cell in nb.cells for out in cell.get("outputs", [])]
    errors = [out for out in outputs if out.get("output_type") == "error"]
    assert not errors
    assert _figures(nb) >= 1, f"{path.name} drew no figure"
    printed = "".join(out.get("text", "") for out in outputs if out.get("output_type") == "stream")
    assert not re.search(r"</?(b|i|div|span|table|br)\b[^>]*>|&\w+;", printed), f"{path.name} prints raw HTML"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_paired_ipynb_matches_source(path: Path):
    """The committed .ipynb is the .py converted, with outputs stripped."""
    ipynb = path.with_suffix(".ipynb")
    assert ipynb.exists(), f"run: .venv/bin/jupytext --sync {path.relative_to(NOTEBOOKS_DIR.parent)}"
    paired = jupytext.read(ipynb)
    source = jupytext.read(path)
    assert [(c.cell_type, c.source) for c in paired.cells] == [(c.cell_type, c.source) for c in source.cells]
    assert all(not c.get("outputs") for c in paired.cells if c.cell_type == "code")
    # a notebook without a kernelspec opens on a kernel dialog
    assert paired.metadata.get("kernelspec", {}).get("name") == "python3", (
        f"run: .venv/bin/jupytext --set-kernel python3 --sync {path.relative_to(NOTEBOOKS_DIR.parent)}")


@pytest.mark.slow
@pytest.mark.notebooks
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_in_quick_preset(path: Path, monkeypatch: pytest.MonkeyPatch):
    nb = _execute(path, "quick", monkeypatch)
    assert _figures(nb) >= 1


def test_kernel_is_this_interpreter(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """``python3`` resolves to the venv's interpreter, so notebooks import this sweeplab."""
    import sys

    nb = jupytext.reads("import sys\nprint(sys.executable)\n", fmt="py:percent")
    monkeypatch.delenv("MPLBACKEND", raising=False)
    nbclient.NotebookClient(nb, kernel_name="python3", timeout=120).execute()
    printed = nb.cells[0].outputs[0]["text"].strip()
    assert os.path.realpath(printed) == os.path.realpath(sys.executable)


def test_the_shipped_spec_is_the_teams():
    """docs/spec.md is the contract docstrings cite as SPEC; it must not drift from the team's copy."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    team = root.parent / "shared" / "SPEC.md"
    shipped = (root / "docs" / "spec.md").read_text()
    assert shipped.startswith("# sweeplab — the contract") and "## 6." in shipped
    if not team.exists():
        pytest.skip("the team's ../shared/SPEC.md is not beside this clone")
    assert shipped == team.read_text()
