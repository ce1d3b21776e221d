"""Views of the mjlogs app, one module per concept: ``site`` (home, health), ``games``,
``players``, ``uploads`` and ``accounts``.

A view stays thin: validate the input, call one service or selector, render or serialize.
"""
