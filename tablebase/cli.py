"""``alice-engine tb generate [ENDINGS] --dir DIR [--cluster ADDRESS|local:N]``.

ENDINGS are ending names (``KQK KRK``) or piece counts (``3``: every 3-man ending; ``4``: every
4-man one); none means ``3``. Each ending's smaller and promoted endings are generated first
(``KPK`` needs ``KQK`` .. ``KNK``). An ending whose file is already complete is skipped, so an
interrupted run resumes where it stopped. A progress bar per ending goes to stderr; the
summary (ending, positions, won/drawn/lost, longest mate, seconds, file size) to stdout.
``--cluster`` generates the endings of one piece count side by side on a Dask cluster (each
worker writes into DIR, which must be shared).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any, Final, TextIO

from tablebase.ending import ORDER, canonical, ending, endings_of, valid_name
from tablebase.fileformat import TableFileError, file_name, is_complete, read_table, write_table
from tablebase.generate import MissingTableError, generate
from tablebase.values import DECIDED, DRAWN, ILLEGAL

BAR_WIDTH: Final = 30  # characters of the progress bar
DEFAULT_MEN: Final = "3"
EXIT_USAGE: Final = 2
CONNECT_TIMEOUT: Final = 30  # seconds to reach a Dask scheduler


class GenerateError(Exception):
    """The generation cannot run: bad endings, a directory that cannot be written."""


def expand(words: list[str]) -> list[str]:
    """Ending names from the command line's words, each after what it needs, without repeats."""
    names: list[str] = []
    for word in words or [DEFAULT_MEN]:
        if word.isdigit():
            if not 3 <= int(word) <= 5:
                raise GenerateError(f"{word}: the tables have 3 to 5 pieces")
            wanted = endings_of(int(word))
        elif valid_name(word.upper()):
            wanted = [word.upper()]
        else:
            raise GenerateError(f"{word!r} is not an ending (examples: KQK, KRKN, KPK, or 3 for all 3-man)")
        for name in wanted:
            for needed in [*dependencies(name), name]:
                if needed not in names:
                    names.append(needed)
    return names


def _sides(name: str) -> tuple[str, str]:
    second = name.index("K", 1)
    return name[:second], name[second:]


def successors(name: str) -> list[str]:
    """The endings one capture or one promotion turns ``name`` into (bare kings left out)."""
    out: list[str] = []
    white, black = _sides(name)
    for side, other, first in ((white, black, True), (black, white, False)):
        for i, piece in enumerate(side):
            if piece == "K":
                continue
            rest = side[:i] + side[i + 1 :]
            changed = [rest] + ([_sorted(rest + q) for q in "QRBN"] if piece == "P" else [])
            for new in changed:
                pair = (new, other) if first else (other, new)
                if len(pair[0] + pair[1]) > 2:
                    out.append(canonical(*pair)[0])
    return out


def _sorted(side: str) -> str:
    return "".join(sorted(side, key=ORDER.index))


def dependencies(name: str) -> list[str]:
    """Every ending ``name`` can turn into, each after those it needs (``name`` not included)."""
    out: list[str] = []

    def visit(n: str) -> None:
        for other in successors(n):
            if other != name and other not in out:
                visit(other)
                if other not in out:
                    out.append(other)

    visit(name)
    return out


def stats(values: bytes | bytearray) -> dict[str, int]:
    """Counts by result for the side to move, and the longest mate in plies."""
    counts = Counter(values)
    won = sum(n for v, n in counts.items() if v >= DECIDED and (v - DECIDED) % 2)
    lost = sum(n for v, n in counts.items() if v >= DECIDED and not (v - DECIDED) % 2)
    longest = max((v - DECIDED for v in counts if v >= DECIDED), default=0)
    return {"legal": len(values) - counts[ILLEGAL], "won": won, "drawn": counts[DRAWN], "lost": lost, "longest": longest}


