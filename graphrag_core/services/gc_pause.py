"""Pause Python's cyclic garbage collector while a campaign is loaded.

Loading a campaign of 10k entities allocates about a million objects (pydantic models, their
tuples and dicts), and each few hundred allocations trigger a collection that walks every
object still alive: measured, ~40 % of the CPU time of the first query after opening a store.
The loaded objects form no reference cycles for the collector to find, so it is paused while a
load runs and resumed after it (reference counting frees everything as usual meanwhile). When it
resumes, what was loaded is moved out of its reach (``gc.freeze``): otherwise the first
allocation after the load pays a full collection over the million new objects (~0.3 s), and
every later full collection again. Frozen objects are still freed by reference counting when a
cache drops them; only a reference cycle among them would outlive them, and the loaded models,
views and indexes hold none.
Pauses nest and may overlap across threads: the collector resumes when the last one ends, and
only if it was enabled when the first began."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_was_enabled = False


@contextmanager
def paused_gc() -> Iterator[None]:
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                gc.freeze()
                if _was_enabled:
                    gc.enable()
