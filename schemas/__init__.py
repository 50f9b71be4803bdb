"""Pandera models for every stage's frame, and the warehouse DDL."""
