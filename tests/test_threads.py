"""The ``Threads`` option (Lazy SMP over helper processes, ``search.workers``), black-box over
UCI: legal moves with 2..4 threads, stop and quit as fast as with one, no process left after
``quit``, end of input or SIGKILL, a helper's death reported, both start methods, no leak
when the thread count goes 1 -> 4 -> 1, ``info`` nodes counting every worker, the one-thread
bench unchanged."""

from __future__ import annotations

import errno
import os
import pathlib
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable

import pytest

from engine import Position, parse_uci
from gui import cli as gui_cli
from gui.engines import EngineSpec
from search.helper import TABLE_OFFSET, WorkerStartError
from search.limits import Iteration, Limits, Result
from search.thinker import Thinker
from search.workers import SHM_DIR, START_METHOD_ENV, HelperPool
from support.engine_process import Uci
from support.gui_helpers import running_board
from support.installed import CHILD_CWD, engine_command
from support.processes import alive, children, wait_for

RELAY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "support", "uci_log_relay.py")
ORPHAN_WAIT = 2.0  # seconds within which no worker may remain (the bound)
MIDGAME = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"


def _is_helper(pid: int) -> bool:
    """A helper, not multiprocessing's resource tracker (spawn starts one)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return b"resource_tracker" not in handle.read()
    except OSError:
        return False


def _helpers(engine: Uci) -> list[int]:
    return [p for p in children(engine.proc.pid) if _is_helper(p)]


def _rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def _engine(threads: int, method: str = "spawn", hash_mb: int = 16) -> Uci:
    os.environ[START_METHOD_ENV] = method  # the engine process inherits it
    try:
        engine = Uci()
    finally:
        del os.environ[START_METHOD_ENV]
    engine.send("uci")
    engine.expect("^uciok$")
    engine.send(f"setoption name Hash value {hash_mb}", f"setoption name Threads value {threads}")
    engine.ready(timeout=90)  # spawn imports the engine in every helper: slow on a loaded machine
    return engine


def _legal(fen: str, move: str) -> bool:
    pos = Position(fen)
    return parse_uci(pos, move) in pos.legal_moves()


def test_threads_option_is_listed() -> None:
    engine = Uci()
    try:
        engine.send("uci")
        _, before, _ = engine.expect("^uciok$")
        assert "option name Threads type spin default 1 min 1 max 256" in before
        assert not children(engine.proc.pid)  # one thread: no helper process at all
    finally:
        engine.close()


@pytest.mark.parametrize("threads", [2, pytest.param(3, marks=pytest.mark.slow), pytest.param(4, marks=pytest.mark.slow)])
def test_bestmove_legal_with_threads(threads: int) -> None:
    engine = _engine(threads)
    try:
        assert len(_helpers(engine)) == threads - 1
        for fen in (MIDGAME, "8/8/8/4k3/8/8/4K3/4R3 w - - 0 1"):
            engine.send(f"position fen {fen}", "go depth 6")
            move, _, before = engine.bestmove(timeout=60)
            assert _legal(fen, move), (fen, move)
            assert not [line for line in before if "error" in line]
    finally:
        engine.close()


@pytest.mark.slow
@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_start_methods_search_and_quit(method: str) -> None:
    engine = _engine(3, method)
    pids = _helpers(engine)
    assert len(pids) == 2
    engine.send(f"position fen {MIDGAME}", "go depth 5")
    move, _, _ = engine.bestmove(timeout=60)
    assert _legal(MIDGAME, move)
    pids = children(engine.proc.pid)
    assert engine.close() == 0
    assert wait_for(lambda: not any(alive(p) for p in pids), ORPHAN_WAIT)


def test_stop_and_isready_are_prompt() -> None:
    engine = _engine(3)
    try:
        engine.send(f"position fen {MIDGAME}", "go infinite")
        engine.expect("^info depth 3 ", 30)
        sent = engine.send("isready")
        _, _, at = engine.expect("^readyok$")
        assert at - sent < 0.5
        sent = engine.send(f"position fen {MIDGAME}")  # a new position during the search
        sent = engine.send("stop")
        _, _, at = engine.expect("^bestmove ", 5)
        assert at - sent < 0.5
        engine.send("go depth 3")  # the helpers are ready for the next search
        move, _, _ = engine.bestmove(timeout=30)
        assert _legal(MIDGAME, move)
    finally:
        engine.close()


@pytest.mark.parametrize("how", ["quit", "eof", "sigkill"])
def test_no_worker_outlives_the_engine(how: str) -> None:
    engine = _engine(3, "fork" if how == "sigkill" else "spawn")
    engine.send(f"position fen {MIDGAME}", "go infinite")
    engine.expect("^info depth 2 ", 30)
    pids = children(engine.proc.pid)
    assert len([p for p in pids if _is_helper(p)]) == 2
    sent = time.perf_counter()
    if how == "quit":
        engine.send("quit")
    elif how == "eof":
        assert engine.proc.stdin is not None
        engine.proc.stdin.close()
    else:
        engine.proc.send_signal(signal.SIGKILL)
    engine.proc.wait(ORPHAN_WAIT)
    assert wait_for(lambda: not any(alive(p) for p in pids), ORPHAN_WAIT), [p for p in pids if alive(p)]
    assert time.perf_counter() - sent < 2 * ORPHAN_WAIT


def test_sigkill_with_spawn_leaves_no_worker() -> None:
    engine = _engine(2, "spawn")
    engine.send(f"position fen {MIDGAME}", "go infinite")
    engine.expect("^info depth 2 ", 30)
    pids = children(engine.proc.pid)
    engine.proc.send_signal(signal.SIGKILL)
    engine.proc.wait(ORPHAN_WAIT)
    assert wait_for(lambda: not any(alive(p) for p in pids), ORPHAN_WAIT)


def test_dead_helper_is_reported_and_the_search_goes_on() -> None:
    engine = _engine(3)
    try:
        victim = _helpers(engine)[0]
        engine.send(f"position fen {MIDGAME}", "go infinite")
        engine.expect("^info depth 2 ", 30)
        os.kill(victim, signal.SIGKILL)
        line, _, _ = engine.expect(r"^info string .*helper \d+ died", 60)
        assert "searching on with 2 threads" in line
        engine.send("stop")
        move, _, _ = engine.bestmove(timeout=5)
        assert _legal(MIDGAME, move)
        engine.send("go depth 4")
        move, _, _ = engine.bestmove(timeout=60)
        assert _legal(MIDGAME, move)
        assert len(_helpers(engine)) == 1
    finally:
        engine.close()


@pytest.mark.slow
def test_threads_one_four_one_leaks_nothing() -> None:
    engine = _engine(1, hash_mb=64)
    try:
        rss = []
        counts = []
        for _ in range(3):
            for threads in (4, 1):
                engine.send(f"setoption name Threads value {threads}")
                engine.ready(timeout=90)
                engine.send(f"position fen {MIDGAME}", "go depth 4")
                engine.bestmove(timeout=60)
            assert not _helpers(engine)
            with open(f"/proc/{engine.proc.pid}/maps") as handle:
                assert "alice-tt-" not in handle.read()  # the shared table is unmapped
            rss.append(_rss_kb(engine.proc.pid))
            counts.append(len(children(engine.proc.pid)))  # spawn's resource tracker stays: one, not one a cycle
        assert rss[-1] - rss[0] < 16 * 1024, rss  # a kept 64 MB table would show
        assert counts[-1] == counts[0] <= 1, counts
        engine.send("setoption name Threads value 2", "setoption name Hash value 8")  # Hash with helpers
        engine.ready(timeout=90)
        assert len(_helpers(engine)) == 1
    finally:
        engine.close()


def test_threads_refused_during_a_search() -> None:
    engine = _engine(2)
    try:
        engine.send("go infinite")
        engine.expect("^info depth 1 ", 30)
        engine.send("setoption name Threads value 3")
        engine.expect("^info string error: setoption name Threads: a search is running")
        engine.send("stop")
        engine.bestmove()
        assert len(_helpers(engine)) == 1
    finally:
        engine.close()


def test_node_limited_search_is_the_one_thread_search() -> None:
    """``go nodes`` does not use helpers: the same move and node count as with one thread."""
    answers = []
    for threads in (1, 2):
        engine = _engine(threads)
        try:
            engine.send(f"position fen {MIDGAME}", "go nodes 3000")
            move, _, before = engine.bestmove(timeout=60)
            nodes = [int(m.group(1)) for m in (re.search(r" nodes (\d+)", x) for x in before) if m]
            answers.append((move, nodes[-1]))
        finally:
            engine.close()
    assert answers[0] == answers[1]


@pytest.mark.slow
def test_bench_signature_unchanged_with_threads() -> None:
    out = subprocess.run([*engine_command(), "bench"], capture_output=True, text=True, cwd=CHILD_CWD, timeout=300)
    assert "Nodes searched: 34521" in out.stdout
    engine = _engine(2)
    try:
        engine.send("bench")
        line, _, _ = engine.expect("^Nodes searched: ", 300)
        assert line == "Nodes searched: 34521"
    finally:
        engine.close()


def test_info_nodes_count_every_worker() -> None:
    """The main search's ``info`` adds the helpers' nodes to its own (white-box: the callback
    runs on the search thread, so the searcher's count then is the main search's alone)."""
    thinker = Thinker(hash_mb=8)
    seen: list[tuple[int, int]] = []
    done = threading.Event()

    def on_info(it: Iteration) -> None:
        seen.append((it.nodes, thinker.searcher.nodes))

    def on_done(result: Result) -> None:
        done.set()

    try:
        thinker.set_threads(3)
        thinker.go(Position(MIDGAME), Limits(infinite=True), on_info, on_done)
        assert wait_for(lambda: len(seen) > 4 and seen[-1][1] > 2000, 60)
        time.sleep(0.3)
        thinker.stop()
        assert done.is_set()
        assert any(total > own for total, own in seen), seen
        assert all(total >= own for total, own in seen)
    finally:
        thinker.close()
    assert thinker.pool is None and thinker.threads == 1


def test_xboard_cores_sets_threads() -> None:
    engine = Uci(args=("xboard",))
    try:
        engine.send("xboard", "protover 2")
        engine.expect("^feature .*smp=1")
        engine.expect("^feature done=1")
        engine.send("cores 3", "ping 1")
        engine.expect("^pong 1$", 90)
        assert len(_helpers(engine)) == 2
        engine.send("cores 1", "ping 2")
        engine.expect("^pong 2$", 30)
        assert wait_for(lambda: not _helpers(engine), ORPHAN_WAIT)
    finally:
        engine.close()


def test_web_board_sets_threads(tmp_path: pathlib.Path) -> None:
    """``alice-engine gui --threads 2``: every search of the page's engine asks for 2 threads."""
    args = gui_cli.parse_args(["--threads", "2", "--engine", "alice-engine"])
    assert args.specs[0].options == {"Threads": 2}
    log = tmp_path / "uci.log"
    relayed = (sys.executable, RELAY, str(log), CHILD_CWD, *engine_command())
    spec = EngineSpec(relayed, "alice-engine", options={"Threads": 2})
    with running_board([spec]) as board:
        board.ok("/api/new", {"mode": "analyse"})
        board.ok("/api/analysis", {"on": True, "engine": 0})
        board.wait_for(lambda s: s["lines"] and s["lines"][0].get("depth", 0) >= 3, 90)
        board.ok("/api/stop")
    assert "setoption name Threads value 2" in log.read_text()


