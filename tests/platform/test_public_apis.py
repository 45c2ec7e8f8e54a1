"""The server uses only the public APIs of its libraries (docs/performance.md, D31, D33): no
private module of uvicorn, websockets, Starlette, FastAPI, aiosqlite or SQLAlchemy is
imported, no private name of theirs is read, and no class of theirs is subclassed (but the
two named below), so a new release that renames its internals cannot break it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from support import ROOT

SRC = ROOT / "src"
LIBRARIES = ("uvicorn", "websockets", "starlette", "fastapi", "aiosqlite", "sqlalchemy")

# modules of these libraries that their documentation does not offer (uvicorn documents
# uvicorn.run, Config and Server; its protocols, loops and lifespan are its own business)
INTERNAL = ("uvicorn.protocols", "uvicorn.loops", "uvicorn.lifespan", "uvicorn.supervisors")

# the classes built on a library's, and why: the ORM's declarative base, which SQLAlchemy's
# documentation has every model subclass
KNOWN_SUBCLASSES = {("geniusnight/storage/models.py", "Base")}


def sources() -> Iterator[tuple[str, ast.Module]]:
    for path in sorted((SRC / "geniusnight").rglob("*.py")):
        yield path.relative_to(SRC).as_posix(), ast.parse(path.read_text(), str(path))


def imported(tree: ast.Module) -> Iterator[tuple[str, str | None]]:
    """Every ``(module, name)`` the file imports (``name`` None for ``import module``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, None
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                yield node.module, alias.name


def library_names(tree: ast.Module) -> dict[str, str]:
    """The names a module binds to a library's modules and classes: local name -> what it is."""
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if of_a_library(alias.name):
                    names[alias.asname or alias.name.split(".")[0]] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level and of_a_library(node.module):
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return names


def library_subclasses(tree: ast.Module) -> Iterator[tuple[str, str]]:
    """Every ``(class, base)`` where a class of the module is built on a library's class."""
    names = library_names(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for base in node.bases:
                root = base
                while isinstance(root, ast.Attribute | ast.Subscript | ast.Call):
                    root = root.func if isinstance(root, ast.Call) else root.value
                if isinstance(root, ast.Name) and root.id in names:
                    yield node.name, ast.unparse(base)


def of_a_library(module: str) -> bool:
    return module.split(".")[0] in LIBRARIES


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def test_no_private_module_or_name_of_a_library_is_imported() -> None:
    found = []
    for path, tree in sources():
        for module, name in imported(tree):
            if not of_a_library(module):
                continue
            private = any(is_private(part) for part in module.split(".")) or (name is not None and is_private(name))
            internal = module.startswith(INTERNAL)
            if private or internal:
                found.append(f"{path}: {module}" + (f" import {name}" if name else ""))
    assert found == []


def test_no_private_attribute_is_read_where_a_library_is_used() -> None:
    """In every module that imports one of the libraries, no ``x._name`` (nor
    ``getattr(x, "_name")``) is read on anything but the module's own ``self`` or ``cls``."""
    found = []
    for path, tree in sources():
        if not any(of_a_library(module) for module, _ in imported(tree)):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and is_private(node.attr):
                owner = node.value
                if not (isinstance(owner, ast.Name) and owner.id in ("self", "cls")):
                    found.append(f"{path}:{node.lineno}: {ast.unparse(node)}")
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "setattr", "hasattr")
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)
                and is_private(node.args[1].value)
            ):
                found.append(f"{path}:{node.lineno}: {ast.unparse(node)}")
    assert found == []


def test_no_class_of_a_library_is_subclassed() -> None:
    """No ``class X(aiosqlite.Connection)`` (nor of any other library's class) but the two named."""
    found = [
        f"{path}: {name}({base})"
        for path, tree in sources()
        for name, base in library_subclasses(tree)
        if (path, name) not in KNOWN_SUBCLASSES
    ]
    assert found == []


def test_the_rule_sees_a_subclass_of_a_librarys_class() -> None:
    tree = ast.parse(
        "import aiosqlite\nfrom sqlalchemy.ext.asyncio import AsyncSession as S\n"
        "class Inline(aiosqlite.Connection): pass\nclass Mine(S): pass\nclass Own(dict): pass\n"
    )
    assert list(library_subclasses(tree)) == [("Inline", "aiosqlite.Connection"), ("Mine", "S")]


def test_the_rule_sees_a_private_import_and_a_private_read() -> None:
    """The checks above find what they look for (on a made-up module)."""
    tree = ast.parse("import uvicorn\nfrom starlette._utils import x\nserver._private_field\n")
    assert ("starlette._utils", "x") in set(imported(tree))
    assert of_a_library("aiosqlite") and of_a_library("sqlalchemy.dialects.sqlite.aiosqlite")
    assert is_private("_utils") and not is_private("__init__")
    reads = [n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and is_private(n.attr)]
    assert [ast.unparse(n) for n in reads] == ["server._private_field"]
