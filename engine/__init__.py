"""The rules engine: tiles, rule sets, hand analysis, scoring, the canonical game record, the
game state machine, the log formats, the replayer and self-play.

Standard library only and free of Django, like python-chess, so it can be used from a view, a
Celery task, the command line or a notebook. numpy, where installed, values the study aids of a
whole game at once (``engine.hand.acceptance_batch``); without it they are valued one by one.
"""

#: Recorded with every verification; raise it whenever a rule or a check changes, so that
#: ``manage.py reverify --outdated`` knows which verdicts to recompute.
__version__ = "0.4.0"


def is_compiled() -> bool:
    """Whether this process runs the mypyc-compiled engine (``python -m engine.compile``) rather
    than the pure-Python one: then the hand analysis, among others, is loaded from an extension
    module instead of its ``.py`` file. Tests and benchmarks print it, to say which engine they
    ran."""
    from importlib.machinery import EXTENSION_SUFFIXES

    from engine.hand import shanten

    return (shanten.__file__ or "").endswith(tuple(EXTENSION_SUFFIXES))
