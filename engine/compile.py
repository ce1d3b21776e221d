"""Compile the engine with mypyc, in place: the optional fast build (issue 21).

    python -m engine.compile            # build: a .so beside each compiled .py, one shared lib
    python -m engine.compile --clean    # remove every built file: the pure-Python engine again
    python -m engine.compile --list     # which modules are compiled, which are not and why
    python -m engine.compile --test     # build, test the compiled modules, clean (CI)

Python's import system prefers an extension module to the ``.py`` beside it, so after a build
``import engine`` runs the compiled modules and the modules of :data:`EXCLUDED` stay interpreted
(mypyc mixes the two). ``engine.is_compiled()`` says which engine a process runs. The pure-Python
engine stays the reference and the fallback: the build changes no behaviour, and the engine tests
run against both (CI: a pure run and a compiled one). It needs ``mypy`` (which ships mypyc),
``setuptools`` and a C compiler; the engine itself still needs only the standard library. Builds
are not incremental: run ``--clean`` or this script again after editing an engine module, since a
stale ``.so`` wins over the edited ``.py``.

Environment: ``MYPYC_OPT_LEVEL`` (default 3; 0 builds about twice as fast, for a quick check),
``MYPYC_JOBS`` (parallel C compiles, default: every core).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

ENGINE = Path(__file__).resolve().parent
ROOT = ENGINE.parent
#: mypyc's generated C and the object files (gitignored, removed by --clean).
BUILD = ROOT / "build" / "mypyc"

#: The engine modules (or packages, ending in /) left interpreted, each with why: the only list of
#: them. Every other module under engine/ is compiled. Package ``__init__`` modules are all left
#: out (see below).
EXCLUDED: dict[str, str] = {
    "engine/__main__.py": "the command line's entry point: nothing to speed up",
    "engine/cli.py": "the command line: argparse and its module __doc__, run once per process",
    "engine/cli_games.py": "the command line's game commands: argparse, run once per process",
    "engine/errors.py": "EngineError.code is a plain class attribute, which a compiled class "
    "turns into an instance attribute never set; errors are not hot",
    "engine/formats/canonical.py": "it reads Ùzje's records too, whose halves of points are floats "
    "typed as int (see engine/variants/uzje/ below)",
    "engine/game_flow.py": "shared with Ùzje, whose scores hold halves (floats typed as int); "
    "per hand, not per event",
    "engine/events.py": 'dataclasses with a ClassVar default (type = "draw"): mypyc hands the '
    "ClassVar to @dataclass as a field, which breaks the constructors",
    "engine/families.py": "a plug-in point: a game family subclasses GameFamily, and compiled "
    "classes refuse interpreted subclasses (a family of a test, or of a user)",
    "engine/report.py": "a plug-in point: a family's replay subclasses ReplayDriver",
    "engine/frame_types.py": "a plug-in point: a family's framer subclasses FrameDriver",
    "engine/variants/uzje/": "the whole Ùzje family: its halves of points are floats typed as "
    "int (cast), which compiled code refuses at run time; and it is not the riichi hot path",
    "engine/rules/modifiers.py": "the plug-in point: user code subclasses RuleModifier, and the "
    "@register class decorator makes non-native classes",
    "engine/hand/shanten_table_build.py": "the builder of the shipped shanten table: run offline",
    "engine/compile.py": "this build script",
    "engine/sim/selfplay.py": "SimulationError subclasses RuntimeError, which mypyc cannot "
    "compile; self-play is not on the replay or scoring path",
}
#: Why every package ``__init__.py`` is left interpreted.
INIT_REASON = (
    "package __init__: re-exports, registries and lazy imports, nothing hot; interpreted they "
    "keep their module __doc__ and stay cheap to import"
)


def _excluded_by(name: str) -> str | None:
    """The key of :data:`EXCLUDED` that leaves the module (``engine/x/y.py``) interpreted."""
    for key in EXCLUDED:
        if name == key or (key.endswith("/") and name.startswith(key)):
            return key
    return None


def modules() -> tuple[list[Path], dict[Path, str]]:
    """The engine's modules to compile, and those left interpreted with the reason."""
    compiled: list[Path] = []
    left: dict[Path, str] = {}
    used: set[str] = set()
    for path in sorted(ENGINE.rglob("*.py")):
        key = _excluded_by(path.relative_to(ROOT).as_posix())
        if key is not None:
            left[path] = EXCLUDED[key]
            used.add(key)
        elif path.name == "__init__.py":
            left[path] = INIT_REASON
        else:
            compiled.append(path)
    if set(EXCLUDED) - used:
        sys.exit(f"engine.compile: EXCLUDED names no module: {sorted(set(EXCLUDED) - used)}")
    return compiled, left


def built_files() -> list[Path]:
    """Every extension module under engine/ and at the top (mypyc's shared library)."""
    found = [
        path
        for folder, pattern in ((ENGINE, "**/*"), (ROOT, "*"))
        for path in folder.glob(pattern)
        if path.name.endswith(tuple(EXTENSION_SUFFIXES))
    ]
    return sorted(found)


def clean() -> None:
    built = built_files()
    for path in built:
        path.unlink()
    if BUILD.exists():
        shutil.rmtree(BUILD)
    if built:
        print(f"removed {len(built)} extension modules and {BUILD.relative_to(ROOT)}/")


