"""Celery tasks of the replay app. None yet.

A task is thin and safe to run twice: it takes ids, calls one service, and is queued after
the transaction commits (``transaction.on_commit`` or ``task.delay_on_commit``). Engine
errors are verdicts to record, never retried; only transient faults are retried.
"""
