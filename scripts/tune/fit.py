"""Texel-style fit of the evaluation's weights to scored positions, in pure Python.

The error of a set of weights is the mean over the positions of

    (sigmoid(evaluate(pos) / K) - target) ** 2,   sigmoid(x) = 1 / (1 + exp(-x)),

where ``target`` is ``sigmoid(label / K)`` for a score label (centipawns from the side to
move) or the game result from the side to move's view; a row with both (positions from played
games) targets ``RESULT_WEIGHT`` of the result and the rest of the score (``--result-weight``). ``K`` (``SCALE_K``, 400 / ln 10) makes
the sigmoid the Elo curve of a centipawn score.

How it is minimised: the weights (``PARAMS``: every entry of the named constants of
``search/evaluate.py``, ``PIECE_VALUE`` of ``search/score.py``; structure constants such as
``PHASE_MAX`` or ``KS_MAX`` stay fixed) are patched into the evaluation module and its
tables rebuilt (``rebuild_tables``), which works in the pure build only. Most terms are
linear in the weights, so each position's evaluation is a sum of feature count x weight;
the features are measured rather than written down twice: ``features`` evaluates every
position with each weight moved by +-``STEP`` (central differences, exact for the linear
terms, a tangent for the quadratic king safety and the integer rounding). With the
evaluation ``e(w) = e(w0) + F (w - w0)`` the error is a smooth function of ``w``, minimised
by Levenberg-Marquardt (Gauss-Newton on the sigmoid residuals, damped: ``lm_fit``). The
weights are rounded and the step checked on the real evaluation, halved while the real error
rises (``line_search``: the model is only a tangent of the king safety); then the features
are measured again at the new weights, ``ROUNDS`` times. The error is always reported from
the real evaluation. A weight whose feature is zero in
every position (a piece type never on the board) is left as it is.

Output: the fitted constants as source lines for ``search/evaluate.py`` and
``search/score.py`` (``source_lines``), and the error before and after.
"""

from __future__ import annotations

import math
import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

import search.evaluate as ev
import search.score
from engine import Position
from tune.data import Row

SCALE_K: Final = 400 / math.log(10)  # centipawns: sigmoid(x / K) is the Elo curve
STEP: Final = 1  # weight change of the central differences that measure the features
ROUNDS: Final = 3  # linearise, fit, round: this many times
LM_ITERATIONS: Final = 60  # Levenberg-Marquardt steps per round at most
LM_DAMPING: Final = 1e-3  # initial damping (times the diagonal of J^T J)
RIDGE: Final = 1e-9  # added to the diagonal (times its mean): keeps collinear weights solvable
TOLERANCE: Final = 1e-12  # stop a round when the error falls by less than this
HALVINGS: Final = 6  # a round's step is halved at most this many times while the real error rises
MAX_LABEL: Final = 2000  # rows whose score label is larger (in absolute value) are left out
RESULT_WEIGHT: Final = 0.5  # a row with a score and a result targets this share of the result
K_RANGE: Final = (50.0, 1000.0)  # centipawns: where `--k auto` looks for the scale
K_TOLERANCE: Final = 0.5  # centipawns: `--k auto` stops when its interval is this narrow

# The fitted constants and the entries of each that are weights (None: a scalar). Entries by
# piece type (0 none, 1 pawn .. 6 king); the PAWN_RANK_BONUS entries are the ranks 2..7.
FITTED: Final[dict[str, tuple[int, ...] | None]] = {
    "PIECE_VALUE": (1, 2, 3, 4, 5),
    "BISHOP_PAIR": None,
    "TEMPO": None,
    "CENTER_BONUS": (1, 2, 3, 4, 5),
    "PAWN_RANK_BONUS": (1, 2, 3, 4, 5, 6),
    "KING_MG_BACK_RANK": None,
    "KING_MG_CENTER": None,
    "KING_EG_CENTER": None,
    "MOB_FREE": (2, 3, 4, 5),
    "MOB_BLOCKED": (2, 3, 4, 5),
    "KS_ZONE_ATTACK": (2, 3, 4, 5),
    "KS_CHECK_THREAT": (2, 3, 4, 5),
    "KS_ARRIVE": (2, 3, 4, 5),
    "KS_NO_FLIGHT": None,
    "KS_ONE_FLIGHT": None,
    "KS_LINEAR": None,
    "KS_QUADRATIC": None,
    "OPP_BOARD": (2, 3, 4, 5),
    "DEFENDER": (2, 3, 4, 5),
    "THREAT_HANGING": (1, 2, 3, 4, 5),
}
HOME: Final = {"PIECE_VALUE": search.score}  # where a constant is defined, when not in evaluate


