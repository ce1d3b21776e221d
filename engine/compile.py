"""Compile the engine with mypyc: the optional fast build (issue 21), in place or as a wheel.

    python -m engine.compile            # build: a .so beside each compiled .py, one shared lib
    python -m engine.compile --clean    # remove every built file: the pure-Python engine again
    python -m engine.compile --list     # which modules are compiled, which are not and why
    python -m engine.compile --wheel    # the two wheels, compiled and pure, in build/wheels
    python -m engine.compile --test     # both wheels; test the compiled one's modules, install
                                        # both and compare their verdicts; clean (CI)

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
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
import warnings
import zipfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

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
    "engine/jobs.py": "the commands' --jobs option: read once per process",
    "engine/errors.py": "EngineError.code is a plain class attribute, which a compiled class "
    "turns into an instance attribute never set, and SimulationError subclasses RuntimeError, "
    "which mypyc cannot compile; errors are not hot",
    "engine/formats/canonical.py": "it reads Ùzje's records too, whose halves of points are floats "
    "where the record says int (engine.dialect.PointsOrHalf; see engine/variants/uzje/ below)",
    "engine/game_flow.py": "shared with Ùzje, whose scores hold halves (floats where the record "
    "says int: engine.dialect.PointsOrHalf); per hand, not per event",
    "engine/events.py": 'dataclasses with a ClassVar default (type = "draw"): mypyc hands the '
    "ClassVar to @dataclass as a field, which breaks the constructors",
    "engine/families.py": "a plug-in point: a game family subclasses GameFamily, and compiled "
    "classes refuse interpreted subclasses (a family of a test, or of a user)",
    "engine/report.py": "a plug-in point: a family's replay subclasses ReplayDriver",
    "engine/frame_types.py": "a plug-in point: a family's framer subclasses FrameDriver",
    "engine/variants/uzje/": "the whole Ùzje family: its halves of points are floats where the "
    "shared types say int (engine.dialect.PointsOrHalf), which compiled code refuses at run time; "
    "and it is not the riichi hot path",
    "engine/rules/modifiers.py": "the plug-in point: user code subclasses RuleModifier, and the "
    "@register class decorator makes non-native classes",
    "engine/rules/ruleset.py": "its dataclass's annotations are the types engine/rules/options.py "
    "reads every option into (tuple[int, ...], int | None ...); a compiled class erases them to "
    "bare classes (tuple, type)",
    "engine/hand/shanten_table_build.py": "the builder of the shipped shanten table: run offline",
    "engine/compile.py": "this build script",
    "engine/hand/acceptance_batch.py": "its work is in numpy's own compiled loops: compiled, "
    "its few Python lines per game would gain nothing, and mypyc does not know numpy's types",
    "engine/sim/selfplay.py": "self-play is not on the replay or scoring path, and its tests "
    "(tests/engine/sim) are not among TESTED: compiled, it would go untested",
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


def native_modules() -> dict[str, list[str]]:
    """The engine's hand-written C extensions, their sources by module name, as pyproject.toml
    lists them (``[tool.setuptools] ext-modules``): ``pip install`` builds them, this script
    leaves them in place, and the compiled wheel ships them too. Each has a Python fallback."""
    with (ROOT / "pyproject.toml").open("rb") as file:
        listed = tomllib.load(file)["tool"]["setuptools"].get("ext-modules", [])
    return {str(module["name"]): list(module["sources"]) for module in listed}


def _native(path: Path) -> bool:
    """Whether an extension module's file is one of :func:`native_modules`."""
    name = path.relative_to(ROOT).as_posix().split(".")[0].replace("/", ".")
    return name in native_modules()


