"""64-bit bitboards that stay fast in both builds.

A bitboard is a set of squares, bit ``s`` for square ``s`` (a1 = 0 .. h8 = 63). The
pure-Python build keeps it as a non-negative ``int`` below ``2**64``, as python-chess
does. The compiled build (mypyc) keeps it in a native signed 64-bit integer, ``i64``:
mypyc's ordinary ints box every value from ``2**62`` up, and the g8 and h8 bits (62 and
63) are in most bitboards of a game. There bit 63 is the sign bit, so a set with h8 has
a negative value.

The engine's code is the same for both: it combines bitboards with ``& | ^ ~`` and
isolates the lowest bit with ``b & -b`` (the same bits either way), builds tables once
with ``native()`` (a square's bit is ``tables.BB_SQUARES[s]``, never ``1 << s``: mypyc
2.4 compiles a constant ``1 << s`` as a 32-bit C shift), shifts bitboards left only
under a mask (``BB_ALL``), and never compares or prints a bitboard as a number. Counting and locating bits, which differ, go through
``popcount`` and ``bit_length``: the ``int`` methods themselves in the pure build (no
extra call), native code in the compiled one.

Tables and buffers of 64-bit ints are typed ``vec[i64]`` (``librt.vecs``, mypyc's native
vector: a read or write is one machine load or store, where a ``list`` read unboxes an int
object and a write allocates one). They are made by ``i64_table`` (built once), ``i64_buffer``
(zeros, written by index) and ``i64_store`` (zeros, large): native vectors when compiled; in
the pure build a ``list`` (fastest in CPython) or, for large stores, an ``array('q')`` (8
bytes a value). Code uses only what all three share: ``len``, indexing, iteration. Large
tables of small values are ``vec[i16]`` from ``i16_store`` (2 bytes a value; ``array('h')``
in the pure build); mypy keeps ``i16`` and ``i64`` apart, so code reads an element into an
``int`` variable and writes one from an ``int``.

>>> popcount(native(0xFF00000000000001))
9
>>> bit_length(native(1 << 63)) - 1  # the square of a one-bit set
63
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from mypy_extensions import i16, i64

if TYPE_CHECKING:
    from librt.vecs import vec

Bitboard = i64


def _probe() -> None:
    return None


# True when this module runs compiled: a compiled function has no ``__code__``. The
# compiled build's mypy is told that COMPILED is always true (``setup.py``), so it
# compiles only the native branches below.
COMPILED: Final = not hasattr(_probe, "__code__")

if COMPILED:
    from librt.vecs import append as _vec_append
    from librt.vecs import vec as _vec

    def native(x: int) -> i64:
        """``x`` (0 <= x < 2**64) as this build stores a bitboard: two's complement here."""
        if x >= 1 << 63:
            return x - (1 << 64)
        return x

    # The SWAR masks as native statics: mypyc keeps a literal of 2**62 or more boxed and
    # converts it on every use.
    _PAIRS: Final[i64] = native(0x5555555555555555)
    _NIBBLE_PAIRS: Final[i64] = native(0x3333333333333333)
    _NIBBLES: Final[i64] = native(0x0F0F0F0F0F0F0F0F)
    _BYTE_SUM: Final[i64] = native(0x0101010101010101)

    def popcount(b: i64) -> i64:
        """Number of squares in ``b`` (SWAR; wrap-around multiply, as i64 arithmetic wraps)."""
        b = b - ((b >> 1) & _PAIRS)
        b = (b & _NIBBLE_PAIRS) + ((b >> 2) & _NIBBLE_PAIRS)
        b = (b + (b >> 4)) & _NIBBLES
        return ((b * _BYTE_SUM) >> 56) & 0xFF

    def bit_length(b: i64) -> i64:
        """``int.bit_length`` of ``b`` read as an unsigned 64-bit word: 1 + its highest square
        (every bit below the highest one set, then counted: no boxing into a Python int)."""
        if b < 0:
            return 64
        b |= b >> 1
        b |= b >> 2
        b |= b >> 4
        b |= b >> 8
        b |= b >> 16
        b |= b >> 32
        return popcount(b)

    def i64_table(values: Iterable[int]) -> vec[i64]:
        """A table of 64-bit ints built once (attack tables, keys, weights): a native vector here."""
        return _vec[i64]([native(v) for v in values])

    def i64_buffer(n: int) -> vec[i64]:
        """``n`` zeros to read and write by index, never resized (search buffers and tables)."""
        buf = _vec[i64](capacity=n)
        i: i64 = 0
        while i < n:
            buf = _vec_append(buf, 0)
            i += 1
        return buf

    def i64_store(n: int) -> vec[i64]:
        """``n`` zeros in 8 bytes each, for large tables (the transposition table): ``i64_buffer``."""
        return i64_buffer(n)

    def i16_store(n: int) -> vec[i16]:
        """``n`` zeros in 2 bytes each, for large tables of small values (the continuation history)."""
        buf = _vec[i16](capacity=n)
        i: i64 = 0
        while i < n:
            buf = _vec_append(buf, 0)
            i += 1
        return buf

else:

    def native(x: int) -> i64:
        """``x`` (0 <= x < 2**64) as this build stores a bitboard: unchanged here."""
        return x

    popcount = int.bit_count  # type: ignore[assignment]
    bit_length = int.bit_length  # type: ignore[assignment]

    def i64_table(values: Iterable[int]) -> vec[i64]:
        """A table of ints built once: a list here (the fastest to read in CPython)."""
        return list(values)  # type: ignore[return-value]

    def i64_buffer(n: int) -> vec[i64]:
        """``n`` zeros to read and write by index: a list here."""
        return [0] * n  # type: ignore[return-value]

    def i64_store(n: int) -> vec[i64]:
        """``n`` zeros in 8 bytes each (an ``array('q')`` here: a list would box every value)."""
        return array("q", [0]) * n  # type: ignore[return-value]  # repeating a zero: no temporary

    def i16_store(n: int) -> vec[i16]:
        """``n`` zeros in 2 bytes each (an ``array('h')``); values must stay within +-32767."""
        return array("h", [0]) * n  # type: ignore[return-value]


def unsigned(b: i64) -> int:
    """A bitboard as python-chess keeps it (0 <= x < 2**64), for code outside the engine."""
    return int(b) & 0xFFFF_FFFF_FFFF_FFFF


BB_ALL: Final[i64] = native(0xFFFF_FFFF_FFFF_FFFF)  # every square (-1 in the compiled build)
