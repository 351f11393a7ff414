"""``alice-engine solve`` on the Alice problems Popeye publishes (Andernach 2025, typed in as
tests/data/alice_andernach2025.inp): every solution, key, try and refutation Popeye prints
(REGRESSIONTESTS/alice.ref), in Popeye's notation. None of them turns on en passant, the
one rule where Popeye's Alice differs from ours. The #3 and the h#2.5 take seconds in the
pure build: slow."""

from __future__ import annotations

import os
import subprocess

import pytest

from support.installed import CHILD_CWD, engine_command

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
TIMEOUT = 300  # seconds for one run of the pure build


def problem_file(*numbers: int) -> str:
    """The data file cut down to the problems ``numbers`` (1-based), as Popeye input."""
    with open(os.path.join(DATA, "alice_andernach2025.inp"), encoding="utf-8") as f:
        text = f.read()
    blocks = text.removeprefix("begin").rsplit("end", 1)[0].split("\nnext\n")
    return "begin\n" + "\nnext\n".join(blocks[n - 1] for n in numbers) + "\nend\n"


def solve(text: str) -> str:
    done = subprocess.run(
        [*engine_command(), "solve", "-"], input=text, capture_output=True, text=True, cwd=CHILD_CWD, timeout=TIMEOUT
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return done.stdout


def help_lines(out: str) -> list[str]:
    """The helpmate solutions printed (lines of two or three move numbers)."""
    stripped = [line.strip() for line in out.splitlines()]
    return sorted(line for line in stripped if line.startswith("1.") and ("   2." in line or "   3." in line))


def blocks(out: str) -> dict[str, list[str]]:
    """The key and try blocks of direct play: first line (``1.X !`` / ``1.X ?``) -> its lines."""
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in out.splitlines():
        if line.startswith("   1.") and not line.startswith("    "):
            current = found.setdefault(line.strip(), [])
        elif not line.strip() or "solution" in line:
            current = None
        elif current is not None:
            current.append(line.strip())
    return found


def test_helpmates_with_a_twin_and_their_cooks() -> None:
    out = solve(problem_file(2, 3))
    assert help_lines(out) == sorted(
        [
            "1.Bd5-b7B Rg2-e2B   2.Re7-a7B e6-e7B #",
            "1.Rd2-b2B Rg2-g1B   2.Bg7-a1B g6-g7B #",
            "1.Ke5-f4A Qc5-f5B   2.d2-d1=SA Rc3-f3A #",
            "1.Ke5-e4A Qc5-e5B   2.d2-d1=BA Rc3-e3A #",
        ]
    )
    assert "b) wKh1-->h2" in out
    assert "  2 solutions," in out and out.count("  1 solution,") == 2


def test_a_helpmate_with_twelve_black_pieces() -> None:
    assert help_lines(solve(problem_file(4))) == sorted(
        ["1.Ra1-a7B Bf4*c7A   2.Ra7*d7A Sg4-e3A #", "1.Ra1-g1B Bf4*g3A   2.Rg1*g4A Sd7-b6A #"]
    )


def test_a_two_mover_with_tries_threats_and_variations() -> None:
    found = blocks(solve(problem_file(5)))
    assert set(found["1.Qd7-e8B ! threat:"]) == {
        "2.Se6-f4A #", "1...Sd8*c6A", "2.Qe8-b5A #", "1...Sd8*e6A", "2.Qe8-e3A #",
    }  # fmt: skip
    refutations = {first: {line for line in lines if line.endswith(" !")} for first, lines in found.items()}
    assert {first: r for first, r in refutations.items() if first.endswith("?") or "? " in first} == {
        "1.Sc6-b4A + ?": {"1...Kd3-c3B !"},
        "1.Sc6-e5A + ?": {"1...f6*e5B !"},
        "1.Se6-c5A + ?": {"1...Ba7*c5B !"},
        "1.Se6-f4A + ?": {"1...Kd3*e4B !"},
        "1.Qd7-g4B ? threat:": {"1...Sh6*g4A !"},
        "1.Qd7-f5B ? threat:": {"1...Sh6*f5A !"},
        "1.Qd7-c8B ? threat:": {"1...Sh6-g4A !"},
        "1.Qd7-e7B ? threat:": {"1...Sd8*c6A !"},
    }
    assert set(found["1.Qd7-e7B ? threat:"]) == {"2.Se6-f4A #", "1...Sd8*e6A", "2.Qe7-e3A #", "but", "1...Sd8*c6A !"}
    assert len(found["1.Qd7-g4B ? threat:"]) == 1 + 4 + 13 + 45 + 1  # but, threats, defences, their mates, refutation


@pytest.mark.slow
def test_a_three_mover_in_zugzwang() -> None:
    found = blocks(solve(problem_file(1)))
    keys = [first for first in found if first.endswith("!") or "! " in first]
    assert keys == ["1.Bh4-g3A ! zugzwang."]
    key = set(found[keys[0]])
    assert {"1...Ra4-b4A", "2.c2-c4B zugzwang.", "2...Rb4-b7B", "3.Qd7-e8A #", "3.Qd7-d8A #"} <= key
    assert sum(line.startswith("1...") for line in found[keys[0]]) == 13
    assert sum(line.startswith("2...") for line in found[keys[0]]) == 10 + 15
    tries = sorted(first for first in found if "?" in first)
    assert tries == sorted(
        ["1.Qd7-e8A + ?", "1.Qd7-c8A + ?", "1.Qd7*a7A + ?", "1.Qd7-b7A + ?", "1.Qd7-c7A + ?", "1.Qd7-d8A + ?",
         "1.Sa8*b6A ? threat:", "1.Sa8-c7A ? threat:"]
    )  # fmt: skip
    assert set(found["1.Sa8-c7A ? threat:"]) == {"2.Qd7-d8A +", "2...Kb8-b7B", "3.Qd8-a8B #", "but", "1...Sd5*c7B !"}


@pytest.mark.slow
def test_a_helpmate_in_two_and_a_half() -> None:
    out = solve(problem_file(6))
    lines = sorted(line.strip() for line in out.splitlines() if line.strip().startswith("1..."))
    assert lines == sorted(
        ["1...Bh1-e4A   2.Ba3-b2A Be4-d3B   3.Bb2*d4B Ra4*d4A #", "1...Ra4-e4A   2.Re1-f1A Re4-e2B   3.Rf1*f3B Bh1*f3A #"]
    )
