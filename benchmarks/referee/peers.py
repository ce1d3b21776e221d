"""Which peers are installed: the referee needs all four, and says which one is missing."""

from __future__ import annotations

import importlib
import importlib.metadata

#: Every judge the referee runs, in the order of the report: "ours" is our own replay of the
#: exports, "game" the referee's own judgement of the whole game (judge_game_flow), the rest are
#: the peers below.
JUDGES = ("ours", "libriichi", "riichienv", "jansou", "mahjong", "game")

#: Each peer: the module the referee imports, and how to install it.
PEERS = {
    "libriichi (PyPI mjai)": (
        "mjai.mlibriichi",
        "pip install --no-deps 'mjai==0.2.*' (without its dependencies: mjai 0.2 declares "
        "mahjong~=1.2, which would downgrade our pinned mahjong 2.1.0)",
    ),
    "riichienv": ("riichienv", "pip install -e '.[test]'"),
    "jansou": ("jansou", "pip install -e '.[test]'"),
    "mahjong 2.1.0": ("mahjong", "pip install -e '.[test]'"),
}


def missing() -> list[str]:
    """One line per missing (or wrong) peer, naming it and how to install it."""
    lines = []
    for name, (module, install) in PEERS.items():
        try:
            importlib.import_module(module)
        except ImportError as error:
            lines.append(f"{name} is missing ({error}); install it with: {install}")
    try:
        version = importlib.metadata.version("mahjong")
    except importlib.metadata.PackageNotFoundError:
        version = None
    if version is not None and version != "2.1.0":
        lines.append(
            f"mahjong {version} is installed, the referee needs 2.1.0 (pinned in pyproject.toml): "
            "pip install 'mahjong==2.1.0'"
        )
    return lines
