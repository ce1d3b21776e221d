"""The rules engine: tiles, rule sets, hand analysis, scoring (and, later, the game state machine,
log formats and the replayer).

Standard library only and free of Django, like python-chess, so it can be used from a view, a
Celery task, the command line or a notebook.
"""

__version__ = "0.1.0"
