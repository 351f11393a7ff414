"""Weakened play (``search.skill``): the plan of each level, the choice among root lines,
that no level throws its queen away, and the three UCI options over the protocol."""

from __future__ import annotations

import itertools
import random
import threading
from collections.abc import Iterator

import pytest

from engine import Position, parse_uci
from search import skill
from search.limits import Iteration, Limits, Result
from search.thinker import Thinker
from support.engine_process import Uci

FREE_QUEEN = "4k3/8/8/3q4/8/8/8/3QK3 w - - 0 1"  # Qxd5 wins the black queen for nothing
ATTACKED_QUEEN = "4k3/8/4n3/8/3Q4/8/8/4K3 w - - 0 1"  # the knight takes the queen unless it moves


def line(move: int, cp: int, mate: int | None = None, multipv: int = 1) -> Iteration:
    return Iteration(
        depth=4, seldepth=4, multipv=multipv, score=cp, mate=mate, nodes=0, time_ms=0, pv=[move], hashfull=0
    )


def test_docstring_examples() -> None:
    import doctest

    assert doctest.testmod(skill).failed == 0


def test_plans_grow_stronger_with_the_skill() -> None:
    plans = [skill.plan(s) for s in range(skill.SKILL_MAX)]
    for weaker, stronger in itertools.pairwise(plans):
        assert weaker.nodes <= stronger.nodes
        assert weaker.margin >= stronger.margin
        assert weaker.temperature >= stronger.temperature
    assert plans[0].margin <= 300  # never more than a minor piece thrown away on purpose


def test_elo_and_skill_options() -> None:
    assert skill.skill_from_options(False, skill.ELO_MAX, skill.SKILL_MAX) is None
    assert skill.skill_from_options(False, skill.ELO_MIN, 3) == 3.0
    assert skill.skill_from_options(True, skill.ELO_MIN, 3) == 0.0  # UCI_LimitStrength wins
    elos = [e for _, e in skill.ELO_TABLE]
    assert elos == sorted(elos)
    for s, elo in skill.ELO_TABLE:
        assert skill.skill_of_elo(elo) == pytest.approx(s)
    assert skill.skill_of_elo(skill.ELO_MIN - 500) == 0.0
    middle = (skill.ELO_TABLE[0][1] + skill.ELO_TABLE[1][1]) // 2
    assert skill.ELO_TABLE[0][0] < skill.skill_of_elo(middle) < skill.ELO_TABLE[1][0]


def test_choice_stays_within_the_margin_and_favours_better_moves() -> None:
    p = skill.plan(0)
    lines = [line(1, 100), line(2, 90, multipv=2), line(3, 100 - p.margin, multipv=3), line(4, -p.margin, multipv=4)]
    counts = {1: 0, 2: 0, 3: 0, 4: 0}
    rng = random.Random(5)
    for _ in range(2000):
        move = skill.choose(lines, p, rng)
        assert move is not None
        counts[move] += 1
    assert counts[4] == 0  # loses more than the margin: never
    assert counts[1] > counts[3] and counts[2] > counts[3] > 0  # worse is rarer, but possible


def test_a_seen_mate_is_always_played_and_being_mated_avoided() -> None:
    rng = random.Random(1)
    for s in (0, 10, 19):
        p = skill.plan(s)
        assert skill.choose([line(5, 0, mate=3, multipv=2), line(6, 300)], p, rng) == 5
        assert skill.choose([line(7, 0, mate=-2), line(8, -50, multipv=2)], p, rng) == 8


def test_the_choice_is_repeatable_with_a_seed() -> None:
    lines = [line(m, 100 - 10 * m, multipv=m) for m in range(1, 5)]
    first = [skill.choose(lines, skill.plan(2), random.Random(42)) for _ in range(5)]
    assert len(set(first)) == 1
    picks = {skill.choose(lines, skill.plan(2), random.Random(seed)) for seed in range(40)}
    assert len(picks) > 1  # different seeds, different moves


def test_search_limits_cap_nodes_and_add_lines() -> None:
    p = skill.plan(5)
    limits = skill.search_limits(Limits(movetime=1000, multipv=1), p)
    assert limits.nodes == p.nodes and limits.multipv == p.lines and limits.movetime == 1000
    assert skill.search_limits(Limits(nodes=10), p).nodes == 10  # never more than asked


def think(fen: str, level: float, seed: int) -> tuple[int, list[Iteration]]:
    """One weakened search through the facade: the move and the lines it reported."""
    thinker = Thinker(hash_mb=1)
    thinker.rng = random.Random(seed)
    shown: list[Iteration] = []
    done = threading.Event()
    answer: list[Result] = []

    def on_done(result: Result) -> None:
        answer.append(result)
        done.set()

    thinker.go(Position(fen), Limits(skill=level), shown.append, on_done)
    assert done.wait(60)
    assert answer[0].best is not None
    return answer[0].best, shown


@pytest.mark.parametrize("level", [0.0, 5.0, 12.0, 19.0])
def test_no_level_gives_its_queen_away(level: float) -> None:
    take = parse_uci(Position(FREE_QUEEN), "d1d5")
    for seed in range(6):
        move, shown = think(FREE_QUEEN, level, seed)
        assert move == take, (level, seed)
        assert shown and all(it.multipv == 1 for it in shown)  # the extra lines are not shown
        move, _ = think(ATTACKED_QUEEN, level, seed)
        assert Position(ATTACKED_QUEEN).sq[move & 63] & 7 == 5, (level, seed)  # the queen moves


def test_weak_levels_vary_their_moves() -> None:
    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert len({think(fen, 0.0, seed)[0] for seed in range(12)}) > 1


# ---------------------------------------------------------------- over UCI
@pytest.fixture
def uci() -> Iterator[Uci]:
    engine = Uci()
    yield engine
    engine.close()


def test_uci_offers_the_strength_options(uci: Uci) -> None:
    uci.send("uci")
    _, before, _ = uci.expect("^uciok$")
    options = "\n".join(before)
    assert f"option name Skill Level type spin default {skill.SKILL_MAX} min 0 max {skill.SKILL_MAX}" in options
    assert "option name UCI_LimitStrength type check default false" in options
    elo = f"option name UCI_Elo type spin default {skill.ELO_MAX} min {skill.ELO_MIN} max {skill.ELO_MAX}"
    assert elo in options
    for bad in ("setoption name Skill Level value 21", f"setoption name UCI_Elo value {skill.ELO_MAX + 1}"):
        uci.send(bad)
        assert uci.ready()[0].startswith("info string error: ")


@pytest.mark.parametrize(
    "options",
    [
        ["setoption name Skill Level value 0"],
        ["setoption name UCI_LimitStrength value true", f"setoption name UCI_Elo value {skill.ELO_MIN}"],
    ],
)
def test_a_weak_level_answers_quickly_within_its_budget(uci: Uci, options: list[str]) -> None:
    for command in options:
        uci.send(command)
    uci.send("position startpos moves e2e4")
    uci.send("go movetime 20000")
    best, _, before = uci.bestmove(timeout=20)
    assert parse_uci(Position("rnbqkbnr/pppppppp/8/8/4|P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"), best)
    infos = [line for line in before if line.startswith("info depth")]
    assert infos and all(" multipv 1 " in line or " multipv " not in line for line in infos)
    nodes = max(int(line.split(" nodes ")[1].split()[0]) for line in infos)
    assert nodes <= skill.plan(0).nodes * 2  # the budget, not the 20 s
