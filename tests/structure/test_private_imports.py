"""No ``_private`` name is imported across modules (issue 23): shared internals get public names.

The checker is ``tests/structure/private_imports.py`` (also a script): a private import
anywhere fails, and so does a name listed in ``KNOWN`` that is gone.
"""

from __future__ import annotations

from tests.structure.private_imports import check_source, files, private_imports

#: Private imports that remain, by file and name: none (the state machine's mixins got public
#: names too). A name may only be added here with a reason beside it.
KNOWN: frozenset[str] = frozenset()


def _without_line(found: str) -> str:
    path, _line, what = found.split(":", 2)
    return f"{path}:{what}"


def test_no_private_name_is_imported_across_modules() -> None:
    found = {_without_line(line) for path in files() for line in private_imports(path)}
    assert sorted(found - KNOWN) == []
    assert sorted(KNOWN - found) == [], "gone: remove these from KNOWN"


def test_the_checker_finds_both_forms_and_leaves_the_rest() -> None:
    source = (
        "from engine.formats.base import _INFLATE_STEP, decompress\n"
        "from engine.formats import canonical\n"
        "from . import _sibling\n"
        "from engine.events import Game\n"
        "x = canonical._speaking\n"
        "y = Game._private_thing\n"
        "z = canonical.__name__\n"
        "def f(self):\n    return self._own\n"
    )
    found = list(check_source(source, "engine.formats.example", False, "example.py"))
    assert found == [
        "example.py:1: from engine.formats.base import _INFLATE_STEP",
        "example.py:3: from engine.formats import _sibling",
        "example.py:5: canonical._speaking",
    ]