def test_other_go_kinds_with_threads() -> None:
    """``go mate``, ``searchmoves``, ``MultiPV``, a skill level and ``go perft`` with 3 threads."""
    mate_fen = "2|r1k3/1ppn4/|p2B|p|p2/P1P2|np|b/5NP|r/2|N2|P2/1P2P2P/2q|K1B1R b - - 0 1"  # mate in 2: h4d4
    engine = _engine(3)
    try:
        engine.send(f"position fen {mate_fen}", "go mate 2")
        move, _, before = engine.bestmove(timeout=60)
        assert move == "h4d4" and any(" score mate 2 " in line for line in before), before
        engine.send(f"position fen {MIDGAME}", "go depth 5 searchmoves a2a3 h2h3")
        move, _, _ = engine.bestmove(timeout=60)
        assert move in ("a2a3", "h2h3")
        engine.send("setoption name MultiPV value 2", "go depth 4")
        _, _, before = engine.bestmove(timeout=60)
        assert any(" depth 4 " in line and " multipv 2 " in line for line in before), before
        engine.send("setoption name MultiPV value 1", "setoption name Skill Level value 3", "go movetime 300")
        move, _, _ = engine.bestmove(timeout=60)
        assert _legal(MIDGAME, move)
        engine.send("position startpos", "go perft 3")
        engine.expect("^Nodes searched: 9384$", 60)
    finally:
        engine.close()


