#!/usr/bin/env python3
"""Self-play A/B: this checkout's engine against the engine at another git revision.

    python scripts/selfplay.py BASE_REV [--nodes 3000] [--rounds 50] [--sprt] [-- EXTRA alice-match ARGS]

The base revision is checked out into a temporary git worktree and both engines run as
``python -m uci`` from their own tree, so the only difference is the code. They play the
bundled openings with colours reversed (``-games 2 -repeat``) at fixed nodes, which makes
the result independent of machine load. ``--sprt`` stops early on elo0=0 elo1=10. This is
how search and evaluation changes are accepted: a change lands when it scores above the base.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from alice_match.cli import main as match_main  # noqa: E402


def match_args(base_dir: str, test_dir: str, nodes: int, rounds: int, sprt: bool, concurrency: int) -> list[str]:
    """The ``alice-match`` arguments for one A/B run."""
    engine = f"{sys.executable} -m uci"
    args = [
        "-engine", f"cmd={engine}", "name=test", f"dir={test_dir}",
        "-engine", f"cmd={engine}", "name=base", f"dir={base_dir}",
        "-each", f"nodes={nodes}",
        "-games", "2", "-rounds", str(rounds), "-repeat",
        "-concurrency", str(concurrency),
        "-openings", "file=default", "order=random", "-srand", "1",
    ]  # fmt: skip
    if sprt:
        args += ["-sprt", "elo0=0", "elo1=10", "alpha=0.05", "beta=0.05"]
    return args


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="git revision of the base engine (e.g. HEAD~1, main)")
    parser.add_argument("--nodes", type=int, default=3000, help="nodes per move for both (default 3000)")
    parser.add_argument("--rounds", type=int, default=50, help="openings played, twice each (default 50)")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--sprt", action="store_true", help="stop early with an SPRT (elo0=0, elo1=10)")
    parser.add_argument("extra", nargs="*", help="further alice-match arguments (after --)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="alice-base-") as tmp:
        base_dir = os.path.join(tmp, "base")
        subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", base_dir, args.base], check=True)
        try:
            return match_main(
                match_args(base_dir, ROOT, args.nodes, args.rounds, args.sprt, args.concurrency) + args.extra
            )
        finally:
            subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force", base_dir], check=False)


if __name__ == "__main__":
    sys.exit(main())
