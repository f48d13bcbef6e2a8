"""Benchmarks run by `cardroom bench ...` (never part of the test suite)."""
