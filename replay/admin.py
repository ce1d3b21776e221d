"""Admin registrations for the replay app's models."""
