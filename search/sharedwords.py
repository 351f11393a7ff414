"""Native 64-bit words whose middle is shared memory: how the compiled search reaches the shared
transposition table (``Threads`` > 1) as fast as its own.

``SharedWords.map(fd, offset, words)`` allocates a native vector a page longer than asked
(``unwritten_store``: no word written, so no page of it resident) and maps ``words`` words of
the file ``fd`` from ``offset`` over the vector's first whole page onwards (``mmap`` with
``MAP_FIXED``). The search then indexes ``store[base + i]`` with the code and the speed of the
one-thread table: no Python call per probe (through a ``memoryview`` every probe and store is a
call, which costs the shared table about an eighth of the search's speed, docs/measurements.md).
The pure build's vectors are ``array('q')``: ``map`` works on them too (the tests use it), but
``search.sharedtt.attach`` gives the pure build the ``memoryview`` table, as slow there.

Safety: the vector's memory belongs to the allocator, so it must be private again before it is
freed. ``SharedWords`` holds a reference to the vector (so the memory cannot be freed while it is
mapped), and ``close`` (also called by ``__del__``) maps private zero pages back over the window
before it lets the reference go. The address of the vector's items is read with ``ctypes``
(``array.buffer_info`` pure; in a native vector's box, after the object header, come the length
and the items pointer) and checked by writing a word through the address and reading it back
through the vector at both ends: if the layout is not the expected one, or the system has no
``mmap`` to call (Windows), ``map`` raises ``SharedWordsError`` and the caller uses a
``memoryview`` (``search.sharedtt.ViewTranspositionTable``).

>>> import tempfile
>>> with tempfile.TemporaryFile() as f:
...     _ = f.truncate(2 * PAGE)
...     one = SharedWords.map(f.fileno(), PAGE, PAGE // 8)
...     two = SharedWords.map(f.fileno(), PAGE, PAGE // 8)
...     one.store[one.base + 5] = 42
...     int(two.store[two.base + 5]), one.words
...     one.close(); two.close()
(42, 512)
"""

from __future__ import annotations

import ctypes
import mmap
import sys
from array import array
from typing import TYPE_CHECKING, Final, cast

from mypy_extensions import i64

from engine.bits import COMPILED, i64_store

if TYPE_CHECKING:
    from librt.vecs import vec

# ---------------------------------------------------------------- constants
PAGE: Final = mmap.ALLOCATIONGRANULARITY  # mappings start and end on this (the page size on POSIX)
MAP_FIXED: Final = 0x10  # mmap's flag "at exactly this address" (Linux and macOS; not in the mmap module)
VEC_LENGTH_OFFSET: Final = 2 * ctypes.sizeof(ctypes.c_void_p)  # a native vector's box: the object header, ...
VEC_ITEMS_OFFSET: Final = VEC_LENGTH_OFFSET + 8  # ... its length, then its items pointer
SENTINEL: Final = 0x5A5A_1234_A5A5_4321  # written through the address, read back through the vector


class SharedWordsError(OSError):
    """The shared words cannot be native here (no ``mmap`` to call, or an unknown vector layout)."""


def _libc_mmap() -> ctypes._CFuncPtr:  # type: ignore[name-defined]
    """The C library's ``mmap``, typed (``SharedWordsError`` where there is none)."""
    if sys.platform == "win32":
        raise SharedWordsError("no POSIX mmap on Windows")
    try:
        fn = ctypes.CDLL(None, use_errno=True).mmap
    except (OSError, AttributeError) as e:
        raise SharedWordsError(f"no C library mmap: {e}") from None
    fn.restype = ctypes.c_void_p
    fn.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int64]
    return fn


def _box_length(store: vec[i64]) -> ctypes.c_ssize_t:
    """The length field of a native vector's box (its layout is checked by the callers)."""
    return ctypes.c_ssize_t.from_address(id(store) + VEC_LENGTH_OFFSET)


