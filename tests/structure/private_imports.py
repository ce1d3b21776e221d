"""Find ``_private`` names imported from another module.

Run as ``python -m tests.structure.private_imports``. A name that starts with one underscore is
private to the module that defines it; another module that needs it should get a public name
(issue 23). This checker reads the code with :mod:`ast` (nothing is imported) and reports every
``from module import _name`` and every ``module._name`` attribute taken through an imported
module, in ``engine/``, ``mjlogs/``, ``replay/``, ``stats/`` and ``config/`` (migrations left
out: Django writes them). Dunder names (``__version__``) are not private. Exit status 1 when
any is found.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "mjlogs", "replay", "stats", "config")


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _is_module(name: str) -> bool:
    """Whether a dotted name is one of our modules or packages (not a class or function)."""
    if name.split(".")[0] not in PACKAGES:
        return False
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The module an ``from ... import`` names, relative imports resolved."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def private_imports(path: Path) -> Iterator[str]:
    """``path:line: what`` for each private name the file takes from another module."""
    module = _module_name(path)
    text = path.read_text(encoding="utf-8")
    where = str(path.relative_to(ROOT))
    yield from check_source(text, module, path.name == "__init__.py", where)


def check_source(text: str, module: str, is_package: bool, where: str) -> Iterator[str]:
    """:func:`private_imports` of the source of ``module``."""
    tree = ast.parse(text, where)
    imported_modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = _absolute(node, module, is_package)
            for alias in node.names:
                if _private(alias.name) and source != module:
                    yield f"{where}:{node.lineno}: from {source} import {alias.name}"
                elif _is_module(f"{source}.{alias.name}"):
                    imported_modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in PACKAGES:
                    imported_modules.add(alias.asname or alias.name.split(".")[0])
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and _private(node.attr)
            and isinstance(node.value, ast.Name)
            and node.value.id in imported_modules
        ):
            yield f"{where}:{node.lineno}: {node.value.id}.{node.attr}"


def files() -> Iterator[Path]:
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def main() -> int:
    found = [line for path in files() for line in private_imports(path)]
    for line in found:
        print(line)
    if found:
        print(f"{len(found)} private name(s) imported across modules", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
