"""Admin registrations for the stats app's models."""