def built_files() -> list[Path]:
    """Every extension module under engine/ and at the top (mypyc's shared library) that this
    script builds: not those of :func:`native_modules`."""
    found = [
        path
        for folder, pattern in ((ENGINE, "**/*"), (ROOT, "*"))
        for path in folder.glob(pattern)
        if path.name.endswith(tuple(EXTENSION_SUFFIXES)) and not _native(path)
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


def _extensions(compiled: list[str], target_dir: Path) -> list[Any]:
    """mypyc's extensions for these modules (paths relative to the working directory), with the
    project's mypy settings (strict): the C written under ``target_dir``."""
    from mypyc.build import mypycify  # (imported here: --clean and --list need no mypyc)

    return mypycify(
        [f"--config-file={ROOT / 'pyproject.toml'}", *compiled],
        opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3"),
        # One C file per module rather than one for all: the C compiles then run in parallel.
        multi_file=True,
        target_dir=str(target_dir),
        # The compiled modules' shared library is engine__mypyc.*.so at the top of the tree (not
        # a name made of a hash); mypyc cannot put it inside the package.
        group_name="engine",
    )


def _native_extensions() -> list[Any]:
    """The extensions of :func:`native_modules` (sources relative to the working directory)."""
    from setuptools import Extension

    return [Extension(name, sources) for name, sources in native_modules().items()]


def _jobs() -> int:
    jobs = int(os.environ.get("MYPYC_JOBS") or os.cpu_count() or 1)
    _compile_in_parallel(jobs)
    return jobs


def build() -> None:
    from setuptools import setup

    compiled, _ = modules()
    clean()  # a stale .so of a module now excluded would still win over its .py
    jobs = _jobs()
    started = time.perf_counter()
    os.chdir(ROOT)
    setup(
        name="engine-compiled",
        ext_modules=_extensions([path.relative_to(ROOT).as_posix() for path in compiled], BUILD),
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


# The wheels ---------------------------------------------------------------------------------
#
# The engine alone (it needs only the standard library; numpy, optional, speeds up the study
# aids) is shipped as a distribution of its
# own, mjlogs-engine, in two wheels: the compiled one, for this platform and Python, and the
# pure-Python one, for any, which pip takes where no compiled wheel fits. Both are built from a
# copy of the engine's sources (no stray build or cache), so that setuptools reads no project
# file but the metadata given here. The service itself keeps its editable install and compiles
# in place (``build``): the two would both provide the package ``engine``.

#: Where ``--wheel`` writes the two wheels (under the gitignored build/).
WHEELS = ROOT / "build" / "wheels"
#: The distribution's name.
DISTRIBUTION = "mjlogs-engine"


def _project_version() -> str:
    with (ROOT / "pyproject.toml").open("rb") as file:
        version: str = tomllib.load(file)["project"]["version"]
    return version


#: Engine modules the wheels leave out: tools of the source tree, which an installed copy must
#: not run (this script's --clean, run from site-packages, would delete other packages' files).
NOT_SHIPPED = ("compile.py", "shanten_table_build.py")


def _staged_sources(folder: Path) -> Path:
    """A copy of engine/ in ``folder``: its modules and package data, nothing built, and none of
    :data:`NOT_SHIPPED`."""
    ignored = shutil.ignore_patterns(
        "__pycache__", *NOT_SHIPPED, *(f"*{suffix}" for suffix in EXTENSION_SUFFIXES)
    )
    shutil.copytree(ENGINE, folder / "engine", ignore=ignored)
    return folder


def _wheel(staged: Path, out: Path, compiled: list[str] | None) -> Path:
    """Build one wheel of the staged engine into ``out`` (compiled when ``compiled`` names the
    modules to compile); returns its path."""
    from setuptools import find_packages, setup

    build_base = staged / ("build-compiled" if compiled else "build-pure")
    # bdist_wheel runs setuptools' install command into its own staging folder, which warns as
    # if someone had typed "setup.py install"; no one has.
    with contextlib.chdir(staged), warnings.catch_warnings():
        warnings.filterwarnings("ignore", "setup.py install is deprecated")
        distribution = setup(
            name=DISTRIBUTION,
            version=_project_version(),
            description="The rules engine of mjlogs: riichi and its variants, log formats, replay.",
            python_requires=">=3.11",
            # The study aids value a game's decisions together with numpy; without it, one by
            # one (engine.study.StudyContext.outcomes): the same tallies, slower.
            extras_require={"study": ["numpy>=1.26,<3"]},
            packages=find_packages(include=["engine", "engine.*"]),
            package_data={"engine": ["**/*.json", "**/*.bin", "py.typed"]},
            ext_modules=(
                [*_extensions(compiled, build_base / "mypyc"), *_native_extensions()]
                if compiled
                else []
            ),
            script_args=[
                "build",
                "--build-base",
                str(build_base),
                "bdist_wheel",
                "--dist-dir",
                str(out),
                "--bdist-dir",
                str(build_base / "wheel"),
            ],
        )
    (made,) = [name for command, _, name in distribution.dist_files if command == "bdist_wheel"]
    return Path(made)


def wheels(out: Path = WHEELS) -> tuple[Path, Path]:
    """Build the engine's compiled wheel and its pure-Python one into ``out`` (emptied first);
    returns their paths (compiled, pure)."""
    compiled_modules, _ = modules()
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    jobs = _jobs()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="engine-wheel-") as folder:
        staged = _staged_sources(Path(folder))
        pure = _wheel(staged, out, None)
        names = [path.relative_to(ROOT).as_posix() for path in compiled_modules]
        compiled = _wheel(staged, out, names)
    elapsed = time.perf_counter() - started
    print(f"built {compiled.name} and {pure.name} in {elapsed:.0f} s ({jobs} jobs)")
    return compiled, pure


def _unpack_extensions(wheel: Path) -> int:
    """Put the compiled wheel's extension modules in the tree, beside their ``.py`` files (what
    ``build`` makes): the tests then run the very binaries the wheel ships."""
    with zipfile.ZipFile(wheel) as archive:
        names = [name for name in archive.namelist() if name.endswith(tuple(EXTENSION_SUFFIXES))]
        for name in names:
            archive.extract(name, ROOT)
    return len(names)


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
    "tests/engine/test_state_memory.py",  # compiled, a nested function is a cycle per call
    "tests/engine/test_study_pass.py",  # the study in the verification's pass
    "tests/engine/test_study_table_tiles.py",
)


