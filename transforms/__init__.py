"""Pure transforms: frames in, frames out, no I/O. Callable without Prefect."""
