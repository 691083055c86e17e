"""Benchmarks for vaultkit: a synthetic vault generator, baselines and one runner (`python -m benchmarks`)."""
