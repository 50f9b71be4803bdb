"""Prefect flows and the I/O around the pure transforms: extract, load, CLI."""

import os

# Polars' allocator (jemalloc) returns freed pages lazily (MADV_FREE, then after 1 s); until
# then they count in RSS, so the memory of parsed batches piled up while later ones were parsed.
# Returning them at once keeps peak RSS with the batch size (measured at 1M listings: -260 MB
# while parsing, same time). Polars reads this when it loads: this package is imported first.
os.environ.setdefault("_RJEM_MALLOC_CONF", "background_thread:true,muzzy_decay_ms:0")
