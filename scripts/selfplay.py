#!/usr/bin/env python3
"""Self-play A/B: this checkout's engine against the engine at another git revision.

    python scripts/selfplay.py BASE_REV [--nodes 3000 | --tc 5+0.05] [--rounds 50]
                               [--sprt [--elo0 0 --elo1 10]] [--test-dir DIR] [-- EXTRA alice-match ARGS]

The base revision is checked out into a temporary git worktree and both engines run as
``python -m uci`` from their own tree, so the only difference is the code. They play the
bundled openings with colours reversed (``-games 2 -repeat``).

* ``--nodes N`` (the default, 3000): equal fixed nodes, independent of machine load. For
  changes that do not touch speed (evaluation weights, ordering, pruning thresholds).
* ``--tc T``: a time control such as ``5+0.05``. For everything that costs or saves time
  (a new evaluation term, SEE, time management): a fixed-node A/B hides those costs. Both
  trees are then built in place with the compiled core (``python setup.py build_ext
  --inplace``), as a user's ``pip install .`` builds it, unless ``--pure``; a tree that
  does not compile stops the run with an error (the running Python needs mypy and
  setuptools>=77). Run it with nothing heavy beside it (concurrency at most the number of
  cores). ``--compiled`` builds them so for a fixed-node run too (the same games, faster).

``--sprt`` stops as soon as the test decides, elo0/elo1 as given (default 0 and 10,
alpha = beta = 0.05). A change lands when it passes; the result goes in its commit message.
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

DEFAULT_NODES = 3000  # nodes per move in the fixed-node mode
DEFAULT_ELO1 = 10.0  # SPRT upper bound (elo0 defaults to 0)


def match_args(
    base_dir: str,
    test_dir: str,
    nodes: int | None = DEFAULT_NODES,
    rounds: int = 50,
    sprt: bool = False,
    concurrency: int = 2,
    tc: str | None = None,
    elo0: float = 0.0,
    elo1: float = DEFAULT_ELO1,
) -> list[str]:
    """The ``alice-match`` arguments for one A/B run (a time control wins over nodes)."""
    engine = f"{sys.executable} -m uci"
    limit = f"tc={tc}" if tc else f"nodes={nodes or DEFAULT_NODES}"
    args = [
        "-engine", f"cmd={engine}", "name=test", f"dir={test_dir}",
        "-engine", f"cmd={engine}", "name=base", f"dir={base_dir}",
        "-each", limit,
        "-games", "2", "-rounds", str(rounds), "-repeat",
        "-concurrency", str(concurrency),
        "-openings", "file=default", "order=random", "-srand", "1",
    ]  # fmt: skip
    if sprt:
        args += ["-sprt", f"elo0={elo0:g}", f"elo1={elo1:g}", "alpha=0.05", "beta=0.05"]
    return args


def build_in_place(tree: str) -> bool:
    """Compile ``tree``'s hot modules next to their sources; False (pure Python) if it cannot
    (``setup.py`` falls back to pure Python and still succeeds, so the build is asked which it is)."""
    if not os.path.exists(os.path.join(tree, "setup.py")):
        return False
    subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=tree, capture_output=True, text=True)
    probe = subprocess.run(
        [sys.executable, "-c", "import engine.build; print(engine.build.build_name())"],
        cwd=tree, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": tree},
    )  # fmt: skip
    return probe.stdout.strip() == "compiled: mypyc"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="git revision of the base engine (e.g. HEAD~1, main)")
    parser.add_argument("--nodes", type=int, default=DEFAULT_NODES, help="nodes per move for both (default 3000)")
    parser.add_argument("--tc", help="time control instead of nodes, e.g. 5+0.05 (builds both trees compiled)")
    parser.add_argument("--pure", action="store_true", help="with --tc: do not compile the trees")
    parser.add_argument("--compiled", action="store_true", help="with --nodes: compile both trees too (faster)")
    parser.add_argument("--rounds", type=int, default=50, help="openings played, twice each (default 50)")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--sprt", action="store_true", help="stop early with an SPRT")
    parser.add_argument("--elo0", type=float, default=0.0, help="SPRT lower bound (default 0)")
    parser.add_argument("--elo1", type=float, default=DEFAULT_ELO1, help="SPRT upper bound (default 10)")
    parser.add_argument("--test-dir", default=ROOT, help="the tree under test (default: this checkout)")
    parser.add_argument("extra", nargs="*", help="further alice-match arguments (after --)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="alice-base-") as tmp:
        base_dir = os.path.join(tmp, "base")
        subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", base_dir, args.base], check=True)
        try:
            if (args.tc and not args.pure) or args.compiled:
                for tree in (args.test_dir, base_dir):
                    if not build_in_place(tree):
                        # Timing a pure tree against a compiled one (or two pure ones, when
                        # the compile was asked for) would measure the wrong thing.
                        print(
                            f"selfplay.py: error: {tree} could not be compiled: `python setup.py build_ext"
                            f" --inplace` needs mypy and setuptools>=77 in {sys.executable}"
                            " (pip install 'mypy>=2.4.1,<2.5' 'setuptools>=77'); or pass --pure",
                            file=sys.stderr,
                        )
                        return 2
                    print(f"{tree}: compiled", flush=True)
            run = match_args(
                base_dir, args.test_dir, args.nodes, args.rounds, args.sprt, args.concurrency,
                args.tc, args.elo0, args.elo1,
            )  # fmt: skip
            return match_main(run + args.extra)
        finally:
            subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force", base_dir], check=False)


if __name__ == "__main__":
    sys.exit(main())
