"""Throughput and strength benchmarks: run `python -m benchmarks` (never timed asserts in tests)."""
