"""Views of the stats app. None yet.

A view stays thin: validate the input, call one service or selector, render or serialize.
"""