@dataclass(frozen=True)
class Param:
    """One weight: an entry of a named constant (``index`` None for a scalar)."""

    name: str
    index: int | None = None

    def label(self) -> str:
        return self.name if self.index is None else f"{self.name}[{self.index}]"


def params_of(names: Sequence[str] | None = None) -> list[Param]:
    """The weights of the named constants (all of ``FITTED`` when ``names`` is None)."""
    chosen = list(FITTED) if names is None else list(names)
    unknown = [n for n in chosen if n not in FITTED]
    if unknown:
        raise ValueError(f"not a fitted constant: {', '.join(unknown)} (choose from {', '.join(FITTED)})")
    out = []
    for name in chosen:
        indices = FITTED[name]
        out.extend([Param(name)] if indices is None else [Param(name, i) for i in indices])
    return out


# ---------------------------------------------------------------- the evaluation's weights
def check_pure() -> None:
    """The weights can be patched only in the pure build."""
    if not ev.__file__ or not ev.__file__.endswith(".py"):
        raise RuntimeError(
            "search.evaluate is compiled: run the fitter on the pure build (from the checkout, "
            "or installed with ALICE_ENGINE_PURE=1)"
        )


def get_weight(p: Param) -> int:
    value = getattr(ev, p.name)
    return int(value if p.index is None else value[p.index])


def weights_of(params: Sequence[Param]) -> list[float]:
    return [float(get_weight(p)) for p in params]


def set_weights(params: Sequence[Param], values: Sequence[float]) -> None:
    """Patch the (rounded) values into the evaluation module and rebuild its tables."""
    for p, v in zip(params, values):
        current = getattr(ev, p.name)
        if p.index is None:
            setattr(ev, p.name, round(v))
        else:
            entries = list(current)
            entries[p.index] = round(v)
            setattr(ev, p.name, tuple(entries))
    ev.rebuild_tables()


class Patched:
    """A context that restores every fitted constant of the evaluation on exit."""

    def __enter__(self) -> Patched:
        self.saved = {name: getattr(ev, name) for name in FITTED}
        return self

    def __exit__(self, *_: object) -> None:
        for name, value in self.saved.items():
            setattr(ev, name, value)
        ev.rebuild_tables()


# ---------------------------------------------------------------- error
def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, x))))


def target_of(row: Row, pos: Position, k: float, result_weight: float = RESULT_WEIGHT) -> float:
    """The row's target probability for the side to move: its score's, its result's, or with
    both ``result_weight`` of the result's and the rest of the score's."""
    if row.result is None:
        assert row.score is not None
        return sigmoid(row.score / k)
    result = row.result if pos.turn else 1.0 - row.result
    if row.score is None:
        return result
    return result_weight * result + (1.0 - result_weight) * sigmoid(row.score / k)


def usable(rows: Sequence[Row], max_label: int = MAX_LABEL) -> list[Row]:
    """The rows with a result or a score label within ``max_label``."""
    return [r for r in rows if r.score is None or abs(r.score) <= max_label]


def error(evals: Sequence[float], targets: Sequence[float], k: float) -> float:
    """The mean squared error of the evaluations against the targets."""
    return sum((sigmoid(e / k) - t) ** 2 for e, t in zip(evals, targets)) / len(targets)


def best_k(
    evals: Sequence[float], results: Sequence[float], low: float = K_RANGE[0], high: float = K_RANGE[1]
) -> float:
    """The scale under which the evaluations predict the results best (Texel's K): the
    ``k`` in ``[low, high]`` of least ``error(evals, results, k)``, by golden-section search.
    Only results count: against score labels, whose targets scale with ``k`` too, a larger
    ``k`` always looks better.

    >>> round(best_k([-200.0, 0.0, 200.0], [sigmoid(-2.0), 0.5, sigmoid(2.0)]))
    100
    """
    if not results:
        raise ValueError("no row has a result: the scale can only be fitted to game results")
    ratio = (math.sqrt(5) - 1) / 2
    a, b = low, high
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    fc, fd = error(evals, results, c), error(evals, results, d)
    while b - a > K_TOLERANCE:
        if fc <= fd:
            b, d, fd = d, c, fc
            c = b - ratio * (b - a)
            fc = error(evals, results, c)
        else:
            a, c, fc = c, d, fd
            d = a + ratio * (b - a)
            fd = error(evals, results, d)
    return (a + b) / 2


def fitted_k(rows: Sequence[Row]) -> float:
    """``best_k`` of the current evaluation over the rows with a result (side to move's view)."""
    with_result = [r for r in rows if r.result is not None]
    positions = [Position(r.fen) for r in with_result]
    results = [target_of(r, pos, SCALE_K, result_weight=1.0) for r, pos in zip(with_result, positions)]
    return best_k(evaluate_all(positions), results)


