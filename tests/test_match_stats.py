"""alice_match.stats: Elo difference, error margin and LOS (cutechess formulas), SPRT."""

from __future__ import annotations

import math

import pytest

from alice_match.stats import Elo, Sprt, elo_from_score, phi_inv


@pytest.mark.parametrize(
    ("wins", "losses", "draws", "diff", "margin", "los"),
    [
        # diff = -400 log10(1/p - 1) with p = (W + D/2) / N; the margin from the trinomial
        # standard deviation at 95%; LOS = 0.5 + 0.5 erf((W - L) / sqrt(2 (W + L))).
        (54, 30, 16, 85.04, 64.78, 99.56),
        (100, 100, 100, 0.0, 32.19, 50.0),
        (10, 20, 70, -34.86, 37.19, 3.39),
        (3000, 2900, 4100, 3.47, 5.23, 90.35),
    ],
)
def test_elo_known_values(wins: int, losses: int, draws: int, diff: float, margin: float, los: float) -> None:
    elo = Elo(wins, losses, draws)
    assert elo.diff() == pytest.approx(diff, abs=0.01)
    assert elo.error_margin() == pytest.approx(margin, abs=0.01)
    assert elo.los() == pytest.approx(los, abs=0.01)


def test_elo_by_hand() -> None:
    # 1 win 1 draw: p = 0.75, diff = 400 log10(3); LOS = Phi(1).
    elo = Elo(1, 0, 1)
    assert elo.diff() == pytest.approx(400 * math.log10(3))
    assert elo.los() == pytest.approx(100 * 0.5 * (1 + math.erf(1 / math.sqrt(2))))
    assert math.isnan(elo.error_margin())  # the interval leaves (0, 1)
    assert elo.draw_ratio() == 50.0
    assert Elo(3, 0, 0).diff() == math.inf and Elo(0, 2, 0).diff() == -math.inf
    assert math.isnan(Elo(0, 0, 4).los())
    assert Elo(54, 30, 16).summary() == "Elo difference: 85.0 +/- 64.8, LOS: 99.6 %, DrawRatio: 16.0 %"


def test_phi_inv_and_score_conversion() -> None:
    assert phi_inv(0.975) == pytest.approx(1.959964, abs=1e-6)
    assert phi_inv(0.5) == pytest.approx(0.0)
    assert elo_from_score(0.5) == pytest.approx(0.0)
    assert elo_from_score(10 / 11) == pytest.approx(400.0)


def test_sprt_bounds() -> None:
    lower, upper = Sprt(0, 5, 0.05, 0.05).bounds()
    assert lower == pytest.approx(math.log(0.05 / 0.95)) == pytest.approx(-2.944439)
    assert upper == pytest.approx(2.944439)
    lower, upper = Sprt(0, 5, 0.05, 0.10).bounds()
    assert (lower, upper) == (pytest.approx(math.log(0.10 / 0.95)), pytest.approx(math.log(0.90 / 0.05)))


@pytest.mark.parametrize(
    ("wins", "losses", "draws", "llr"),
    [
        (100, 80, 120, 0.42952),
        (3000, 2900, 4100, 0.68415),
        (1200, 1000, 1800, 4.49221),
        (10, 20, 70, -0.53961),
    ],
)
def test_sprt_llr_known_values(wins: int, losses: int, draws: int, llr: float) -> None:
    assert Sprt(0, 5).llr(wins, losses, draws) == pytest.approx(llr, abs=1e-4)


@pytest.mark.parametrize(("wins", "losses", "draws"), [(100, 80, 120), (3000, 2900, 4100), (1200, 1000, 1800)])
def test_sprt_llr_agrees_with_the_normal_approximation(wins: int, losses: int, draws: int) -> None:
    # LLR ~ (elo1 - elo0) / sigma^2 * (elo - (elo0 + elo1) / 2), sigma the Elo standard error.
    n = wins + losses + draws
    mu = (wins + draws / 2) / n
    var = (wins * (1 - mu) ** 2 + losses * mu**2 + draws * (0.5 - mu) ** 2) / n
    slope = 400 / math.log(10) / (mu * (1 - mu))
    sigma2 = var / n * slope**2
    approx = 5 / sigma2 * (elo_from_score(mu) - 2.5)
    assert Sprt(0, 5).llr(wins, losses, draws) == pytest.approx(approx, rel=0.03)


def test_sprt_decisions() -> None:
    sprt = Sprt(0, 5)
    assert sprt.llr(10, 0, 5) == 0.0  # no loss yet: no estimate of the draw rate
    assert Sprt(5, 5.0001).llr(30, 20, 40) == pytest.approx(0.0, abs=1e-3)
    assert sprt.status(100, 80, 120).decision == ""
    accept = sprt.status(1200, 1000, 1800)
    assert accept.decision == "H1" and accept.llr > accept.upper
    reject = sprt.status(1000, 1200, 1800)
    assert reject.decision == "H0" and reject.llr < reject.lower
    assert sprt.llr(120, 100, 180) > sprt.llr(110, 100, 180)  # more wins, more evidence for H1
    text = sprt.status(100, 80, 120).summary()
    assert text.startswith("SPRT: llr 0.43 (14.6%), lbound -2.94, ubound 2.94")
