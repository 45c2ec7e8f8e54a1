"""The package's modules import each other without cycles, and the server and the engines
import what they need at the top of each module (no imports inside functions to dodge a
cycle). Imports under ``if TYPE_CHECKING:`` are for annotations only and do not count."""

from __future__ import annotations

import ast
from pathlib import Path

import geniusnight

ROOT = Path(geniusnight.__file__).parent
NO_LATE_IMPORTS = ("server", "engines")  # the CLI may import lazily to start fast


def module_name(path: Path) -> str:
    parts = ["geniusnight", *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in ROOT.rglob("*.py")}


def resolve(module: str, node: ast.ImportFrom | ast.Import) -> list[str]:
    """The package modules an import statement in ``module`` loads."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name in MODULES]
    is_package = MODULES[module].name == "__init__.py"
    base = module.split(".")
    if node.level:
        base = base[: len(base) - node.level + (1 if is_package else 0)]
    target = ".".join([*base, *(node.module.split(".") if node.module else [])])
    found = [target] if target in MODULES else []
    found += [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in MODULES]
    return found


def top_level_imports(module: str) -> set[str]:
    tree = ast.parse(MODULES[module].read_text())
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            out.update(resolve(module, node))
    return out - {module}


def test_no_module_imports_itself_through_others() -> None:
    graph = {m: top_level_imports(m) for m in MODULES}
    assert "geniusnight.server.play.ws" in graph["geniusnight.server.app"]  # the graph is read right
    done: set[str] = set()

    def visit(m: str, path: list[str]) -> None:
        if m in path:
            raise AssertionError("import cycle: " + " -> ".join([*path[path.index(m) :], m]))
        if m in done:
            return
        for n in sorted(graph[m]):
            if not n.startswith(m + ".") or MODULES[m].name != "__init__.py":
                visit(n, [*path, m])
        done.add(m)

    for m in sorted(graph):
        visit(m, [])


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
                    if isinstance(node, ast.Import | ast.ImportFrom) and resolve(module, node):
                        late.append(f"{module}:{node.lineno}")
    assert not late, f"imports inside functions: {late}"
