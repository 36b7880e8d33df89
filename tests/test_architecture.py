"""The package's floors, as docs/architecture.md lists them, hold in its import graph
(in the manner of Datasette's tests/test_docs.py, which holds its docs to its code)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "wpsitemaps"
DOC = ROOT / "docs" / "architecture.md"
FLASK = ("flask", "werkzeug")
WEB_FLOOR_NAME = "web/"


def floors() -> list[list[str]]:
    """The modules column of each floor row of the doc's table, in order."""
    rows = re.findall(r"^\| (\d+) \| ([^|]+) \|", DOC.read_text(), flags=re.M)
    assert rows, "docs/architecture.md has no floor table"
    return [re.findall(r"`([^`]+)`", cell) for _, cell in sorted(rows, key=lambda r: int(r[0]))]


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name."""
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def floor_of(module: str, table: list[list[str]]) -> int | None:
    """The floor whose row names the module (its file at the top, or its folder)."""
    rel = module.split(".")[1:] or ["__init__"]
    for n, names in enumerate(table):
        for name in names:
            if name.endswith("/") and rel and rel[0] == name[:-1]:
                return n
            if not name.endswith("/") and len(rel) == 1 and f"{rel[0]}.py" == name:
                return n
    return None


def imports(path: Path, known: dict[str, Path]) -> Iterator[str]:
    """The modules (package ones resolved to a module, others by top name) a file imports,
    at any depth of the file: a function-level import is an import too."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                yield full if full in known else node.module
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


def graph() -> dict[str, set[str]]:
    """module -> the package modules it imports."""
    known = modules()
    return {name: {m for m in imports(path, known) if m in known and m != name}
            for name, path in known.items()}


def test_every_module_has_a_floor() -> None:
    """Each module of the package belongs to a floor of docs/architecture.md."""
    table = floors()
    assert [m for m in modules() if floor_of(m, table) is None] == []


def test_no_module_imports_a_lower_floor() -> None:
    """A module imports only its own floor or floors listed above it."""
    table = floors()
    wrong = [f"{a} (floor {floor_of(a, table)}) imports {b} (floor {floor_of(b, table)})"
             for a, targets in graph().items() for b in sorted(targets)
             if (floor_of(b, table) or 0) > (floor_of(a, table) or 0)]
    assert wrong == []


def test_the_import_graph_has_no_cycle() -> None:
    """No two modules import each other, directly or through others."""
    edges = graph()
    state: dict[str, int] = {}
    cycles: list[str] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join([*path[path.index(nxt):], nxt]))
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for start in sorted(edges):
        if start not in state:
            visit(start, [start])
    assert cycles == []


def test_only_web_and_above_import_flask() -> None:
    """Modules on floors above web/ (and the package itself) never import Flask."""
    table = floors()
    web = next(n for n, names in enumerate(table) if WEB_FLOOR_NAME in names)
    known = modules()
    wrong = [name for name, path in known.items()
             if (floor_of(name, table) or 0) < web
             and any(m.split(".")[0] in FLASK for m in imports(path, known))]
    assert wrong == []


@pytest.mark.parametrize("module", ["wpsitemaps", "wpsitemaps.entries",
                                    "wpsitemaps.sitemaps.registry",
                                    "wpsitemaps.serving.documents"])
def test_importing_below_web_loads_no_flask(module: str) -> None:
    """Importing the package or a module below web/ loads no Flask (a fresh interpreter)."""
    code = f"import {module}, sys; assert 'flask' not in sys.modules, sorted(sys.modules)"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_no_test_client_in_the_package() -> None:
    """No module re-enters the app through Flask's test client or a hand-built request."""
    pattern = re.compile(r"test_client|full_dispatch_request|test_request_context")
    assert [str(p) for p in PACKAGE.rglob("*.py") if pattern.search(p.read_text())] == []