def evaluate_all(positions: Sequence[Position]) -> list[float]:
    return [float(ev.evaluate(pos)) for pos in positions]


# ---------------------------------------------------------------- features
Features = list[list[tuple[int, float]]]  # per position: (weight index, d eval / d weight), non-zero only


def features(positions: Sequence[Position], params: Sequence[Param], step: int = STEP) -> Features:
    """Each position's evaluation's slope in each weight, by central differences."""
    base = weights_of(params)
    rows: Features = [[] for _ in positions]
    for j, p in enumerate(params):
        moved = list(base)
        moved[j] = base[j] + step
        set_weights(params, moved)
        plus = evaluate_all(positions)
        moved[j] = base[j] - step
        set_weights(params, moved)
        minus = evaluate_all(positions)
        for i in range(len(positions)):
            slope = (plus[i] - minus[i]) / (2 * step)
            if slope:
                rows[i].append((j, slope))
    set_weights(params, base)
    return rows


# ---------------------------------------------------------------- Levenberg-Marquardt
def model(base: Sequence[float], feats: Features, delta: Sequence[float]) -> list[float]:
    """Evaluations predicted after moving the weights by ``delta``."""
    return [b + sum(f * delta[j] for j, f in row) for b, row in zip(base, feats)]


def normal_equations(
    evals: Sequence[float], targets: Sequence[float], feats: Features, n: int, k: float
) -> tuple[list[list[float]], list[float]]:
    """``J^T J`` and ``J^T r`` of the residuals ``sigmoid(e / k) - target``."""
    jtj = [[0.0] * n for _ in range(n)]
    jtr = [0.0] * n
    for e, t, row in zip(evals, targets, feats):
        s = sigmoid(e / k)
        g = s * (1.0 - s) / k
        r = s - t
        for a, fa in row:
            ga = g * fa
            jtr[a] += ga * r
            line = jtj[a]
            for b, fb in row:
                if b >= a:
                    line[b] += ga * g * fb
    for a in range(n):
        for b in range(a):
            jtj[a][b] = jtj[b][a]
    return jtj, jtr