def progress_bar(name: str, stream: TextIO) -> Callable[[int, int], None]:
    """A progress callback drawing ``NAME [#####     ]  41%`` on ``stream``."""
    started = time.monotonic()

    def show(done: int, total: int) -> None:
        filled = BAR_WIDTH * done // max(1, total)
        elapsed = time.monotonic() - started
        end = "\n" if done >= total else ""
        stream.write(f"\r{name:6} [{'#' * filled}{' ' * (BAR_WIDTH - filled)}] {100 * done // max(1, total):3d}% {elapsed:6.0f}s{end}")
        stream.flush()

    return show


def generate_one(name: str, directory: str, show_progress: bool = True) -> str:
    """Generate ``name`` into ``directory`` (its dependencies must be there); the summary line."""
    e = ending(name)
    if is_complete(directory, name, e.size):
        return f"{name}: already complete, skipped"
    started = time.monotonic()

    def source(other: str) -> bytes | None:
        try:
            return read_table(os.path.join(directory, file_name(other)), other, ending(other).size)
        except TableFileError:
            return None

    cache: dict[str, bytes | None] = {}

    def cached(other: str) -> bytes | None:
        if other not in cache:
            cache[other] = source(other)
        return cache[other]

    values = generate(name, cached, progress_bar(name, sys.stderr) if show_progress else None)
    path = write_table(directory, name, values)
    s = stats(values)
    seconds = time.monotonic() - started
    return (
        f"{name}: {s['legal']} positions, side to move won {s['won']} drawn {s['drawn']} lost {s['lost']}, "
        f"longest mate {s['longest']} plies, {seconds:.0f} s, {os.path.getsize(path)} bytes"
    )


def run_local(names: list[str], directory: str) -> None:
    for name in names:
        print(generate_one(name, directory), flush=True)


def run_cluster(names: list[str], directory: str, address: str) -> None:
    """The endings on a Dask cluster, one piece count at a time (a count needs the smaller ones)."""
    try:
        distributed: Any = importlib.import_module("distributed")  # typed loosely: Dask is untyped
    except ImportError:
        raise GenerateError("--cluster needs Dask: pip install 'alice-engine[cluster]'") from None
    try:
        if address.startswith("local:"):
            workers = int(address[6:])
            if workers < 1:
                raise ValueError(address)
            client = distributed.Client(distributed.LocalCluster(n_workers=workers, threads_per_worker=1))
        else:
            client = distributed.Client(address, timeout=CONNECT_TIMEOUT)
    except ValueError:
        raise GenerateError(f"--cluster {address}: expected a scheduler address or local:N (N >= 1)") from None
    except (OSError, TimeoutError) as error:
        raise GenerateError(f"--cluster {address}: cannot connect ({error})") from None
    try:
        for wave in _waves(names):
            futures = client.map(generate_one, wave, directory=os.path.abspath(directory), show_progress=False, pure=False)
            for line in client.gather(futures):
                print(line, flush=True)
    finally:
        client.close()


def _waves(names: list[str]) -> list[list[str]]:
    """Groups that can run side by side: each ending after everything it needs."""
    waves: list[list[str]] = []
    level: dict[str, int] = {}
    for name in names:
        need = [level[d] for d in dependencies(name) if d in level]
        level[name] = max(need, default=-1) + 1
        if level[name] == len(waves):
            waves.append([])
        waves[level[name]].append(name)
    return waves


def main(argv: list[str]) -> int:
    """``alice-engine tb ...``: the exit code."""
    parser = argparse.ArgumentParser(prog="alice-engine tb", description="Alice endgame tablebases (distance to mate).")
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="generate endings (resumable)")
    gen.add_argument("endings", nargs="*", help="ending names (KQK) or piece counts (3); default 3")
    gen.add_argument("--dir", required=True, help="the table directory")
    gen.add_argument("--cluster", help="ADDRESS of a Dask scheduler, or local:N workers")
    args = parser.parse_args(argv)
    try:
        names = expand(args.endings)
        if args.cluster:
            run_cluster(names, args.dir, args.cluster)
        else:
            run_local(names, args.dir)
    except (GenerateError, MissingTableError, OSError) as error:
        print(f"alice-engine tb: {error}", file=sys.stderr)
        return EXIT_USAGE if isinstance(error, GenerateError) else 1
    return 0
