"""Match statistics the way cutechess-cli computes them: Elo difference with its 95% error
margin (trinomial model), likelihood of superiority, and the SPRT (BayesElo model with the
draw Elo estimated from the sample).

>>> round(Elo(54, 30, 16).diff(), 1)
85.0
>>> Sprt(0, 5, 0.05, 0.05).bounds()
(-2.9444389791664403, 2.9444389791664403)
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
        lower, upper = self.bounds()
        llr = self.llr(wins, losses, draws)
        decision = "H1" if llr >= upper else "H0" if llr <= lower else ""
        return SprtResult(llr, lower, upper, decision)
