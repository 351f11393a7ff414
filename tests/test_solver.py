"""The problem solver (``problems``): constructed Alice problems whose solutions a brute-force
solver (tests/support/problem_bruteforce.py) confirms, random positions where the solver, the
brute force and ``go mate``'s proof search agree, and ``alice-engine solve`` black-box: Popeye
input with twins and options, ``--fen``, ``--json``, and bad input (one error line per problem,
the others solved)."""

from __future__ import annotations

import json
import random
import subprocess

import pytest

from engine.position import Position
from find_mates import sample
from problems.report import Writer, uci_line
from problems.solver import Solver
from problems.stipulation import parse_stipulation
from search.search import Searcher
from support.installed import CHILD_CWD, engine_command
from support.problem_bruteforce import direct_keys, help_lines, self_keys

TIMEOUT = 120  # seconds for one run of the pure build

# Constructed problems (random set-ups the solver picked, kept where the answer is short):
# FEN, stipulation, every solution in Popeye's notation (keys of direct and self play).
CASES = [
    ("4r3/8/4q3/Bk2|N3/6|Q1/4p3/8/4K3 w - - 0 1", "#2", ["1.Qg4-b4A + !"]),
    ("8/6Q1/8/2|K4|k/1|p1|R4/8/8/8 w - - 0 1", "#2", ["1.Rd4-g4A !", "1.Rd4-h4A !"]),
    ("3k1K2/8/8/2p5/8/5|R2/1|Q6/8 w - - 0 1", "=2", ["1.Qb2-b7A !"]),
    ("8/8/5|bB1/6|k1/6KR/2p5/3|q4/5Q2 w - - 0 1", "s#1", ["1.Qf1-g2B + !"]),
    ("1r6/8/8/3R4/8/7|R/1|Kn5/1k4|Q1 w - - 0 1", "s#2", ["1.Qg1-a1A + !"]),
    (
        "8/4|p3/8/8/2|K5/3k3R/4|P2N/5r2 b - - 0 1",
        "h=2",
        ["1.Kd3-e4B Sh2*f1B   2.e7-e5A Rh3-f3B =", "1.Kd3-e4B Rh3-f3B   2.e7-e5A Sh2*f1B ="],
    ),
]


def brute_solutions(pos: Position, stip_text: str) -> list[list[str]]:
    """The brute force's solutions as UCI lists (keys as one-move lists)."""
    stip = parse_stipulation(stip_text)
    if stip.kind == "help":
        found = [list(line) for line in help_lines(pos, stip.goal, stip.plies)]
    elif stip.kind == "self":
        found = [[m] for m in self_keys(pos, stip.moves)]
    else:
        found = [[m] for m in direct_keys(pos, stip.goal, stip.moves)]
    return sorted(uci_line(pos, tuple(line)) for line in found)


@pytest.mark.parametrize("fen, stip, expected", CASES, ids=[f"{c[1]}-{i}" for i, c in enumerate(CASES)])
def test_constructed_problems_match_the_brute_force(fen: str, stip: str, expected: list[str]) -> None:
    result = Writer(Position(fen), parse_stipulation(stip), {}).solve()
    assert sorted(result.solutions) == brute_solutions(Position(fen), stip)
    assert sorted(line.strip() for line in result.lines if line.strip()) == sorted(expected)