def unwritten_store(n: int) -> vec[i64]:
    """A native vector of ``n`` words none of which was written, so none of its pages is
    resident: every helper maps ``Hash`` megabytes over one, and zeroing it first would cost each
    of them that much memory for a moment. A vector of capacity ``n`` whose length (in its box,
    after the object header) is set to ``n`` (checked); the pure build's zeros (``i64_store``)."""
    if not COMPILED:
        return i64_store(n)
    from librt.vecs import vec as native_vec

    store: vec[i64] = native_vec[i64](capacity=n)
    if n > 0:
        length = _box_length(store)
        if length.value != 0:
            raise SharedWordsError("unknown native vector layout")
        length.value = n
    if len(store) != n:
        raise SharedWordsError("unknown native vector layout")
    return store


def items_address(store: vec[i64]) -> int:
    """The address of item 0 of an ``i64_store`` (checked: ``SharedWordsError`` when the layout
    is not the expected one)."""
    n = len(store)
    if isinstance(store, array):  # the pure build
        address: int = cast("array[int]", store).buffer_info()[0]
    else:
        if _box_length(store).value != n:
            raise SharedWordsError("unknown native vector layout")
        address = ctypes.c_void_p.from_address(id(store) + VEC_ITEMS_OFFSET).value or 0
    for k in (0, n - 1):
        cell = ctypes.c_int64.from_address(address + 8 * k)
        old = cell.value
        cell.value = SENTINEL
        seen = int(store[k])
        cell.value = old
        if seen != SENTINEL:
            raise SharedWordsError("unknown native vector layout")
    return address


def touch(words: vec[i64] | memoryview, start: int, count: int) -> None:
    """Fault in every page of ``words[start:start + count]`` now, writable, by writing each page's
    first word back (another process's store racing it may be lost: a table's entry, harmless).
    Else each page faults the first time the search touches it: measured, that cost a fresh
    16 MB table a fifth of a search's time at depth 10 (docs/measurements.md)."""
    for k in range(start, start + count, PAGE // 8):
        words[k] = words[k]


def _make_private(address: int, size: int, store: vec[i64]) -> None:
    """Private zero pages at ``address``; if even that fails, ``store`` is kept for ever (the
    allocator must never get shared or unmapped pages back)."""
    flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | MAP_FIXED
    if _libc_mmap()(address, size, mmap.PROT_READ | mmap.PROT_WRITE, flags, -1, 0) != address:
        _leaked.append(store)


class SharedWords:
    """``words`` 64-bit words of a file, at ``store[base]`` to ``store[base + words - 1]``
    (see the module docstring)."""

    def __init__(self, store: vec[i64], base: int, words: int, address: int) -> None:
        self.store = store  # the native vector (its memory stays allocated while mapped)
        self.base = base  # the index in store of the file's first word
        self.words = words
        self.address = address  # where the window starts; 0 once closed

    @classmethod
    def map(cls, fd: int, offset: int, words: int) -> SharedWords:
        """Map ``words`` words of file ``fd`` from byte ``offset`` (a multiple of ``PAGE``; the
        words a whole number of pages) into a new vector."""
        size = 8 * words
        if offset % PAGE or size % PAGE or size <= 0:
            raise SharedWordsError(f"{size} bytes at {offset}: not whole pages of {PAGE} bytes")
        mmap_ = _libc_mmap()
        store = unwritten_store(words + PAGE // 8)
        items = items_address(store)
        skip = -items % PAGE  # bytes to the first page boundary
        address = items + skip
        flags = mmap.MAP_SHARED | MAP_FIXED
        got = mmap_(address, size, mmap.PROT_READ | mmap.PROT_WRITE, flags, fd, offset)
        if got != address:
            errno = ctypes.get_errno()
            _make_private(address, size, store)  # a failed MAP_FIXED may have left a hole
            raise SharedWordsError(f"mmap failed: errno {errno}")
        shared = cls(store, skip // 8, words, address)
        touch(store, shared.base, words)
        return shared

    def clear(self) -> None:
        """Zero every word (of every process that maps them)."""
        if self.address:
            ctypes.memset(self.address, 0, 8 * self.words)

    def close(self) -> None:
        """Put private zero pages back over the window, then let the vector go."""
        if not self.address:
            return
        _make_private(self.address, 8 * self.words, self.store)
        self.address = 0
        self.store = i64_store(0)  # the vector lives on while its users hold it: private memory now

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # at interpreter exit ctypes may be gone: the process ends anyway
            pass


_leaked: list[vec[i64]] = []  # vectors whose window could not be unmapped (never seen; kept, not freed)
