"""``alice-engine solve``: solve the problems of a Popeye input file, or one position.

    alice-engine solve problems.inp          # Popeye's input language (docs/problems.md)
    alice-engine solve --fen FEN --stip h#2  # one position (side to move: the stipulation's)
    ... --json                               # the solutions as lists of UCI moves

A problem that cannot be read or set up gets one error line on stderr, naming it and what
is wrong; the others are solved as usual. Exit code 0, or 1 when some problem failed, 2 for
a command line that is refused.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from engine.fen import FenError
from engine.position import Position
from problems.popeye import Problem, ProblemInputError, apply_twin, diagram_fen, parse_problems
from problems.position_solve import options_of
from problems.report import TwinResult, Writer
from problems.stipulation import Stipulation, StipulationError, parse_stipulation

EXIT_FAILED: Final = 1  # some problem could not be read or set up
EXIT_USAGE: Final = 2  # the command line is refused


class SolveUsageError(ValueError):
    """A command line ``solve`` refuses."""


@dataclass
class Twin:
    """One position to solve: its label (``a)`` or empty), what changed, the set-up."""

    label: str
    description: str
    fen: str
    stip: Stipulation


def twins_of(problem: Problem) -> Iterator[Twin | str]:
    """The positions of ``problem`` (the diagram, then each twin), or an error line for one
    that cannot be set up."""
    assert problem.stip is not None
    base, stip = problem.squares, problem.stip
    current = (base, stip)
    labelled = bool(problem.twins)
    for i, spec in enumerate([None, *problem.twins]):
        label = f"{chr(ord('a') + i)})" if labelled else ""
        try:
            squares, tstip, text = (current[0], current[1], "") if spec is None else apply_twin(
                *(current if spec.continued else (base, stip)), spec
            )
            current = (squares, tstip)
            fen = diagram_fen(squares, tstip.first_mover)
            Position(fen)  # validates: kings, pawns, the side not to move not in check
        except (ProblemInputError, StipulationError, FenError) as error:
            yield f"problem {problem.number}{' ' + label if label else ''}: {_reason(error)}"
            continue
        yield Twin(label, text, fen, tstip)


def _reason(error: Exception) -> str:
    return str(error).removeprefix("board field: ")


def solve_twin(twin: Twin, options: dict[str, int]) -> TwinResult:
    return Writer(Position(twin.fen), twin.stip, options).solve()


def summary(result: TwinResult) -> str:
    count = len(result.solutions)
    return f"  {count} solution{'' if count == 1 else 's'}, {result.seconds:.2f} s, {result.nodes} nodes"


def heading(problem: Problem) -> list[str]:
    lines = [f"problem {problem.number}"]
    lines += [f"  {text}" for _, text in problem.texts if text]
    return lines


def run_problems(problems: list[Problem], as_json: bool) -> int:
    """Solve and print; the exit code."""
    failed = False
    records: list[dict[str, Any]] = []
    for problem in problems:
        if problem.error:
            failed = True
            _error(problem.error, records, problem.number)
            continue
        if not as_json:
            print("\n".join(heading(problem)), flush=True)
        for twin in twins_of(problem):
            if isinstance(twin, str):
                failed = True
                _error(twin, records, problem.number)
                continue
            result = solve_twin(twin, problem.options)
            records.append({"problem": problem.number, "twin": twin.label, "changes": twin.description,
                            "stipulation": str(twin.stip), "fen": twin.fen, **result.data()})
            if not as_json:
                _print_twin(twin, result)
    if as_json:
        print(json.dumps(records, indent=1))
    return EXIT_FAILED if failed else 0


def _error(line: str, records: list[dict[str, Any]], number: int) -> None:
    print(f"alice-engine solve: {line}", file=sys.stderr, flush=True)
    records.append({"problem": number, "error": line})


def _print_twin(twin: Twin, result: TwinResult) -> None:
    head = f"{twin.label} {twin.description}".strip()
    if head:
        print(head)
    print(f"  {twin.stip}  {twin.fen}")
    print()
    print("\n".join(result.lines).rstrip("\n"))
    print(summary(result))
    print(flush=True)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="alice-engine solve", description="Solve Alice chess problems.")
    parser.add_argument("file", nargs="?", help="a file in Popeye's input language ('-': stdin)")
    parser.add_argument("--fen", help="one position (compact or 16-wide Alice FEN)")
    parser.add_argument("--stip", help="its stipulation: #n =n h#n h#n.5 h=n s#n")
    parser.add_argument("--option", action="append", default=[], help="try, vari, set, nothreat, maxsol=N, refutations=N")
    parser.add_argument("--json", action="store_true", help="print the solutions as lists of UCI moves")
    return parser.parse_args(argv)


def problem_of_fen(fen: str, stip_text: str, option_words: list[str]) -> Problem:
    """A problem made of one position (its side to move is the stipulation's)."""
    problem = Problem(1)
    try:
        stip = parse_stipulation(stip_text)
        problem.squares = list(Position(fen).squares)
        problem.options = options_of(option_words)
    except (StipulationError, FenError, ProblemInputError) as error:
        problem.error = f"problem 1: {_reason(error)}"
        return problem
    problem.stip = stip
    return problem


def main(argv: list[str]) -> int:
    try:
        args = parse_args(argv)
    except SystemExit as stop:
        return int(stop.code or 0) and EXIT_USAGE
    if (args.file is None) == (args.fen is None) or (args.fen is None) != (args.stip is None):
        print("alice-engine solve: give a FILE, or --fen FEN --stip STIPULATION", file=sys.stderr)
        return EXIT_USAGE
    if args.fen is not None:
        problems = [problem_of_fen(args.fen, args.stip, args.option)]
    else:
        try:
            if args.file == "-":
                text = sys.stdin.read()
            else:
                with open(args.file, encoding="utf-8", errors="replace") as f:
                    text = f.read()
        except OSError as error:
            print(f"alice-engine solve: cannot read {args.file}: {error.strerror}", file=sys.stderr)
            return EXIT_FAILED
        problems = parse_problems(text)
        if not problems:
            print(f"alice-engine solve: no problem in {args.file}", file=sys.stderr)
            return EXIT_FAILED
    return run_problems(problems, args.json)
