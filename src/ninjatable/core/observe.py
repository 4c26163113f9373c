"""Helpers for writing observations fast, and the seat tables every observation reads.

A game writes its observation through `memoryview(out)`: an item store into a memoryview is a plain Python store,
where a numpy item store goes through numpy's indexing machinery. Sets kept as bitmasks (cards played, colours
shown void) become runs of 0.0/1.0 here, copied into the view in one slice store; other runs are made once as
float32 bytes (`float32s`, `one_hot`) and copied whole by a `struct` store.

Observations name the other seats relative to the observer (relative seat 0 is the observer, 1 the next seat in
turn order, ...), so that one network plays from any seat.
"""

from __future__ import annotations

import struct
from array import array

MAX_TABLE = 8  # the seat tables below cover tables of 1 to MAX_TABLE players

# _BYTE_FLOATS[b]: the eight bits of byte b, lowest first, as float32 0.0 or 1.0.
_BYTE_FLOATS = tuple(array("f", [float((b >> i) & 1) for i in range(8)]) for b in range(256))

# SEATS_FROM[n][seat][r]: the seat at relative seat r from `seat` at a table of n, (seat + r) % n.
SEATS_FROM = {n: tuple(tuple((seat + r) % n for r in range(n)) for seat in range(n)) for n in range(1, MAX_TABLE + 1)}
# RELATIVE_SEAT[n][seat][s]: where seat s sits relative to `seat` at a table of n, (s - seat) % n.
RELATIVE_SEAT = {n: tuple(tuple((s - seat) % n for s in range(n)) for seat in range(n)) for n in range(1, MAX_TABLE + 1)}


def bit_floats(mask: int, width: int) -> memoryview:
    """Bits 0 to `width - 1` of `mask` as `width` float32 values 0.0 or 1.0, bit 0 first (for a memoryview store)."""
    if width <= 8:
        return memoryview(_BYTE_FLOATS[mask & 0xFF])[:width]
    row = array("f")
    for b in mask.to_bytes((width + 7) // 8, "little"):
        row += _BYTE_FLOATS[b]
    return memoryview(row)[:width]


def float32s(values: list[float]) -> bytes:
    """`values` as native float32 bytes, a run an observation copies whole."""
    return struct.pack(f"={len(values)}f", *values)


def one_hot(width: int, at: int) -> bytes:
    """A run of `width` float32 values, 1.0 at `at` (all 0.0 for at = -1)."""
    return float32s([1.0 if i == at else 0.0 for i in range(width)])
