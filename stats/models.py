"""Database models of the stats app. None yet."""
