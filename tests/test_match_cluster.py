"""alice-match -cluster on Dask distributed (issue 20): the same games as a local run,
workers that die mid-pair, the engine check on every worker, cancellation once an SPRT
decides, and the faults that must stop a run before any game. Skipped without Dask
(``pip install '.[cluster]'``; CI installs it)."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from alice_match.cli import main, parse_args
from alice_match.cluster import ClusterSpec, PairTask, _check_build, engine_digest, scaled
from alice_match.match import Match, run_match
from alice_match.stats import Sprt, SprtResult
from alice_match.tc import Limits, parse_tc
from alice_match.uci_process import EngineConfig, EngineError, UciProcess
from support.matchargs import SCRIPTED, each, our_engine, player, scripted
from support.matchrun import read_pgn, run

pytest.importorskip("distributed")

LOCAL2 = ["-cluster", "local:2"]


def game_facts(pgn: Path) -> dict[int, tuple[str, str, str, str, str]]:
    """Per game number: the players, the result, the termination and the moves."""
    facts = {}
    for game in read_pgn(pgn):
        h = game.headers
        moves = " ".join(m.uci() for m in game.mainline_moves())
        facts[int(h["GameNumber"])] = (h["White"], h["Black"], h["Result"], h["Termination"], moves)
    return facts


def without_times(text: str) -> list[str]:
    return sorted(line for line in text.splitlines() if not line.startswith(("Started game", "Score of")))


def summary(out: str) -> list[str]:
    """The report after the last game's score line."""
    lines = out.splitlines()
    last = max(i for i, line in enumerate(lines) if line.startswith("Score of "))
    return lines[last + 1 :]


# ------------------------------------------------------------------ the same games as a local run
def test_same_games_standings_and_report_as_a_local_run(tmp_path: Path) -> None:
    common = [
        *our_engine("alice"), *player("greedy", name="greedy", option_Seed=5), *player("random", name="random", option_Seed=7),
        *each(nodes=60), "-games", "2", "-repeat", "-maxmoves", "24", "-openings", "file=default", "order=random",
        "-srand", "11", "-ratinginterval", "0",
    ]  # fmt: skip
    runs = {}
    for kind, extra in (("local", ["-concurrency", "2"]), ("cluster", LOCAL2)):
        pgn, report = tmp_path / f"{kind}.pgn", tmp_path / f"{kind}.md"
        r = run([*common, *extra, "-pgnout", str(pgn), "-report", str(report)])
        assert r.status == 0, r.out + r.err
        runs[kind] = (r, game_facts(pgn), report.read_text())
    (local, local_games, local_report), (cluster, cluster_games, cluster_report) = runs["local"], runs["cluster"]
    assert sorted(cluster_games) == list(range(1, 7))
    assert cluster_games == local_games  # fixed nodes and seeds: every game the same, move by move
    assert without_times(cluster.out) == without_times(local.out)  # standings, crosstable, Finished lines
    assert sorted(cluster.lines("Started game")) == sorted(local.lines("Started game"))
    strip = re.compile(r"updated [0-9: -]+\.")
    assert strip.sub("", cluster_report) == strip.sub("", local_report)


def test_two_engine_match_with_pentanomial_sprt_and_resume(tmp_path: Path) -> None:
    pgn = tmp_path / "m.pgn"
    args = [
        *player("random", name="a", option_Seed=1), *player("greedy", name="b", option_Seed=2), *each(nodes=1),
        "-games", "2", "-rounds", "3", "-repeat", "-maxmoves", "20", "-openings", "file=default",
        "-sprt", "elo0=0", "elo1=10", "-pgnout", str(pgn),
    ]  # fmt: skip
    local = run([*args[:-2], "-pgnout", str(tmp_path / "local.pgn")])
    cluster = run([*args, *LOCAL2])
    assert cluster.status == 0 and cluster.match.pentanomial == local.match.pentanomial
    assert cluster.match.pentanomial.pairs == 3
    assert without_times(cluster.out) == without_times(local.out)  # Pairs and SPRT lines included
    full = game_facts(pgn)
    text = pgn.read_text()
    pgn.write_text(text[: text.index("[Event", text.index("[Event", 1) + 1)])  # keep two games
    resumed = run([*args, *LOCAL2, "-resume"])
    assert resumed.status == 0 and resumed.lines("Resumed 2 games")
    assert game_facts(pgn) == full and summary(resumed.out) == summary(cluster.out)


