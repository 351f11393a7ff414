"""Match statistics. The trinomial forms as cutechess-cli computes them: Elo difference with
its 95% error margin, likelihood of superiority, and the SPRT (BayesElo model with the draw
Elo estimated from the sample). The pentanomial forms as fishtest computes them, over game
pairs (one opening, colours swapped): the pair scores LL, LD, DD/WL, WD, WW (0 to 2 points),
the Elo difference with its 95% error from their mean and variance, and the SPRT of logistic
Elo (the generalized log-likelihood ratio of the pair-score distribution's maximum-likelihood
estimates with expected score ``L(elo0)`` and ``L(elo1)``; empty classes count 0.001).

>>> round(Elo(54, 30, 16).diff(), 1)
85.0
>>> Sprt(0, 5, 0.05, 0.05).bounds()
(-2.9444389791664403, 2.9444389791664403)
>>> round(Sprt(0, 5).llr_pentanomial([10, 20, 40, 22, 12]), 4)
0.1038
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist


def phi_inv(p: float) -> float:
    """The quantile function of the standard normal distribution (``Phi^-1``)."""
    return NormalDist().inv_cdf(p)


def elo_from_score(p: float) -> float:
    """Elo difference of an expected score ``p`` (0 < p < 1)."""
    return -400.0 * math.log10(1.0 / p - 1.0)


class Elo:
    """Elo difference from wins, losses and draws, as cutechess's ``Elo`` class."""

    def __init__(self, wins: int, losses: int, draws: int) -> None:
        self.wins, self.losses, self.draws = wins, losses, draws
        n = wins + losses + draws
        self.n = n
        if n == 0:
            self.mu = 0.5
            self.stdev = 0.0
            return
        w, lo, d = wins / n, losses / n, draws / n
        self.mu = w + d / 2.0
        dev = w * (1.0 - self.mu) ** 2 + lo * (0.0 - self.mu) ** 2 + d * (0.5 - self.mu) ** 2
        self.stdev = math.sqrt(dev) / math.sqrt(n)

    def diff(self) -> float:
        """Elo difference (``inf``/``-inf`` for a perfect or nil score)."""
        if self.mu >= 1.0:
            return math.inf
        if self.mu <= 0.0:
            return -math.inf
        return elo_from_score(self.mu)

    def error_margin(self) -> float:
        """Half the width of the 95% confidence interval, in Elo (``nan`` when undefined)."""
        mu_min = self.mu + phi_inv(0.025) * self.stdev
        mu_max = self.mu + phi_inv(0.975) * self.stdev
        if not (0.0 < mu_min < 1.0 and 0.0 < mu_max < 1.0):
            return math.nan
        return (elo_from_score(mu_max) - elo_from_score(mu_min)) / 2.0

    def los(self) -> float:
        """Likelihood of superiority in percent (``nan`` without decisive games)."""
        decisive = self.wins + self.losses
        if decisive == 0:
            return math.nan
        return 100.0 * (0.5 + 0.5 * math.erf((self.wins - self.losses) / math.sqrt(2.0 * decisive)))

    def draw_ratio(self) -> float:
        return 100.0 * self.draws / self.n if self.n else 0.0

    def summary(self) -> str:
        """``Elo difference: 85.0 +/- 64.8, LOS: 99.8 %, DrawRatio: 16.0 %``."""
        return (
            f"Elo difference: {_num(self.diff())} +/- {_num(self.error_margin())}, "
            f"LOS: {_num(self.los())} %, DrawRatio: {self.draw_ratio():.1f} %"
        )


def _num(x: float) -> str:
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:.1f}"


@dataclass(frozen=True)
class SprtResult:
    llr: float
    lower: float
    upper: float
    decision: str  # "H0", "H1" or "" (continue)

    def summary(self) -> str:
        """``SPRT: llr 0.522 (17.7%), lbound -2.94, ubound 2.94`` (+ the decision if reached)."""
        bound = self.upper if self.llr >= 0 else -self.lower
        pct = 100.0 * self.llr / bound if bound else 0.0
        text = f"SPRT: llr {self.llr:.3g} ({pct:.1f}%), lbound {self.lower:.2f}, ubound {self.upper:.2f}"
        if self.decision:
            text += f" - {self.decision} was accepted"
        return text


def _bayes_probs(bayes_elo: float, draw_elo: float) -> tuple[float, float, float]:
    """Win, loss and draw probability of the BayesElo model."""
    p_win = 1.0 / (1.0 + 10.0 ** ((draw_elo - bayes_elo) / 400.0))
    p_loss = 1.0 / (1.0 + 10.0 ** ((draw_elo + bayes_elo) / 400.0))
    return p_win, p_loss, 1.0 - p_win - p_loss


