"""The engine's build script (``python -m engine.compile``): which modules it compiles, and the
pure-Python wheel it ships beside the compiled one.

The compiled wheel itself is built and checked by ``python -m engine.compile --test`` (the README's
test command: its extension modules run the compiled modules' tests, and it is installed beside
the pure wheel and gives the same verdicts); building it takes a minute, so it is not built here.
"""

from __future__ import annotations

import tomllib
import zipfile
from pathlib import Path

import pytest

from engine import compile as build_script


def _wheel_names(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def test_the_hot_path_is_compiled_and_every_module_left_out_says_why() -> None:
    compiled, left = build_script.modules()
    names = {path.relative_to(build_script.ROOT).as_posix() for path in compiled}
    # What the compiled engine is for: reading Tenhou logs, the state machine, the replay, the
    # hand analysis and scoring (a module moved to EXCLUDED by mistake makes this fail).
    hot = {
        "engine/tiles.py",
        "engine/hand/decompose.py",
        "engine/hand/shanten.py",
        "engine/scoring/score.py",
        "engine/state/game.py",
        "engine/variants/riichi/replay.py",
        "engine/formats/mjlog.py",
    }
    assert hot <= names
    assert all(reason.strip() for reason in left.values())


def test_the_staged_sources_leave_out_built_and_cached_files_and_the_tools(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = tmp_path / "tree" / "engine"
    (fake / "hand" / "__pycache__").mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "hand" / "shanten.py").write_text("")
    (fake / "compile.py").write_text("")
    (fake / "hand" / "table.bin").write_bytes(b"\0")
    (fake / "hand" / "__pycache__" / "shanten.cpython-311.pyc").write_bytes(b"")
    suffix = build_script.EXTENSION_SUFFIXES[0]
    (fake / "hand" / f"shanten{suffix}").write_bytes(b"")
    monkeypatch.setattr(build_script, "ENGINE", fake)

    staged = build_script._staged_sources(tmp_path / "staged")

    found = sorted(p.relative_to(staged).as_posix() for p in staged.rglob("*") if p.is_file())
    assert found == ["engine/__init__.py", "engine/hand/shanten.py", "engine/hand/table.bin"]


def test_the_pure_wheel_holds_every_module_and_its_data_and_nothing_built(
    tmp_path: Path,
) -> None:
    here = Path.cwd()
    staged = build_script._staged_sources(tmp_path / "staged")
    wheel = build_script._wheel(staged, tmp_path / "out", None)
    assert Path.cwd() == here  # the build ran in the staged folder, and came back

    project = tomllib.loads((build_script.ROOT / "pyproject.toml").read_text())["project"]
    version = project["version"]
    assert wheel.name == f"mjlogs_engine-{version}-py3-none-any.whl"
    names = set(_wheel_names(wheel))
    root = build_script.ROOT
    modules = {path.relative_to(root).as_posix() for path in build_script.ENGINE.rglob("*.py")}
    tools = {"engine/compile.py", "engine/hand/shanten_table_build.py"}
    assert modules - tools <= names
    # The source tree's tools stay out: this script's --clean, run from site-packages, would
    # delete other packages' extension modules.
    assert not tools & names
    data = {
        "engine/py.typed",
        "engine/hand/suit_frontiers.bin",
        "engine/hand/suit_joins.bin",
        "engine/schema/game.schema.json",
    }
    assert data <= names
    assert not [name for name in names if name.endswith(tuple(build_script.EXTENSION_SUFFIXES))]
    assert not [name for name in names if "__pycache__" in name]
    with zipfile.ZipFile(wheel) as archive:
        metadata = archive.read(f"mjlogs_engine-{version}.dist-info/METADATA").decode()
        wheel_file = archive.read(f"mjlogs_engine-{version}.dist-info/WHEEL").decode()
    assert "Name: mjlogs-engine" in metadata
    # The engine needs only the standard library: the wheel requires nothing but under its
    # extra "study" (numpy, which values a game's study aids at once).
    required = [line for line in metadata.splitlines() if line.startswith("Requires-Dist")]
    assert required and all('extra == "study"' in line for line in required)
    assert "Provides-Extra: study" in metadata
    assert "Root-Is-Purelib: true" in wheel_file


def test_the_script_refuses_to_run_outside_the_source_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # As from an installed engine: ROOT is site-packages, where --clean would delete files.
    (tmp_path / "other.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    monkeypatch.setattr(build_script, "ROOT", tmp_path)

    with pytest.raises(SystemExit):
        build_script.main(["--clean"])

    assert "not the source tree" in capsys.readouterr().err
    assert (tmp_path / "other.cpython-311-x86_64-linux-gnu.so").exists()


def test_the_hand_written_extensions_are_pyproject_s_and_clean_leaves_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with (build_script.ROOT / "pyproject.toml").open("rb") as file:
        listed = tomllib.load(file)["tool"]["setuptools"]["ext-modules"]
    assert build_script.native_modules() == {m["name"]: m["sources"] for m in listed}
    assert "engine.hand.acceptance_kernel" in build_script.native_modules()
    # A tree with one extension of mypyc's and one hand-written: only mypyc's is the build's.
    root = tmp_path / "tree"
    (root / "engine" / "hand").mkdir(parents=True)
    (root / "pyproject.toml").write_text(
        '[[tool.setuptools.ext-modules]]\nname = "engine.hand.acceptance_kernel"\n'
        'sources = ["engine/hand/acceptance_kernel.c"]\n'
    )
    suffix = build_script.EXTENSION_SUFFIXES[0]
    mypyc_built = root / "engine" / "hand" / f"shanten{suffix}"
    hand_written = root / "engine" / "hand" / f"acceptance_kernel{suffix}"
    for path in (mypyc_built, hand_written):
        path.write_bytes(b"")
    monkeypatch.setattr(build_script, "ROOT", root)
    monkeypatch.setattr(build_script, "ENGINE", root / "engine")
    monkeypatch.setattr(build_script, "BUILD", root / "build" / "mypyc")
    assert build_script.built_files() == [mypyc_built]
    build_script.clean()
    assert not mypyc_built.exists() and hand_written.exists()
