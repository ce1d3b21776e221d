"""The REST API of the mjlogs app: games, players and uploads (see docs/api.md)."""
