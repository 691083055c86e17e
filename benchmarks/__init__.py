"""Benchmarks: synthetic vault generator, baselines and one runner (`python -m benchmarks`)."""
