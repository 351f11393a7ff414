"""The bench signature: the node count of ``bench`` pins the search (any change to search
or evaluation changes it, deliberately), and the README states the current one."""

from __future__ import annotations

import os
import re

from search.bench import run_bench

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH_SIGNATURE = 34521  # `alice-engine bench` -> "Nodes searched: 34521"; update with the README


def test_bench_signature_is_pinned() -> None:
    nodes, _ = run_bench()
    assert nodes == BENCH_SIGNATURE


def test_readme_states_the_current_signature() -> None:
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    stated = {int(n) for n in re.findall(r"`Nodes searched: (\d+)`", readme)}
    assert stated == {BENCH_SIGNATURE}, f"README states {sorted(stated)}, bench prints {BENCH_SIGNATURE}"
