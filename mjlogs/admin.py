"""Admin registrations for the mjlogs app's models."""