def solve(matrix: list[list[float]], rhs: list[float]) -> list[float]:
    """``matrix x = rhs`` by Gaussian elimination with partial pivoting (copies its inputs)."""
    n = len(rhs)
    m = [[*row, rhs[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if m[col][col] == 0.0:
            continue
        for r in range(col + 1, n):
            factor = m[r][col] / m[col][col]
            if factor:
                for c in range(col, n + 1):
                    m[r][c] -= factor * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        if m[r][r] != 0.0:
            x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def lm_fit(
    base: Sequence[float], feats: Features, targets: Sequence[float], n: int, k: float
) -> list[float]:
    """The weight change that minimises the error of the linear model (Levenberg-Marquardt)."""
    delta = [0.0] * n
    evals = model(base, feats, delta)
    current = error(evals, targets, k)
    damping = LM_DAMPING
    for _ in range(LM_ITERATIONS):
        jtj, jtr = normal_equations(evals, targets, feats, n, k)
        ridge = RIDGE * (sum(jtj[i][i] for i in range(n)) / n or 1.0)
        while damping < 1e12:
            a = [row[:] for row in jtj]
            for i in range(n):
                a[i][i] += damping * jtj[i][i] + ridge
            step = solve(a, [-v for v in jtr])
            trial = [d + s for d, s in zip(delta, step)]
            trial_evals = model(base, feats, trial)
            trial_error = error(trial_evals, targets, k)
            if trial_error < current:
                break
            damping *= 4
        else:
            break
        gain = current - trial_error
        delta, evals, current = trial, trial_evals, trial_error
        damping = max(damping / 4, 1e-9)
        if gain < TOLERANCE:
            break
    return delta


# ---------------------------------------------------------------- the fit
@dataclass
class FitResult:
    """What a fit found: the weights before and after, the errors, the weights never seen."""

    params: list[Param]
    before: list[float]
    after: list[float]
    error_before: float
    error_after: float
    unseen: list[Param] = field(default_factory=list)
    rounds: list[float] = field(default_factory=list)  # the real error after each round


def fit(
    rows: Sequence[Row],
    params: Sequence[Param] | None = None,
    k: float = SCALE_K,
    rounds: int = ROUNDS,
    log: Callable[[str], None] | None = None,
    result_weight: float = RESULT_WEIGHT,
) -> FitResult:
    """Fit ``params`` (all of ``FITTED`` by default) to the rows; the evaluation module is
    left with the fitted weights patched in (wrap the call in ``Patched`` to restore them)."""
    check_pure()
    chosen = list(params) if params is not None else params_of()
    positions = [Position(r.fen) for r in rows]
    targets = [target_of(r, pos, k, result_weight) for r, pos in zip(rows, positions)]
    before = weights_of(chosen)
    best = list(before)
    error_before = best_error = error(evaluate_all(positions), targets, k)
    result = FitResult(chosen, before, best, error_before, best_error)
    for n_round in range(rounds):
        set_weights(chosen, best)
        feats = features(positions, chosen)
        seen = {j for row in feats for j, _ in row}
        result.unseen = [p for j, p in enumerate(chosen) if j not in seen]
        delta = lm_fit(evaluate_all(positions), feats, targets, len(chosen), k)
        trial, trial_error = line_search(chosen, best, delta, positions, targets, k)
        result.rounds.append(trial_error)
        if log is not None:
            log(f"round {n_round + 1}: error {trial_error:.6f}")
        if trial_error >= best_error:
            break
        best, best_error = trial, trial_error
    set_weights(chosen, best)
    result.after, result.error_after = best, best_error
    return result


def line_search(
    params: Sequence[Param],
    start: Sequence[float],
    delta: Sequence[float],
    positions: Sequence[Position],
    targets: Sequence[float],
    k: float,
) -> tuple[list[float], float]:
    """The rounded weights ``start + delta * 2**-i`` (i = 0 .. ``HALVINGS``) of the first real
    error below the start's, else the last tried: where the linear model is wrong (the
    quadratic, capped king safety) a shorter step still gains."""
    start_error = error(evaluate_all_at(params, start, positions), targets, k)
    trial, trial_error = list(start), start_error
    for i in range(HALVINGS + 1):
        trial = [float(round(w + d / 2**i)) for w, d in zip(start, delta)]
        trial_error = error(evaluate_all_at(params, trial, positions), targets, k)
        if trial_error < start_error:
            break
    return trial, trial_error


def evaluate_all_at(params: Sequence[Param], values: Sequence[float], positions: Sequence[Position]) -> list[float]:
    """The evaluations with ``values`` patched in (they stay patched)."""
    set_weights(params, values)
    return evaluate_all(positions)


# ---------------------------------------------------------------- output
def constant_line(source: str, name: str) -> re.Match[str] | None:
    """The line ``NAME: Final = value  # comment`` of a module's source."""
    return re.search(rf"^{name}: Final = (?P<value>[^#\n]*?)(?P<comment>\s+#.*)?$", source, re.MULTILINE)


def source_lines(names: Sequence[str]) -> dict[str, list[str]]:
    """The constants' current values as source lines, by the file that defines them."""
    out: dict[str, list[str]] = {}
    for name in names:
        module = HOME.get(name, ev)
        path = module.__file__ or ""
        with open(path, encoding="utf-8") as f:
            match = constant_line(f.read(), name)
        value = getattr(ev, name)
        text = repr(tuple(value)) if isinstance(value, tuple) else repr(value)
        comment = match.group("comment") if match and match.group("comment") else ""
        out.setdefault(os.path.relpath(path, os.path.dirname(os.path.dirname(path))), []).append(
            f"{name}: Final = {text}{comment}"
        )
    return out


def report(result: FitResult, out: Callable[[str], None] = print) -> None:
    """The errors, the changed weights, and the constants as source lines to paste."""
    out(f"error before {result.error_before:.6f}, after {result.error_after:.6f}")
    for p, b, a in zip(result.params, result.before, result.after):
        if a != b:
            out(f"  {p.label()}: {b:g} -> {a:g}")
    if result.unseen:
        out("never seen in the data (left as they were): " + ", ".join(p.label() for p in result.unseen))
    names = list(dict.fromkeys(p.name for p in result.params))
    for path, lines in source_lines(names).items():
        out(f"# {path}")
        for line in lines:
            out(line)


def main_fit(
    rows: Sequence[Row],
    names: Sequence[str] | None,
    k: float | None,
    rounds: int,
    result_weight: float = RESULT_WEIGHT,
) -> int:
    """Fit, print the report (the evaluation module keeps the fitted weights); ``k`` None
    fits the scale to the results first (``fitted_k``)."""
    chosen = usable(rows)
    print(f"{len(chosen)} positions ({len(rows) - len(chosen)} left out: label beyond {MAX_LABEL})")
    if k is None:
        k = fitted_k(chosen)
        print(f"K fitted to the results: {k:.1f} cp")
    log = lambda line: print(line, file=sys.stderr)  # noqa: E731
    result = fit(chosen, params_of(names), k, rounds, log, result_weight)
    report(result)
    return 0