# Longer constructed problems: the brute force takes a minute or more in the pure build.
SLOW_CASES = [
    ("3|k4/|p|b3|P2/1n2|K3/8/8/8/8/B6B w - - 0 1", "#3", ["1.Ke6-d6A !"]),
    (
        "8/8/|K7/8/|k2R4/8/4|p3/8 b - - 0 1",
        "h#3",
        [
            "1.e2-e1=RA Ka6-b7A   2.Ka4-a5A Kb7-c6B   3.Ka5-a6B Rd4-a4B #",
            "1.e2-e1=SA Ka6-b7A   2.Ka4-a5A Kb7-c6B   3.Ka5-a6B Rd4-a4B #",
        ],
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize("fen, stip, expected", SLOW_CASES, ids=[c[1] for c in SLOW_CASES])
def test_longer_constructed_problems_match_the_brute_force(fen: str, stip: str, expected: list[str]) -> None:
    test_constructed_problems_match_the_brute_force(fen, stip, expected)


def random_positions(seed: int, count: int) -> list[str]:
    return sample(seed, 0, 1, count)


@pytest.mark.parametrize("seed", [1, 2])
def test_direct_mates_agree_with_the_brute_force_and_go_mate(seed: int) -> None:
    """Every key of #1 and #2 is the brute force's; the shortest mate is the proof search's."""
    for fen in random_positions(seed, 12):
        pos = Position(fen)
        for n in (1, 2):
            solver = Solver(pos, parse_stipulation(f"#{n}"))
            assert sorted(solver.keys()) == sorted(direct_keys(pos, "mate", n)), (fen, n)
        its: list = []
        Searcher(1).mate_search().run(pos, pos.legal_moves(), 2, its.append)
        proof = its[-1].mate if its else 0
        assert Solver(pos, parse_stipulation("#2")).shortest(2) == proof, fen


@pytest.mark.parametrize("stip", ["h#1", "h#1.5", "h=1", "h=1.5", "s#1", "=1", "=2"])
def test_other_stipulations_agree_with_the_brute_force(stip: str) -> None:
    rng = random.Random(stip)
    for fen in random_positions(rng.randrange(1000), 6):
        parsed = parse_stipulation(stip)
        fields = fen.split()
        fields[1] = "w" if parsed.first_mover else "b"
        try:
            pos = Position(" ".join(fields))
        except ValueError:
            continue  # the side not to move would be in check
        result = Writer(pos, parsed, {}).solve()
        assert sorted(result.solutions) == brute_solutions(pos, stip), (fen, stip)


def solve(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*engine_command(), "solve", *args], input=stdin, capture_output=True, text=True, cwd=CHILD_CWD,
        timeout=TIMEOUT,
    )


TWINS = """begin
title constructed helpmate, twins
pieces white ka1 qc5 white AliceB rc3 black AliceB ke5 pd2
stip h#2
twin move a1 a2
twin continued remove c3
twin exchange c5 e5
twin add black AliceB pa7
end
"""


def test_twins_print_their_changes_and_continued_twins_build_on_the_last() -> None:
    done = solve("-", stdin=TWINS)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for label in ("a)", "b) wKa1-->a2", "c) -wRc3", "d) wQc5<-->bKe5", "e) +bPa7B"):
        assert label in out.splitlines(), label
    records = json.loads(solve("-", "--json", stdin=TWINS).stdout)
    fens = {r["twin"]: r["fen"] for r in records}
    assert fens["c)"].split()[0] == "8/8/8/2Q1|k3/8/8/K2|p4/8"  # b) moved the king, c) removed the rook
    assert fens["d)"].split()[0] == "8/8/8/2|k1Q3/8/2|R5/3|p4/K7"  # d) starts again from the diagram
    assert len(records[0]["solutions"]) == 2


def test_fen_mode_json_lists_uci_lines() -> None:
    done = solve("--fen", "8/8/8/2Q1|k3/8/2|R5/3|p4/K7 b - - 0 1", "--stip", "h#2", "--json")
    assert done.returncode == 0, done.stderr
    (record,) = json.loads(done.stdout)
    assert sorted(record["solutions"]) == [["e5e4", "c5e5", "d2d1b", "c3e3"], ["e5f4", "c5f5", "d2d1n", "c3f3"]]
    assert record["stipulation"] == "h#2" and record["nodes"] > 0


def test_options_set_play_maxsolutions_and_nothreat() -> None:
    fen = "8/6Q1/8/2|K4|k/1|p1|R4/8/8/8 w - - 0 1"
    done = solve("--fen", fen, "--stip", "#2", "--option", "vari", "--option", "maxsol=1", "--option", "nothreat")
    assert done.returncode == 0, done.stderr
    assert "1 solution," in done.stdout and "threat" not in done.stdout
    done = solve("--fen", "8/8/8/2Q1|k3/8/2|R5/3|p4/K7 b - - 0 1", "--stip", "h#2", "--option", "set")
    assert "set play:" in done.stdout or "no set play" in done.stdout


ANDERNACH_7 = "3|n2r1/bp1Q4/|p1|NP|Np1|n/B2P4/P2PP2R/r|P1k3|p/4|PP2/1b1K4 w - - 0 1"  # #2, 7th place


def test_tries_with_more_refutations_when_asked() -> None:
    counts = {}
    for n in (1, 2):
        done = solve("--fen", ANDERNACH_7, "--stip", "#2", "--option", "try", "--option", f"refutations={n}", "--json")
        assert done.returncode == 0, done.stderr
        (record,) = json.loads(done.stdout)
        assert record["solutions"] == [["d7e8"]]
        assert all(1 <= len(t["refutations"]) <= n for t in record["tries"])
        counts[n] = len(record["tries"])
    assert counts[1] == 8 and counts[2] > counts[1]


BAD = """begin
pieces white ke1 black ke8 stip #2 frobnicate
next
pieces white ke1 Nd4 black ke8 stip #2
next
pieces white ke1 ke2 black ke8 stip #2
next
pieces white ke1 stip h#2
next
pieces white ke1 black ke8 stip #99
next
pieces white ke1 black ke8 stip ser-h#2
next
pieces white ke1 black ke8 condition madrasi stip #2
next
pieces white ke1 black ke8 stip #2 option defence 2
next
pieces white ke1 black ke8 stip h#2 twin move d4 d5
next
pieces white ke1 pa8 black ke8 stip #1
next
pieces white ke1 ra1 black ke8 stip #1
end
"""


def test_bad_problems_get_one_error_line_each_and_the_rest_is_solved() -> None:
    done = solve("-", stdin=BAD)
    assert done.returncode == 1
    errors = done.stderr.splitlines()
    assert "Traceback" not in done.stderr + done.stdout
    expected = [
        "problem 1: line 2: unknown keyword 'frobnicate'",
        "problem 2: line 4: piece 'N' of 'Nd4' is not supported (K Q R B S P)",
        "problem 3: 2 white kings",
        "problem 4: missing black king",
        "problem 5: line 10: stipulation '#99': at most 12 moves are solved",
        "problem 6: line 12: unsupported stipulation 'ser-h#2'",
        "problem 7: line 14: condition 'madrasi' is not supported (only alice)",
        "problem 8: line 16: option 'defence' is not supported",
        "problem 9 b): twin move: no piece on d4",
        "problem 10: pawn on a8 (rank 1 or 8)",
    ]
    assert len(errors) == len(expected), done.stderr
    for line, want in zip(errors, expected):
        assert line.startswith(f"alice-engine solve: {want}"), (line, want)
    assert "problem 11" in done.stdout and "1.Ra1-a8B" not in done.stdout  # solved (no mate: the rook lands on B)
    assert "problem 9" in done.stdout and "a)" in done.stdout  # its first twin is solved


@pytest.mark.parametrize(
    "args",
    [[], ["--fen", "8/8/8/8/8/8/8/8 w - - 0 1"], ["--stip", "#2"], ["no-such-file.inp"], ["--frobnicate"]],
)
def test_bad_command_lines_are_refused_in_one_line(args: list[str]) -> None:
    done = solve(*args)
    assert done.returncode in (1, 2)
    assert "Traceback" not in done.stderr
    assert done.stdout == ""


def test_help_lists_the_solve_mode() -> None:
    done = subprocess.run([*engine_command(), "--help"], capture_output=True, text=True, cwd=CHILD_CWD, timeout=TIMEOUT)
    assert any(line.strip().startswith("alice-engine solve FILE") for line in done.stdout.splitlines())
    helped = solve("--help")
    assert helped.returncode == 0 and "--stip" in helped.stdout


FUZZ_WORDS = (
    "begin next end pieces white black AliceB AliceA Ke1 ke8 Qd1 Sa3 pb2c3 pa8 stip #1 h#1 h#0.5 s#1 =1 h=1 "
    "twin move e1 e2 a1 add remove exchange continued option try vari set nothreat maxsol 3 cond alice title x "
    "stipulation #0 h# Rh1a8 neutral royal protocol kh1 kh2 bd5 s#0 h#1.5 ser-h#1"
).split()
FUZZ_COMMANDS = (
    "twin move e1 e2", "twin continued remove d1", "twin exchange e1 e8", "twin add black AliceB pb5",
    "twin continued add white AliceB Sg1", "twin stipulation h#1.5", "twin remove a7", "twin move d1 d8",
    "option try vari set", "option nothreat maxsol 2", "condition alice", "title fuzz", "stip s#1", "stip =1",
)  # fmt: skip


def fuzz_text(rng: random.Random) -> str:
    """A problem of valid commands, some twins impossible, with a random word now and then."""
    parts = ["begin pieces white Ke1 Qd1 AliceB Rh1 black ke8 pa7 AliceB sb8", "stip", rng.choice(["#1", "h#1", "h=1", "#2"])]
    for _ in range(rng.randint(0, 4)):
        parts.append(rng.choice(FUZZ_COMMANDS) if rng.random() < 0.8 else rng.choice(FUZZ_WORDS))
    return " ".join([*parts, rng.choice(["end", "next pieces white kh1 black ka8 stip #1 end", ""])])


def test_problem_soup_never_crashes(capsys: pytest.CaptureFixture[str]) -> None:
    """Seeded random problems (valid commands, impossible twins, stray words): an error line or
    solutions for each, never an exception."""
    from problems.cli import run_problems
    from problems.popeye import parse_problems

    rng = random.Random(5)
    solved = 0
    for _ in range(60):
        problems = parse_problems(fuzz_text(rng))
        solved += sum(1 for p in problems if not p.error)
        assert run_problems(problems, rng.random() < 0.5) in (0, 1)
    capsys.readouterr()
    assert solved >= 20  # the soup is mostly problems, not only errors


def test_ctrl_c_stops_a_long_solve_without_a_traceback() -> None:
    import signal

    long_one = [*engine_command(), "solve", "--fen", ANDERNACH_7, "--stip", "h#4"]
    proc = subprocess.Popen(long_one, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=CHILD_CWD)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "problem 1"  # the heading comes before the solving
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == 130
    assert "Traceback" not in err
