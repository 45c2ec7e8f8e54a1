"""The package's modules import each other without cycles, counting every import statement
wherever it stands: under ``if TYPE_CHECKING:`` (an annotation names what the module
depends on as surely as a call does) and inside functions too. And the server and the
engines import what they need at the top of each module (no imports inside functions to
dodge a cycle)."""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Mapping
from pathlib import Path

import pytest

import geniusnight

ROOT = Path(geniusnight.__file__).parent
NO_LATE_IMPORTS = ("server", "engines")  # the CLI may import lazily to start fast


def package_modules(root: Path) -> dict[str, Path]:
    """Every module of the package at ``root``, by dotted name."""

    def name(path: Path) -> str:
        parts = [root.name, *path.relative_to(root).with_suffix("").parts]
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)

    return {name(p): p for p in root.rglob("*.py")}


MODULES = package_modules(ROOT)


def resolve(modules: Mapping[str, Path], module: str, node: ast.ImportFrom | ast.Import) -> list[str]:
    """The package modules an import statement in ``module`` loads."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name in modules]
    is_package = modules[module].name == "__init__.py"
    base = module.split(".")
    if node.level:
        base = base[: len(base) - node.level + (1 if is_package else 0)]
    target = ".".join([*base, *(node.module.split(".") if node.module else [])])
    found = [target] if target in modules else []
    found += [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in modules]
    return found


def imports_of(modules: Mapping[str, Path], module: str) -> set[str]:
    """What ``module`` imports anywhere in it, ``if TYPE_CHECKING:`` blocks and functions
    included; a package's imports of its own submodules left out (importing a submodule
    runs its package first, so those are no cycle)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(modules[module].read_text())):
        if isinstance(node, ast.Import | ast.ImportFrom):
            out.update(resolve(modules, module, node))
    if modules[module].name == "__init__.py":
        out = {m for m in out if not m.startswith(module + ".")}
    return out - {module}


def import_graph(modules: Mapping[str, Path]) -> dict[str, set[str]]:
    return {m: imports_of(modules, m) for m in modules}


def find_cycle(graph: Mapping[str, set[str]]) -> list[str] | None:
    """A cycle of the graph (its first node repeated at its end), or None."""
    done: set[str] = set()

    def visit(m: str, path: list[str]) -> list[str] | None:
        if m in path:
            return [*path[path.index(m) :], m]
        if m in done:
            return None
        for n in sorted(graph.get(m, ())):
            cycle = visit(n, [*path, m])
            if cycle is not None:
                return cycle
        done.add(m)
        return None

    for m in sorted(graph):
        cycle = visit(m, [])
        if cycle is not None:
            return cycle
    return None


def test_no_module_imports_itself_through_others() -> None:
    graph = import_graph(MODULES)
    assert "geniusnight.server.play.ws" in graph["geniusnight.server.app"]  # the graph is read right
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_nothing_imports_the_composition_root_but_the_app() -> None:
    graph = import_graph(MODULES)
    importers = sorted(m for m, imported in graph.items() if "geniusnight.server.compose" in imported)
    assert importers == ["geniusnight.server.app"]


def write_package(root: Path, files: dict[str, str]) -> dict[str, Path]:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return package_modules(root)


def test_the_check_finds_a_cycle_through_a_type_only_import(tmp_path: Path) -> None:
    files = {
        "__init__.py": "from . import a\n",
        "a.py": "from .b import B\n",
        "b.py": """\
            from typing import TYPE_CHECKING

            if TYPE_CHECKING:
                from .a import A
            """,
    }
    modules = write_package(tmp_path / "pkg", files)
    graph = import_graph(modules)
    assert graph == {"pkg": set(), "pkg.a": {"pkg.b"}, "pkg.b": {"pkg.a"}}
    assert find_cycle(graph) == ["pkg.a", "pkg.b", "pkg.a"]

    files["b.py"] = "B = 1\n"  # without it: no cycle
    assert find_cycle(import_graph(write_package(tmp_path / "pkg", files))) is None


@pytest.mark.parametrize(
    ("graph", "cycle"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": set()}, None),
        ({"a": {"b", "c"}, "b": {"c"}, "c": set()}, None),  # a diamond is no cycle
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, ["a", "b", "c", "a"]),
        ({"a": {"b"}, "b": {"c"}, "c": {"b"}}, ["b", "c", "b"]),
    ],
)
def test_find_cycle(graph: dict[str, set[str]], cycle: list[str] | None) -> None:
    assert find_cycle(graph) == cycle


def test_the_server_and_the_engines_import_at_the_top_of_each_module() -> None:
    late = []
    for module, path in MODULES.items():
        area = module.split(".")[1] if "." in module else ""
        if area not in NO_LATE_IMPORTS:
            continue
        tree = ast.parse(path.read_text())
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                for node in ast.walk(fn):
                    if isinstance(node, ast.Import | ast.ImportFrom) and resolve(MODULES, module, node):
                        late.append(f"{module}:{node.lineno}")
    assert not late, f"imports inside functions: {late}"