@dataclass(frozen=True)
class Sprt:
    """Sequential probability ratio test of H0: elo = ``elo0`` against H1: elo = ``elo1``."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = ""  # "trinomial" (cutechess, BayesElo), "pentanomial" (fishtest); "": by the match

    def bounds(self) -> tuple[float, float]:
        return math.log(self.beta / (1.0 - self.alpha)), math.log((1.0 - self.beta) / self.alpha)

    def llr(self, wins: int, losses: int, draws: int) -> float:
        """Log-likelihood ratio; 0 until there is at least one win, one loss and one draw."""
        if wins <= 0 or losses <= 0 or draws <= 0:
            return 0.0
        n = wins + losses + draws
        w, lo = wins / n, losses / n
        # The sample's draw Elo, and the scale that turns (logistic) Elo into BayesElo.
        draw_elo = 200.0 * math.log10((1.0 - lo) / lo * (1.0 - w) / w)
        x = 10.0 ** (-draw_elo / 400.0)
        scale = 4.0 * x / ((1.0 + x) ** 2)
        p0 = _bayes_probs(self.elo0 / scale, draw_elo)
        p1 = _bayes_probs(self.elo1 / scale, draw_elo)
        return wins * math.log(p1[0] / p0[0]) + losses * math.log(p1[1] / p0[1]) + draws * math.log(p1[2] / p0[2])

    def status(self, wins: int, losses: int, draws: int) -> SprtResult:
        return self._decide(self.llr(wins, losses, draws))

    def llr_pentanomial(self, counts: list[int]) -> float:
        """fishtest's LLR of game-pair counts (logistic Elo); 0 before the first pair."""
        return llr_logistic(self.elo0, self.elo1, counts) if sum(counts) else 0.0

    def status_pentanomial(self, counts: list[int]) -> SprtResult:
        return self._decide(self.llr_pentanomial(counts))

    def _decide(self, llr: float) -> SprtResult:
        lower, upper = self.bounds()
        decision = "H1" if llr >= upper else "H0" if llr <= lower else ""
        return SprtResult(llr, lower, upper, decision)


# ------------------------------------------------------------------ pentanomial (game pairs)
PAIR_CLASSES = ("LL", "LD", "DD/WL", "WD", "WW")  # the first engine's points in a pair: 0, 0.5, 1, 1.5, 2
EMPTY_CLASS = 1e-3  # fishtest's regularization: an empty class counts this much
SECULAR_STEPS = 200  # bisection steps for the Lagrange multiplier (far below float resolution)


def logistic_score(elo: float) -> float:
    """The expected score of an Elo difference (logistic model)."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def regularized(counts: list[int]) -> list[float]:
    """``counts`` with every empty class replaced by ``EMPTY_CLASS``."""
    return [float(c) if c > 0 else EMPTY_CLASS for c in counts]


def pair_class(points: float) -> int:
    """The pentanomial class (0..4) of a pair where the first engine scored ``points`` (0..2)."""
    return round(points * 2)


@dataclass(frozen=True)
class Pentanomial:
    """Game-pair counts: ``counts[k]`` pairs where the first engine scored ``k / 2`` points;
    ``dd`` and ``wl`` split the middle class (two draws, or a win and a loss)."""

    counts: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)
    dd: int = 0
    wl: int = 0

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    def add(self, first: float, second: float) -> Pentanomial:
        """With one more pair: the first engine's scores (1, 0.5, 0) in its two games."""
        counts = list(self.counts)
        counts[pair_class(first + second)] += 1
        dd = self.dd + (first == second == 0.5)
        wl = self.wl + (first + second == 1.0 and first != 0.5)
        return Pentanomial((counts[0], counts[1], counts[2], counts[3], counts[4]), dd, wl)

    def elo(self) -> tuple[float, float]:
        """The Elo difference and half its 95% interval, as fishtest's ``get_elo``.

        >>> elo, error = Pentanomial((1, 4, 8, 5, 2)).elo()
        >>> round(elo, 1), round(error, 1)
        (26.1, 79.0)
        """
        counts = regularized(list(self.counts))
        pairs = sum(counts)
        games = 2 * pairs
        mu = sum(n * k / 2 for k, n in enumerate(counts)) / games  # per-game score
        var = sum(n * (k / 2 - 2 * mu) ** 2 for k, n in enumerate(counts)) / games
        half = phi_inv(0.975) * math.sqrt(var) / math.sqrt(games)
        return _clamped_elo(mu), (_clamped_elo(mu + half) - _clamped_elo(mu - half)) / 2

    def summary(self) -> str:
        """``Pairs (LL, LD, DD/WL, WD, WW): 1, 4, 5/3, 5, 2; Elo difference: 26.1 +/- 79.0 (pentanomial)``."""
        ll, ld, _, wd, ww = self.counts
        elo, error = self.elo()
        return (
            f"Pairs ({', '.join(PAIR_CLASSES)}): {ll}, {ld}, {self.dd}/{self.wl}, {wd}, {ww}; "
            f"Elo difference: {_num(elo)} +/- {_num(error)} (pentanomial)"
        )


def _clamped_elo(score: float) -> float:
    return elo_from_score(min(max(score, EMPTY_CLASS), 1 - EMPTY_CLASS))


def mle_with_mean(values: list[float], probs: list[float], mean: float) -> list[float]:
    """The distribution on ``values`` closest in likelihood to ``probs`` whose expectation is
    ``mean``: ``probs[i] / (1 + x (values[i] - mean))`` with ``x`` solving
    ``sum probs[i] (values[i] - mean) / (1 + x (values[i] - mean)) = 0`` (found by bisection:
    the sum falls as ``x`` grows, between the poles ``-1 / max`` and ``-1 / min``)."""
    shifted = [v - mean for v in values]
    low, high = -1.0 / max(shifted), -1.0 / min(shifted)

    def balance(x: float) -> float:
        return sum(p * a / (1.0 + x * a) for p, a in zip(probs, shifted))

    for _ in range(SECULAR_STEPS):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if balance(middle) > 0:
            low = middle
        else:
            high = middle
    x = (low + high) / 2
    return [p / (1.0 + x * a) for p, a in zip(probs, shifted)]


def llr_logistic(elo0: float, elo1: float, counts: list[int]) -> float:
    """fishtest's generalized log-likelihood ratio of ``counts`` (3 classes L, D, W or 5 pair
    classes) for logistic Elo ``elo1`` against ``elo0``."""
    regular = regularized(counts)
    total = sum(regular)
    probs = [n / total for n in regular]
    values = [k / (len(counts) - 1) for k in range(len(counts))]
    p0, p1 = (mle_with_mean(values, probs, logistic_score(elo)) for elo in (elo0, elo1))
    return total * sum(p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, p0, p1))
