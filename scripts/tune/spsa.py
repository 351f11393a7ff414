"""SPSA, as fishtest runs it: the parameter file, the schedule, one step, the state file.

The parameter file is fishtest's: one line per constant, ``name,start,min,max,c_end,r_end``
(``#`` starts a comment; blank lines are skipped). For a run of ``games`` games:

    iterations = games // 2                       (an iteration is one game pair)
    A          = int(a_ratio * games / 2)         (a_ratio 0.1 by default)
    c          = c_end * iterations ** gamma      (gamma 0.101)
    a_end      = r_end * c_end ** 2
    a          = a_end * (A + iterations) ** alpha   (alpha 0.602)

At step ``k`` (0, 1, ...; ``k`` counts the pairs played so far), with ``j = k + 1``, each
parameter is moved by ``c_k = c / j ** gamma`` up or down (``flip``, +1 or -1 at random per
parameter): θ+ = clip(θ + c_k flip), θ- = clip(θ - c_k flip). The two engines play a batch of
game pairs; with ``result`` = wins - losses of θ+,

    R_k = a / (A + j) ** alpha / c_k ** 2,   θ <- clip(θ + R_k c_k result flip)

and ``k`` grows by the pairs played. On the last pair (``j = N``) ``c_k`` is ``c_end`` and
``R_k c_k`` is ``a_end / c_end = r_end c_end``: a result of +-1 then moves θ by ``r_end``
times the perturbation ``c_end`` (fishtest's meaning of the two columns).

The flips of step ``k`` come from ``random.Random(f"{seed}:{k}")``, so a resumed run (state
read back from its JSON file) draws exactly what an uninterrupted one would.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Final

from engine.files import write_atomically

ALPHA: Final = 0.602  # fishtest's default: decay of the learning rate a_k
GAMMA: Final = 0.101  # fishtest's default: decay of the perturbation c_k
A_RATIO: Final = 0.1  # fishtest's default: A = this * games / 2 (a tenth of the iterations)
STATE_VERSION: Final = 1  # the state file's format
FIELDS: Final = ("name", "start", "min", "max", "c_end", "r_end")  # a parameter line, in order


class SpsaError(ValueError):
    """A bad parameter file or state file, or settings that cannot make a schedule."""


@dataclass
class Param:
    """One tuned constant: its line of the parameter file, the schedule's c and a, and θ now."""

    name: str
    start: float
    minimum: float
    maximum: float
    c_end: float
    r_end: float
    c: float = 0.0
    a: float = 0.0
    theta: float = 0.0

    def clip(self, value: float) -> float:
        return min(max(value, self.minimum), self.maximum)


@dataclass
class State:
    """Everything a run needs to go on: the schedule, θ, the pairs played (``k``), the seed."""

    params: list[Param]
    iterations: int  # N: game pairs of the whole run
    big_a: int  # A
    alpha: float
    gamma: float
    seed: int
    k: int = 0  # pairs played so far (fishtest's iter)
    steps: int = 0  # batches played so far
    wins: int = 0  # of θ+, over the run
    losses: int = 0
    draws: int = 0

    @property
    def done(self) -> bool:
        return self.k >= self.iterations


@dataclass(frozen=True)
class Step:
    """One step's perturbation: per parameter c_k, R_k, flip, and the two engines' values."""

    k: int
    c: tuple[float, ...]
    r: tuple[float, ...]
    flips: tuple[int, ...]
    plus: dict[str, float]
    minus: dict[str, float]


@dataclass(frozen=True)
class Outcome:
    """A batch's games from θ+'s side."""

    wins: int
    losses: int
    draws: int

    @property
    def pairs(self) -> int:
        return (self.wins + self.losses + self.draws) // 2


# A game runner plays ``pairs`` game pairs between the θ+ and θ- values (seeded by the int) and
# returns θ+'s score; alice-match (tune.spsa_games) or, in the tests, a synthetic objective.
GameRunner = Callable[[dict[str, float], dict[str, float], int, int], Outcome]


def parse_params(text: str, source: str = "parameters") -> list[Param]:
    """The parameter lines of fishtest's format (see the module docstring)."""
    params: list[Param] = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if line:
            params.append(_parse_line(line, f"{source}:{number}"))
    if not params:
        raise SpsaError(f"{source}: no parameter line (name,start,min,max,c_end,r_end)")
    names = [p.name for p in params]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise SpsaError(f"{source}: {', '.join(repeated)} given twice")
    return params


def _parse_line(line: str, where: str) -> Param:
    chunks = [c.strip() for c in line.split(",")]
    if len(chunks) != len(FIELDS):
        raise SpsaError(f"{where}: expected {','.join(FIELDS)}, got {len(chunks)} fields")
    name = chunks[0]
    if not name:
        raise SpsaError(f"{where}: empty name")
    numbers: list[float] = []
    for field_name, chunk in zip(FIELDS[1:], chunks[1:]):
        try:
            value = float(chunk)
        except ValueError:
            raise SpsaError(f"{where}: {field_name} is no number: {chunk[:40]!r}") from None
        if not math.isfinite(value):
            raise SpsaError(f"{where}: {field_name} is not finite: {chunk[:40]!r}")
        numbers.append(value)
    start, low, high, c_end, r_end = numbers
    if low > high:
        raise SpsaError(f"{where}: min {low:g} > max {high:g}")
    if c_end <= 0:
        raise SpsaError(f"{where}: c_end must be > 0")
    if r_end < 0:
        raise SpsaError(f"{where}: r_end must be >= 0")
    return Param(name, start, low, high, c_end, r_end)


