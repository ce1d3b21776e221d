"""Coverage-guided fuzzing of every game-record reader with atheris (libFuzzer), for runs of
hours. Not collected by pytest (its name is not ``test_*``); the quick hypothesis fuzzing that
runs in CI is ``tests/engine/formats/test_fuzz.py``.

Each input is read by every format by name and by sniffing; the readers may refuse it with the
engine's own errors or read games the service can store (``fuzz_support.check_reading``).
Anything else is a crash: libFuzzer stops and writes the input to ``crash-<sha1>`` beside the
corpus; ``python tests/fuzz_readers.py <that file>`` runs it again.

    .venv/bin/pip install atheris
    .venv/bin/python tests/fuzz_readers.py                       # until stopped
    .venv/bin/python tests/fuzz_readers.py -max_total_time=600   # ten minutes
    .venv/bin/python tests/fuzz_readers.py -jobs=2 -workers=2    # two processes

The corpus (and the seeds it starts from: valid documents of every format, plain and gzip) is
kept in ``test-artifacts/fuzz-readers/corpus`` (override with ``MJ_FUZZ_DIR``), so a later run
goes on from what earlier ones found. Other arguments go to libFuzzer as they are.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import atheris

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

with atheris.instrument_imports(include=["engine"]):
    # engine.formats imports its format modules on first use: import them here, to have them
    # instrumented.
    import engine.formats.canonical
    import engine.formats.mjai
    import engine.formats.mjlog
    import engine.formats.tenhou6
    import engine.variants.uzje.record  # noqa: F401 - the canonical reader's Ùzje dialect
    from tests.engine.formats.fuzz_support import check_reading, gzipped, seed_documents

#: Words of every format that random mutation would take long to find: libFuzzer splices them.
DICTIONARY = [
    *("<mjloggm", "</mjloggm>", "<INIT", "<AGARI", "<RYUUKYOKU", "<REACH", "<DORA", "<N ", "<UN"),
    *("<GO", "<TAIKYOKU", "<T", "<D", "<U", "<E", "<V", "<F", "<W", "<G", "<!DOCTYPE", "<!ENTITY"),
    *(' who="', ' m="', ' seed="', ' ten="', ' sc="', ' owari="', ' hai="', ' machi="', ' yaku="'),
    *('"log"', '"name"', '"rule"', '"disp"', '"sc"', '"ref"', "\u548c\u4e86", "\u6d41\u5c40"),
    *('"type"', '"start_game"', '"start_kyoku"', '"tsumo"', '"dahai"', '"hora"', '"pai"', '"5mr"'),
    *('"format"', '"mjlogs-canonical"', '"version"', '"rounds"', '"events"', '"tile"', '"seat"'),
    *("NaN", "Infinity", "-1", "1e999", "\\u0000", "\\ud800", "\x1f\x8b\x08", "\xff\xfe"),
]


def corpus_dir() -> Path:
    base = Path(os.environ.get("MJ_FUZZ_DIR", ROOT / "test-artifacts" / "fuzz-readers"))
    corpus = base / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    for name, (_, data) in seed_documents().items():
        (corpus / f"seed-{name}").write_bytes(data)
        (corpus / f"seed-{name}.gz").write_bytes(gzipped(data))
    escaped = ("".join(f"\\x{byte:02x}" for byte in word.encode()) for word in DICTIONARY)
    (base / "readers.dict").write_text("".join(f'"{word}"\n' for word in escaped))
    return corpus


def test_one_input(data: bytes) -> None:
    check_reading(data)


def main() -> None:
    corpus = corpus_dir()
    arguments = [sys.argv[0], *sys.argv[1:]]
    if not any(argument.startswith("-dict=") for argument in arguments):
        arguments.append(f"-dict={corpus.parent / 'readers.dict'}")
    if not any(not argument.startswith("-") for argument in arguments[1:]):
        arguments.append(str(corpus))
    # Whole documents, not just their first 4 KB (libFuzzer's default); a reader that spins or
    # eats memory on one input is a finding too.
    defaults = {
        "-max_len": "262144",
        "-timeout": "20",
        "-rss_limit_mb": "2048",
        "-artifact_prefix": f"{corpus.parent}/",  # crash-<sha1> files, beside the corpus
    }
    for option, value in defaults.items():
        if not any(argument.startswith(option + "=") for argument in arguments):
            arguments.append(f"{option}={value}")
    atheris.Setup(arguments, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