def test() -> int:
    """What CI runs (the README's test command): build both wheels; run :data:`TESTED` against
    the compiled wheel's extension modules, put in the tree, in a fresh process (which must find
    the engine compiled: tests/engine/conftest.py); install each wheel in a virtual environment of
    its own and compare their verdicts (:func:`_check_installed`); and remove the build whatever
    happened, so that the working tree runs the pure-Python engine again. Returns the status."""
    try:
        clean()
        compiled, pure = wheels()
        count = _unpack_extensions(compiled)
        env = dict(os.environ, ENGINE_EXPECT_COMPILED="1")
        command = [sys.executable, "-m", "pytest", *TESTED, "-q", "-p", "no:cacheprovider"]
        print(f"running the compiled modules' tests on the {count} extension modules of the wheel")
        status = subprocess.run(command, cwd=ROOT, env=env).returncode
        return status or _check_installed(compiled, pure)
    finally:
        clean()
        shutil.rmtree(WHEELS, ignore_errors=True)


#: The records both installed wheels verify (in the repository, so always there).
CHECK_RECORDS = ROOT / "tests" / "data" / "real"


def _check_installed(compiled: Path, pure: Path) -> int:
    """Install each wheel in a new virtual environment and run ``python -m engine verify`` on
    :data:`CHECK_RECORDS` from outside the tree (so the tree's engine cannot be the one found):
    the compiled install must run compiled, the pure one pure (the fallback), and their verdicts
    must be the same, line for line (the pure engine is the reference). Returns 0 or 1."""
    outputs: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="engine-wheel-check-") as folder:
        for wheel, expect_compiled in ((compiled, True), (pure, False)):
            venv = Path(folder) / ("compiled" if expect_compiled else "pure")
            subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
            python = str(venv / "bin" / "python")
            pip = [sys.executable, "-m", "pip", "--python", python, "install", "--quiet"]
            subprocess.run([*pip, "--no-index", "--no-deps", str(wheel)], check=True)
            env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
            probe = "import engine; print(engine.is_compiled())"
            found = subprocess.run(
                [python, "-c", probe], cwd=folder, env=env, capture_output=True, text=True
            )
            if found.stdout.strip() != str(expect_compiled):
                print(f"{wheel.name}: engine.is_compiled() gave {found.stdout or found.stderr}")
                return 1
            verify = [python, "-m", "engine", "verify", str(CHECK_RECORDS), "--json", "--jobs", "1"]
            done = subprocess.run(verify, cwd=folder, env=env, capture_output=True, text=True)
            if done.returncode not in (0, 1) or not done.stdout:
                print(f"{wheel.name}: engine verify failed ({done.returncode}):\n{done.stderr}")
                return 1
            outputs[wheel.name] = done.stdout
    if outputs[compiled.name] != outputs[pure.name]:
        print(f"{compiled.name} and {pure.name} disagree on {CHECK_RECORDS.relative_to(ROOT)}")
        return 1
    games = outputs[pure.name].count("\n")
    print(f"both wheels installed: the same {games} verdict lines, compiled and pure")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--clean", action="store_true", help="remove the built files")
    action.add_argument("--list", action="store_true", help="list the modules and exit")
    action.add_argument(
        "--wheel",
        action="store_true",
        help="build the engine's compiled and pure-Python wheels in build/wheels/",
    )
    action.add_argument(
        "--test",
        action="store_true",
        help="build both wheels, run the compiled modules' tests on the compiled one, install "
        "both and compare their verdicts, then remove it all (the README's tests)",
    )
    args = parser.parse_args(argv)
    if not (ROOT / "pyproject.toml").is_file():
        # An installed engine (a wheel leaves this script out; an older copy may not): here ROOT
        # would be site-packages, whose extension modules --clean would delete.
        parser.error(f"{ROOT} is not the source tree (no pyproject.toml): nothing to build here")
    if args.test:
        return test()
    if args.wheel:
        wheels()
    elif args.clean:
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