def test_ponderhit_with_threads() -> None:
    """``go ponder`` then ``ponderhit``: the search switches to its clock and answers in time."""
    engine = _engine(2)
    try:
        engine.send(f"position fen {MIDGAME}", "go ponder movetime 300")
        engine.expect("^info depth 2 ", 30)
        assert not [line for line in engine.nothing_within(0.5) if line.startswith("bestmove")]
        sent = engine.send("ponderhit")
        _, _, at = engine.expect("^bestmove ", 10)
        assert at - sent < 3.0
    finally:
        engine.close()


def _table_mappings(pid: int) -> set[tuple[str, int]]:
    """The shared table's mappings of ``pid``: (inode, size in bytes) of each ``alice-tt-`` line."""
    found = set()
    with open(f"/proc/{pid}/maps") as handle:
        for line in handle:
            if "alice-tt-" in line:
                span, _, _, _, inode = line.split()[:5]
                start, end = (int(x, 16) for x in span.split("-"))
                found.add((inode, end - start))
    return found


def test_one_table_of_hash_megabytes_whatever_the_threads() -> None:
    engine = _engine(4, hash_mb=32)
    try:
        mine = _table_mappings(engine.proc.pid)  # the node counters' pages, then the buckets
        assert len({inode for inode, _ in mine}) == 1, mine
        assert sum(size for _, size in mine) == TABLE_OFFSET + 32 * 1024 * 1024, mine
        for pid in _helpers(engine):
            assert _table_mappings(pid) == mine  # the same file (inode), the same size: one table
    finally:
        engine.close()