# ------------------------------------------------------------------ a worker killed mid-run
@pytest.mark.slow
def test_worker_killed_mid_pair_replays_the_pair_whole(tmp_path: Path) -> None:
    pgn = tmp_path / "k.pgn"
    slow = ["--delay", "0.05"]
    config, _ = parse_args([
        *scripted("random", "1", *slow, name="a"), *scripted("random", "2", *slow, name="b"), *each(nodes=1),
        "-games", "2", "-rounds", "4", "-repeat", "-maxmoves", "10", "-pgnout", str(pgn), *LOCAL2,
    ])  # fmt: skip
    match = Match(config, io.StringIO(), io.StringIO())
    status: list[int] = []
    runner = threading.Thread(target=lambda: status.append(match.run()))
    runner.start()
    deadline = time.monotonic() + 120
    while runner.is_alive() and time.monotonic() < deadline and not (pgn.exists() and "[GameNumber" in pgn.read_text()):
        time.sleep(0.05)
    time.sleep(0.5)  # the next pairs are under way
    assert match.cluster is not None and match.cluster.client is not None
    client = match.cluster.client
    busy: list[str] = []
    while not busy and runner.is_alive():
        busy = [address for address, keys in client.processing().items() if keys]  # a pair in play there
    pids = client.run(os.getpid)
    os.kill(pids[busy[0]], signal.SIGKILL)  # as the OOM killer would: the pair in play is cut off
    runner.join(180)
    assert status == [0]
    numbers = sorted(int(g.headers["GameNumber"]) for g in read_pgn(pgn))
    assert numbers == list(range(1, 9))  # every game exactly once: the cut-off pair was played again whole
    assert match.score.games == 8 and match.pentanomial.pairs == 4  # every pair counted once


