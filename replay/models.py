"""Database models of the replay app. None yet."""
