"""Benchmarks: our engine against peers on the same inputs."""