def _compile_in_parallel(jobs: int) -> None:
    """Make setuptools compile the C files of one extension in parallel.

    mypyc puts the code of every module in one extension (the shared library), whose C files
    setuptools compiles one after the other (``build_ext --parallel`` only runs extensions side
    by side). This is distutils' ``CCompiler.compile`` with its loop run by a thread pool.
    """
    from concurrent.futures import ThreadPoolExecutor
    from distutils.ccompiler import CCompiler
    from typing import Any

    import setuptools  # noqa: F401 (first: it makes "distutils" its own copy, which build_ext uses)

    def compile_sources(
        self: Any,
        sources: list[str],
        output_dir: str | None = None,
        macros: Any = None,
        include_dirs: Any = None,
        debug: bool = False,
        extra_preargs: Any = None,
        extra_postargs: Any = None,
        depends: Any = None,
    ) -> list[str]:
        macros, objects, extra_postargs, pp_opts, build = self._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs
        )
        cc_args = self._get_cc_args(pp_opts, debug, extra_preargs)

        def one(obj: str) -> None:
            src, ext = build[obj]
            self._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)

        # The largest files first, so that no long compile starts last.
        todo = [obj for obj in objects if obj in build]
        order = sorted(todo, key=lambda obj: -os.path.getsize(build[obj][0]))
        with ThreadPoolExecutor(jobs) as pool:
            list(pool.map(one, order))
        return list(objects)

    CCompiler.compile = compile_sources  # type: ignore[method-assign,assignment]


def build() -> None:
    # Imported here: --clean and --list need neither mypyc nor setuptools.
    from mypyc.build import mypycify
    from setuptools import setup

    compiled, _ = modules()
    clean()  # a stale .so of a module now excluded would still win over its .py
    jobs = int(os.environ.get("MYPYC_JOBS") or os.cpu_count() or 1)
    _compile_in_parallel(jobs)
    started = time.perf_counter()
    os.chdir(ROOT)  # mypy reads its configuration (strict) from pyproject.toml here
    extensions = mypycify(
        [path.relative_to(ROOT).as_posix() for path in compiled],
        opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3"),
        # One C file per module rather than one for all: the C compiles then run in parallel.
        multi_file=True,
        target_dir=str(BUILD),
        # The compiled modules' shared library is engine__mypyc.*.so at the top of the tree (not
        # a name made of a hash); mypyc cannot put it inside the package.
        group_name="engine",
    )
    setup(
        name="engine-compiled",
        ext_modules=extensions,
        script_args=[
            "build_ext",
            "--inplace",
            "--build-temp",
            str(BUILD / "temp"),
            "--build-lib",
            str(BUILD / "lib"),
        ],
    )
    elapsed = time.perf_counter() - started
    print(f"compiled {len(compiled)} engine modules in {elapsed:.0f} s ({jobs} jobs)")


#: The engine's tests run against the build (``--test``): those of the compiled modules (the hand,
#: scoring, rules, the readers, the state machine, the replay), about 2,400. The rest of
#: tests/engine (the variants' self-play, the schema, Ùzje, which stays interpreted) runs on the
#: pure engine only, so that the README's test command stays inside CI's half hour.
TESTED = (
    "tests/engine/hand",
    "tests/engine/scoring",
    "tests/engine/rules",
    "tests/engine/formats",
    "--ignore=tests/engine/formats/test_schema.py",
    "tests/engine/test_replay_corpus.py",
    "tests/engine/test_replay_real_records.py",
    "tests/engine/test_replay_mutations.py",
    "tests/engine/test_replay_scope.py",
    "tests/engine/test_state.py",
    "tests/engine/test_tiles.py",
    "tests/engine/test_cli.py",
    "tests/engine/test_final_points.py",
)


def test() -> int:
    """Build, run :data:`TESTED` against the compiled engine in a fresh process (which must find
    it compiled: tests/engine/conftest.py), and remove the build whatever happened, so that the
    working tree runs the pure-Python engine again. Returns pytest's status."""
    try:
        build()
        env = dict(os.environ, ENGINE_EXPECT_COMPILED="1")
        command = [sys.executable, "-m", "pytest", *TESTED, "-q", "-p", "no:cacheprovider"]
        print("running the tests of the compiled modules against the build", flush=True)
        return subprocess.run(command, cwd=ROOT, env=env).returncode
    finally:
        clean()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--clean", action="store_true", help="remove the built files")
    action.add_argument("--list", action="store_true", help="list the modules and exit")
    action.add_argument(
        "--test",
        action="store_true",
        help="build, run the compiled modules' tests against it, then remove it (README's tests)",
    )
    args = parser.parse_args(argv)
    if args.test:
        return test()
    if args.clean:
        clean()
    elif args.list:
        compiled, left = modules()
        for path in compiled:
            print(f"compiled     {path.relative_to(ROOT)}")
        for path, reason in left.items():
            print(f"interpreted  {path.relative_to(ROOT)}: {reason}")
        print(f"{len(compiled)} compiled, {len(left)} interpreted")
    else:
        build()
    return 0


if __name__ == "__main__":
    sys.exit(main())