def _fallocate_refusing(refused: tuple[str, ...]) -> Callable[[int, int, int], None]:
    """``os.posix_fallocate`` that answers ENOSPC for files in the ``refused`` folders."""
    real = os.posix_fallocate

    def fallocate(fd: int, offset: int, size: int) -> None:
        folder = os.path.dirname(os.readlink(f"/proc/self/fd/{fd}"))
        if folder in refused:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(fd, offset, size)

    return fallocate


def _table_files(folder: str) -> list[str]:
    return [name for name in os.listdir(folder) if name.startswith("alice-tt-")]


@pytest.mark.skipif(not os.path.isdir(SHM_DIR), reason="no /dev/shm here")
def test_a_full_dev_shm_puts_the_table_in_the_temporary_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    """A /dev/shm without room for Hash (Docker's is 64 MB) is not used: a table there would
    kill the engine (SIGBUS) when the search reached its missing pages."""
    before = _table_files(SHM_DIR)
    monkeypatch.setattr(os, "posix_fallocate", _fallocate_refusing((SHM_DIR,)))
    path = HelperPool._create_file(1 << 20)
    try:
        assert os.path.dirname(path) == tempfile.gettempdir() and os.path.getsize(path) == 1 << 20
        assert _table_files(SHM_DIR) == before  # the refused file was removed
    finally:
        os.unlink(path)


def test_no_room_anywhere_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """No folder with room: ``WorkerStartError`` naming the size and each refusal, no file left
    (the UCI front end reports that error and searches on with one thread)."""
    folders = (SHM_DIR, tempfile.gettempdir())
    before = {folder: _table_files(folder) for folder in folders if os.path.isdir(folder)}
    monkeypatch.setattr(os, "posix_fallocate", _fallocate_refusing(folders))
    with pytest.raises(WorkerStartError, match=r"no room for the 16 MB shared table \(.*No space left on device"):
        HelperPool(2, 16)
    assert {folder: _table_files(folder) for folder in before} == before
