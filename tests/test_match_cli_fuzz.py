"""Property-based tests of alice-match's command line (hypothesis, a fixed budget): any
argument list gives a checked configuration, the help, or exactly one ``alice-match:`` line
and exit status 2, never a traceback; nothing is created on disk (issue 23)."""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from alice_match.cli import ENGINE_FLAGS, ENGINE_KEYS, OPENING_KEYS, OPTIONS_WITH_VALUES, configure
from alice_match.match import MatchConfig

BUDGET = settings(
    max_examples=1500, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), database=None
)
FILES = Path(tempfile.mkdtemp(prefix="alice-match-fuzz-"))  # the only paths the arguments name
(FILES / "folder").mkdir()
(FILES / "binary.epd").write_bytes(bytes(range(256)))
(FILES / "games.pgn").write_bytes(b'[Event "?"]\n[GameNumber "1"]\n\n1. e4 \xff *\n')
(FILES / "book.epd").write_text("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 0; id \"x\";\n")
PATHS = [str(FILES / name) for name in ("folder", "binary.epd", "games.pgn", "book.epd", "missing/x.pgn", "new.pgn")]

NUMBERS = ["0", "1", "2", "3", "-1", "10", "0.5", "-0.5", "1e9", "nan", "inf", "-inf", "99999999999999999999", "+4",
           "1_0", "", " ", "0x10", "٣"]  # fmt: skip
WORDS = ["alice", "chess", "on", "off", "true", "false", "min", "help", "default", "random", "sequential", "epd",
         "pgn", "round-robin", "gauntlet", "knockout", "swiss", "encounter", "round", "uci", "xboard", "short",
         "Rank,Name", "Rank,Bogus", "local:2", "local:0", "local:x", "tcp://127.0.0.1:1", "10+0.1", "40/60+0.6",
         "inf", "1:30", "10+", "/", "=", "==", "a=b", "ponder", "-", "--"]  # fmt: skip
KEYS = [
    *sorted(ENGINE_KEYS | ENGINE_FLAGS | OPENING_KEYS), "option.Hash", "option.", "option.Skill Level", "elo0", "elo1", "alpha", "beta", "movenumber", "movecount",
    "score", "twosided", "timeout", "tcscale", "model", "bogus",
]  # fmt: skip
PLAIN = st.sampled_from(NUMBERS + WORDS + PATHS) | st.text(max_size=8)
VALUE = PLAIN | st.builds(lambda k, v: f"{k}={v}", st.sampled_from(KEYS), PLAIN)
KEYED = VALUE.filter(lambda v: "=" in v) | st.builds(lambda k, v: f"{k}={v}", st.sampled_from(KEYS), PLAIN)


def _group(name: str) -> st.SearchStrategy[list[str]]:
    """An option with the number of values it takes (mostly), ``KEY=VALUE`` words where it wants them."""
    want = OPTIONS_WITH_VALUES.get(name, (0, 3))
    low, high = (1, 4) if want is None else want if isinstance(want, tuple) else (want, want)
    values = KEYED if want is None else VALUE
    right = st.lists(values, min_size=low, max_size=high)
    return (right | right | right | st.lists(VALUE, max_size=4)).map(lambda vs: [name, *vs])


OPTION = st.sampled_from([*OPTIONS_WITH_VALUES, "-bogus", "-5", "-engine=1"])
GROUP = OPTION.flatmap(_group)
ARGV = st.lists(GROUP, max_size=8).map(lambda groups: [word for group in groups for word in group])
ENGINE = ["-engine", f"cmd={sys.executable}", "arg=-c", "arg=pass"]
VALID_START = [*ENGINE, "name=a", *ENGINE, "name=b", "-each", "nodes=1"]


@contextlib.contextmanager
def in_folder(path: Path) -> Iterator[None]:
    before = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


def check(argv: list[str]) -> MatchConfig | None:
    """The property: a config, the help (0), or one error line (2); nothing else, no files made."""
    out, err = io.StringIO(), io.StringIO()
    before = sorted(p.name for p in FILES.rglob("*"))
    with in_folder(FILES):
        result = configure(argv, out, err)
    assert sorted(p.name for p in FILES.rglob("*")) == before, argv
    if isinstance(result, MatchConfig):
        assert err.getvalue() == "" and out.getvalue() == "", argv
        assert len(result.engines) >= 2 and result.concurrency >= 1
        return result
    if result == 0:
        assert err.getvalue() == "" and out.getvalue(), argv
        return None
    assert result == 2, argv
    if not argv:
        return None
    lines = err.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith("alice-match: ") and out.getvalue() == "", (argv, err.getvalue())
    return None


@BUDGET
@given(ARGV)
def test_any_arguments(argv: list[str]) -> None:
    check(argv)


@BUDGET
@given(ARGV)
def test_any_options_after_two_valid_engines(argv: list[str]) -> None:
    check([*VALID_START, *argv])


def test_the_generators_reach_valid_configurations() -> None:
    """The valid start alone is a configuration, so the second property explores real options."""
    config = check(VALID_START)
    assert config is not None and config.limits[0].nodes == 1
    assert check([*VALID_START, "-games", "2", "-repeat", "-openings", f"file={FILES / 'book.epd'}"]) is not None
