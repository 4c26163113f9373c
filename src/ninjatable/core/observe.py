"""Helpers for writing observations fast.

A game writes its observation through `memoryview(out)`: an item store into a memoryview is a plain Python store,
where a numpy item store goes through numpy's indexing machinery. Sets kept as bitmasks (cards played, colours
shown void) become runs of 0.0/1.0 here, copied into the view in one slice store.
"""

from __future__ import annotations

from array import array

# _BYTE_FLOATS[b]: the eight bits of byte b, lowest first, as float32 0.0 or 1.0.
_BYTE_FLOATS = tuple(array("f", [float((b >> i) & 1) for i in range(8)]) for b in range(256))


def bit_floats(mask: int, width: int) -> memoryview:
    """Bits 0 to `width - 1` of `mask` as `width` float32 values 0.0 or 1.0, bit 0 first (for a memoryview store)."""
    if width <= 8:
        return memoryview(_BYTE_FLOATS[mask & 0xFF])[:width]
    row = array("f")
    for b in mask.to_bytes((width + 7) // 8, "little"):
        row += _BYTE_FLOATS[b]
    return memoryview(row)[:width]
