"""Helpers shared by the robustness tests (fuzz, bad input, crash, concurrency)."""
