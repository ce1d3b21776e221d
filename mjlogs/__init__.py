"""The mjlogs app.

Owns games, players, uploads, the raw originals, import services and exports.
"""