def new_state(
    params: Sequence[Param], games: int, seed: int, a_ratio: float = A_RATIO, alpha: float = ALPHA, gamma: float = GAMMA
) -> State:
    """A run's start: fishtest's schedule for ``games`` games (see the module docstring)."""
    iterations = games // 2
    if iterations < 1:
        raise SpsaError(f"--games {games}: at least one game pair (2 games) is needed")
    big_a = int(a_ratio * games / 2)
    fresh: list[Param] = []
    for p in params:
        a_end = p.r_end * p.c_end**2
        fresh.append(
            Param(
                p.name, p.start, p.minimum, p.maximum, p.c_end, p.r_end,
                c=p.c_end * iterations**gamma,
                a=a_end * (big_a + iterations) ** alpha,
                theta=p.clip(p.start),
            )
        )
    return State(fresh, iterations, big_a, alpha, gamma, seed)


def perturbation(state: State) -> Step:
    """Step ``state.k``'s c_k, R_k, flips and the values θ+ and θ- play with."""
    j = state.k + 1  # fishtest's iter_local: from 1, no division by zero
    rng = random.Random(f"{state.seed}:{state.k}")
    cs, rs, flips = [], [], []
    plus: dict[str, float] = {}
    minus: dict[str, float] = {}
    for p in state.params:
        c_k = p.c / j**state.gamma
        flip = rng.choice((-1, 1))
        cs.append(c_k)
        rs.append(p.a / (state.big_a + j) ** state.alpha / c_k**2)
        flips.append(flip)
        plus[p.name] = p.clip(p.theta + c_k * flip)
        minus[p.name] = p.clip(p.theta - c_k * flip)
    return Step(state.k, tuple(cs), tuple(rs), tuple(flips), plus, minus)


def update(state: State, step: Step, outcome: Outcome) -> None:
    """θ moved by the batch's result (wins - losses of θ+), clipped; k grows by its pairs."""
    result = outcome.wins - outcome.losses
    for p, c_k, r_k, flip in zip(state.params, step.c, step.r, step.flips):
        p.theta = p.clip(p.theta + r_k * c_k * result * flip)
    state.k += outcome.pairs
    state.steps += 1
    state.wins += outcome.wins
    state.losses += outcome.losses
    state.draws += outcome.draws


def play_step(state: State, run_games: GameRunner, pairs: int) -> tuple[Step, Outcome]:
    """One step: the perturbation, a batch of ``pairs`` pairs (fewer at the end), the update."""
    step = perturbation(state)
    batch = max(1, min(pairs, state.iterations - state.k))
    outcome = run_games(step.plus, step.minus, batch, match_seed(state))
    if outcome.pairs < 1:
        raise SpsaError(f"step {state.steps + 1}: no game pair was finished")
    update(state, step, outcome)
    return step, outcome


def match_seed(state: State) -> int:
    """The seed of step ``k``'s games (the openings drawn): another per step, the same on resume."""
    return random.Random(f"{state.seed}:{state.k}:games").randrange(1 << 31)


def to_json(state: State) -> dict[str, Any]:
    data = asdict(state)
    data["version"] = STATE_VERSION
    return data


def from_json(data: dict[str, Any], source: str = "state") -> State:
    """The state back from its JSON (checked: a broken or foreign file is an SpsaError)."""
    try:
        if data.get("version") != STATE_VERSION:
            raise SpsaError(f"{source}: not an SPSA state file of version {STATE_VERSION}")
        params = [Param(**p) for p in data["params"]]
        fields = {k: data[k] for k in ("iterations", "big_a", "alpha", "gamma", "seed", "k", "steps", "wins", "losses", "draws")}
        return State(params, **fields)
    except (KeyError, TypeError, AttributeError) as error:
        raise SpsaError(f"{source}: not an SPSA state file ({type(error).__name__}: {error})") from None


def save_state(path: str, state: State) -> None:
    """Write the state atomically: a temporary file beside it, flushed, then renamed over it."""
    write_atomically(path, (json.dumps(to_json(state), indent=1) + "\n").encode())


def load_state(path: str) -> State:
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except json.JSONDecodeError as error:
        raise SpsaError(f"{path}: not JSON ({error.msg}, line {error.lineno})") from None
    if not isinstance(data, dict):
        raise SpsaError(f"{path}: not an SPSA state file")
    return from_json(data, path)



def step_line(state: State, step: Step, outcome: Outcome) -> str:
    """What a step prints: pairs played, the batch's score, the result, θ after the update."""
    thetas = "  ".join(f"{p.name} {p.theta:.4g}" for p in state.params)
    result = outcome.wins - outcome.losses
    return (
        f"step {state.steps}  pairs {state.k}/{state.iterations}  "
        f"W-L-D {outcome.wins}-{outcome.losses}-{outcome.draws}  result {result:+d}  c_k[0] {step.c[0]:.3g}  | {thetas}"
    )


def run(
    state: State,
    run_games: GameRunner,
    pairs: int = 1,
    state_path: str | None = None,
    say: Callable[[str], None] = print,
    max_steps: int | None = None,
) -> State:
    """Steps until the run's pairs are played (or ``max_steps``), the state saved after each one.

    A Ctrl-C (KeyboardInterrupt) propagates; the state file then holds the last finished step,
    and the same command continues from there."""
    steps = 0
    while not state.done and (max_steps is None or steps < max_steps):
        step, outcome = play_step(state, run_games, pairs)
        if state_path:
            save_state(state_path, state)
        say(step_line(state, step, outcome))
        steps += 1
    return state
