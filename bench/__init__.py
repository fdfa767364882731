"""Benchmarks: costs measured as ratios in one run, never asserted in tests."""
