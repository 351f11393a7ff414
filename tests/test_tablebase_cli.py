"""``alice-engine tb generate``'s planning: ending names and piece counts, what each ending needs
first (captures and promotions), the waves a cluster runs side by side, the ``--cluster`` run
itself (a local Dask cluster resuming a finished directory), and a 4-man ending's first
positions (its captures read in the 3-man tables)."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from engine.notation import parse_uci
from engine.position import Position
from support.installed import CHILD_CWD, engine_command
from tablebase.cli import _waves, dependencies, expand
from tablebase.ending import ending
from tablebase.fileformat import file_name, read_table
from tablebase.generate import MissingTableError, exits, geometry
from tablebase.probe import Tablebases
from tablebase.retro import Scratch, Visit, visit
from tablebase.values import DECIDED


def test_endings_and_their_order() -> None:
    assert expand([]) == ["KQK", "KRK", "KBK", "KNK", "KPK"]
    assert expand(["kpk"]) == ["KQK", "KRK", "KBK", "KNK", "KPK"]
    assert dependencies("KQKR") == ["KRK", "KQK"]
    assert len(expand(["4"])) == 5 + 30
    assert _waves(expand(["KRKP"])) == [["KQK", "KRK", "KBK", "KNK"], ["KPK", "KQKR", "KRKR", "KRKB", "KRKN"], ["KRKP"]]


def test_four_man_positions_read_three_man_tables(kqk_dir: str) -> None:
    """KQKQ: 1.Qxd3 takes the queen into KQK, whose table gives the capture its value; without
    KQK the generation stops with an error naming it."""
    e = ending("KQKQ")
    kqk = read_table(os.path.join(kqk_dir, file_name("KQK")), "KQK", ending("KQK").size)
    pos = Position("8/8/8/3k4/8/3q4/8/3QK3 w - - 0 1")
    idx = e.index([4, 3, 35, 19], 1)  # Ke1 Qd1 (A), Kd5 Qd3 (A), white to move
    out = Visit()
    visit(geometry(e), exits(e, lambda name: kqk if name == "KQK" else None), Scratch(), idx, out)
    pos.push(parse_uci(pos, "d1d3"))
    after = Tablebases(kqk_dir).probe(pos)
    assert after and (after - DECIDED) % 2 == 0  # black to move in KQK is lost here ...
    assert 0 < out.win <= after - DECIDED + 1  # ... so white mates through the capture
    assert out.value == DECIDED + out.win
    with pytest.raises(MissingTableError, match="KQK"):
        exits(e, lambda name: None)


def test_cluster_run_resumes(kqk_dir: str, tmp_path: object) -> None:
    pytest.importorskip("distributed")
    directory = os.path.join(str(tmp_path), "tables")
    os.makedirs(directory)
    shutil.copy(os.path.join(kqk_dir, "KQK.atb"), directory)
    done = subprocess.run(
        [*engine_command(), "tb", "generate", "KQK", "--dir", directory, "--cluster", "local:1"],
        capture_output=True, text=True, cwd=CHILD_CWD, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "KQK: already complete, skipped" in done.stdout


def test_bad_cluster_is_one_error_line(tmp_path: object) -> None:
    pytest.importorskip("distributed")
    done = subprocess.run(
        [*engine_command(), "tb", "generate", "KQK", "--dir", str(tmp_path), "--cluster", "local:x"],
        capture_output=True, text=True, cwd=CHILD_CWD, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.strip() == "alice-engine tb: --cluster local:x: expected a scheduler address or local:N (N >= 1)"
