"""The stats app.

Owns per-round facts, per-player aggregates and the Celery tasks that keep them
current, and the statistics pages and API.
"""
