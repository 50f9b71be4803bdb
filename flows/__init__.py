"""Prefect flows and the I/O around the pure transforms: extract, load, CLI."""
