"""scripts/compare_depth.py: one run against a second UCI engine prints every position's depth,
nodes and nodes per second for both, and the ratio (here our engine plays both parts)."""

from __future__ import annotations

import shlex

import pytest

import compare_depth
from support.installed import engine_command


def test_one_run_prints_both_engines_and_the_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    command = shlex.join(engine_command())
    assert compare_depth.main([command, "--engine", command, "--movetime", "100"]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.split()[:1] in ([n] for n, _ in compare_depth.POSITIONS)]
    assert [row[0] for row in rows] == [name for name, _ in compare_depth.POSITIONS]
    for row in rows:
        depth, nodes, nps, depth2, nodes2, nps2, ratio = row[1:]
        assert int(depth) >= 1 and int(depth2) >= 1
        assert min(int(v.replace(",", "")) for v in (nodes, nps, nodes2, nps2)) > 0
        assert float(ratio) > 0
    assert "nodes/s ours / " in out and "median" in out


def test_the_last_info_line_with_depth_and_nodes_counts() -> None:
    infos = [
        "info depth 3 seldepth 5 multipv 1 score cp 20 nodes 900 nps 3000 time 300 pv e2e4",
        "info depth 4 currmove e2e4 currmovenumber 1",
        "info string something",
    ]
    found = compare_depth.last_search(infos)
    assert found is not None and (found.depth, found.nodes, found.nps) == (3, 900, 3000)
    without_nps = compare_depth.last_search(["info depth 2 nodes 500 time 250"])
    assert without_nps is not None and without_nps.nps == 2000