# ------------------------------------------------------------------ cancellation once the SPRT decides
def engine_processes(tag: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as handle:
                    if tag.encode() in handle.read():
                        found.append(int(entry))
            except OSError:
                pass
    return found


@pytest.mark.slow
def test_sprt_decision_cancels_the_pairs_in_play(tmp_path: Path) -> None:
    class DecidesAtOnce(Sprt):
        def status_pentanomial(self, counts: list[int]) -> SprtResult:
            return SprtResult(3.1, -2.94, 2.94, "H1")

    tag = uuid.uuid4().hex
    pgn = tmp_path / "s.pgn"
    config, _ = parse_args([
        *scripted("random", "1", "--delay", "0.03", "--tag", tag, name="a"),
        *scripted("random", "2", "--delay", "0.03", "--tag", tag, name="b"), *each(nodes=1),
        "-games", "2", "-rounds", "10", "-repeat", "-maxmoves", "30", "-sprt", "elo0=0", "elo1=5",
        "-pgnout", str(pgn), *LOCAL2,
    ])  # fmt: skip
    config.sprt = DecidesAtOnce(0, 5)
    out = io.StringIO()
    status, match = run_match(config, out, io.StringIO())
    assert status == 0 and "H1 was accepted" in out.getvalue()
    assert match.score.games == 2 and len(read_pgn(pgn)) == 2  # the first pair only
    assert match.cancelled_pairs >= 1  # the other worker's pair was stopped, not counted
    assert engine_processes(tag) == []  # no game of the cancelled pairs keeps running


def test_crashes_with_and_without_recover(tmp_path: Path) -> None:
    tag = uuid.uuid4().hex
    pgn = tmp_path / "r.pgn"
    crashy = scripted("crash", "3", "--tag", tag, name="crashy")
    good = scripted("first", "--tag", tag, name="good")
    r = run([*crashy, *good, *each(nodes=10), "-games", "6", "-recover", "-pgnout", str(pgn), *LOCAL2])
    assert r.status == 0
    games = sorted(read_pgn(pgn), key=lambda g: int(g.headers["GameNumber"]))
    assert [int(g.headers["PlyCount"]) for g in games] == [4, 5, 4, 5, 4, 5]  # a new engine every game
    assert len(r.lines("Engine crashy disconnected; restarting it (-recover)")) == 6
    assert engine_processes(tag) == []  # the engines the workers kept are quit at the end
    stopped = run([*crashy, *good, *each(nodes=10), "-games", "6", *LOCAL2])
    assert stopped.status == 1 and stopped.lines("Engine crashy disconnected; stopping the match")
    assert stopped.match.score.games in (1, 2)  # the first game of a pair (or of each worker's pair)
    assert engine_processes(tag) == []


# ------------------------------------------------------------------ faults before any game: exit 2
def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and err.startswith("alice-match: "), (out, err)
    return err


def test_unreachable_scheduler(capsys: pytest.CaptureFixture[str]) -> None:
    started = time.monotonic()
    argv = [*scripted("first", name="a"), *scripted("first", name="b"), *each(nodes=1)]
    assert main([*argv, "-cluster", "tcp://127.0.0.1:9", "timeout=1"]) == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in one_error_line(capsys)
    assert time.monotonic() - started < 15


def test_without_dask_installed(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed raises ImportError
    assert main([*scripted("first", name="a"), *scripted("first", name="b"), *each(nodes=1), *LOCAL2]) == 2
    assert "-cluster needs Dask: pip install 'alice-engine[cluster]'" in one_error_line(capsys)


@pytest.fixture(scope="module")
def two_builds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A scheduler and two workers started as a user would (``dask scheduler``, ``dask
    worker``), the second with an environment that changes the scripted engine's id name."""
    folder = tmp_path_factory.mktemp("dask")
    address_file = folder / "scheduler.json"
    python = [sys.executable, "-m"]
    started = [subprocess.Popen(
        [*python, "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
         "--scheduler-file", str(address_file)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=folder, start_new_session=True,
    )]  # fmt: skip
    deadline = time.monotonic() + 60
    while not address_file.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    for suffix in ("", "-v2"):
        env = {**os.environ, "ALICE_SCRIPTED_ID_SUFFIX": suffix}
        started.append(subprocess.Popen(
            [*python, "distributed.cli.dask_worker", "--scheduler-file", str(address_file), "--nworkers", "1",
             "--nthreads", "1", "--no-dashboard"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=folder, env=env, start_new_session=True,
        ))  # fmt: skip
    import json

    from distributed import Client

    address = json.loads(address_file.read_text())["address"]
    with Client(address, timeout=30) as client:
        client.wait_for_workers(2, timeout=60)
    yield address
    for process in started:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def test_mismatched_builds_stop_before_play(two_builds: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [*scripted("first", name="a"), *player("random", name="r"), *each(nodes=1), "-cluster", two_builds]
    assert main(argv) == 2
    error = one_error_line(capsys)
    assert "engine 1 (a) differs between workers" in error and "'scripted-first-v2'" in error
    assert "install the same build on every worker" in error


def test_engine_missing_on_the_workers(two_builds: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["-engine", "cmd=/no/such/engine", "name=x", *player("random", name="r"), *each(nodes=1)]
    assert main([*argv, "-cluster", two_builds]) == 2
    assert re.search(r"engine 1 \(x\) cannot play on worker tcp://\S+: no such file '/no/such/engine'", one_error_line(capsys))


def test_a_scheduler_address_plays_the_match(two_builds: str, tmp_path: Path) -> None:
    pgn = tmp_path / "a.pgn"
    r = run([*player("random", name="r", option_Seed=3), *player("greedy", name="g", option_Seed=4), *each(nodes=1),
             "-games", "2", "-repeat", "-maxmoves", "10", "-pgnout", str(pgn), "-cluster", two_builds])  # fmt: skip
    assert r.status == 0 and len(read_pgn(pgn)) == 2 and r.match.pentanomial.pairs == 1


# ------------------------------------------------------------------ pieces
def test_engine_digest_follows_the_program(tmp_path: Path) -> None:
    script = tmp_path / "e.py"
    script.write_text("print('a')\n")
    config = EngineConfig(cmd=sys.executable, args=[str(script)])
    first = engine_digest(config)
    assert engine_digest(config) == first
    script.write_text("print('b')\n")
    assert engine_digest(config) != first
    module = EngineConfig(cmd=f"{sys.executable} -m alice_match.players random")
    assert engine_digest(module) != engine_digest(EngineConfig(cmd=f"{sys.executable} -m json.tool"))
    assert engine_digest(EngineConfig(cmd=sys.executable, args=[str(SCRIPTED), "first"])) != first


def test_a_worker_that_joins_later_is_checked_too() -> None:
    config = EngineConfig(cmd=sys.executable, args=[str(SCRIPTED), "first"], name="s")
    process = UciProcess(config)
    process.start(10)
    try:
        right = (process.id_name or "", engine_digest(config))
        assert right[0] == "scripted-first"
        for builds, problem in (
            ({0: right}, None),
            ({0: ("scripted-first-v2", right[1])}, "says id name 'scripted-first', not 'scripted-first-v2'"),
            ({0: (right[0], "0" * 64)}, "is another build than the one checked before play"),
        ):
            task = PairTask(1, (), {0: config}, False, 10, f"run-{uuid.uuid4().hex}", builds=builds)
            if problem is None:
                _check_build(task, 0, process, "tcp://w:1")
            else:
                with pytest.raises(EngineError, match=re.escape(f"engine 1 (s) on worker tcp://w:1 {problem}")):
                    _check_build(task, 0, process, "tcp://w:1")
    finally:
        process.quit()


def test_time_control_scaling() -> None:
    limits = Limits(tc=parse_tc("10+0.1"), movetime_ms=500, nodes=1000)
    slower = scaled(limits, 1.5)
    assert (slower.tc.base_ms, slower.tc.inc_ms, slower.movetime_ms, slower.nodes) == (15000, 150, 750, 1000)
    assert scaled(limits, 1.0) is limits
    assert ClusterSpec("local:2").tcscale is False


def test_tcscale_is_printed(tmp_path: Path) -> None:
    r = run([*scripted("first", name="a"), *scripted("first", name="b"), *each(tc="5+0.05"), "-maxmoves", "2",
             "-cluster", "local:1", "tcscale=on"])  # fmt: skip
    assert r.status == 0
    assert re.search(r"^Time control on worker tcp://\S+ scaled by \d+\.\d\d \(tcscale=on", r.out, re.MULTILINE)
