"""Database models of the mjlogs app. None yet."""
