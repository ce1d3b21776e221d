"""The replay app.

Owns verification records and tasks, the step-by-step viewer and its frames API.
"""
