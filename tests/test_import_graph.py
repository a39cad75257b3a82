"""The package's import graph has no cycle, counting imports inside functions too (issue 9).

Layers only import downwards: positions -> clue_system -> methods -> agents ->
referee -> simulate -> sweeps / bench / experiments -> commands -> cli.
"""

from __future__ import annotations

import ast
from pathlib import Path

import sweeplab

ROOT = Path(sweeplab.__file__).parent


def module_name(path: Path) -> str:
    parts = ["sweeplab", *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, modules: set[str]) -> set[str]:
    """The sweeplab modules ``path`` imports anywhere in its body."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            # ``from X import y`` imports the module X.y when there is one, else X itself
            targets = [f"{stem}.{a.name}" if f"{stem}.{a.name}" in modules else stem for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in modules:
                t = t.rpartition(".")[0]
            if t and t != name:
                out.add(t)
    return out


def graph() -> dict[str, set[str]]:
    paths = sorted(ROOT.rglob("*.py"))
    modules = {module_name(p) for p in paths}
    return {module_name(p): imports(p, modules) for p in paths}


def find_cycle(g: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(u: str) -> list[str] | None:
        state[u] = 1
        stack.append(u)
        for v in sorted(g.get(u, ())):
            if state.get(v) == 1:
                return stack[stack.index(v):] + [v]
            if v not in state and (c := visit(v)):
                return c
        stack.pop()
        state[u] = 2
        return None

    for u in sorted(g):
        if u not in state and (c := visit(u)):
            return c
    return None


def test_the_graph_sees_function_level_imports():
    g = graph()
    assert "sweeplab.prover" in g["sweeplab.methods"]  # deduce(proofs=True) imports it inside a function
    assert "sweeplab.clue_system" in g["sweeplab.methods._common"]


def test_no_import_cycle():
    g = graph()
    assert find_cycle(g) is None, " -> ".join(find_cycle(g) or [])


def test_only_the_clue_system_reads_grids_into_constraints():
    """Methods never import the grid kernels: they read the clue system (SPEC §2)."""
    g = graph()
    readers = {u for u, vs in g.items() if "sweeplab._grid_kernels" in vs}
    assert readers == {"sweeplab.clue_system"}
