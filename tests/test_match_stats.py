"""alice_match.stats: Elo difference, error margin and LOS (cutechess formulas), SPRT."""

from __future__ import annotations

import math

import pytest

from alice_match.stats import Elo, Pentanomial, Sprt, elo_from_score, llr_logistic, mle_with_mean, phi_inv


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


# ------------------------------------------------------------------ pentanomial (fishtest)
def test_pentanomial_elo_by_hand() -> None:
    # 20 pairs, 40 games: mean score (4 * 0.5 + 8 * 1 + 5 * 1.5 + 2 * 2) / 40 = 0.5375; the
    # per-game variance sum n (k/2 - 1.075)^2 / 40 = 5.1375 / 40; its 95% interval of the mean
    # 0.5375 +- 1.959964 * sqrt(0.1284375 / 40) = [0.426438, 0.648562] -> Elo -51.49 .. 106.44.
    elo, error = Pentanomial((1, 4, 8, 5, 2)).elo()
    assert elo == pytest.approx(-400 * math.log10(1 / 0.5375 - 1)) == pytest.approx(26.107, abs=1e-3)
    assert error == pytest.approx((106.44 + 51.49) / 2, abs=0.02)
    # an empty class counts 0.001 (fishtest's regularization): all pairs won is not infinite
    won, won_error = Pentanomial((0, 0, 0, 0, 10)).elo()
    assert won == pytest.approx(-400 * math.log10(1 / (1 - 1e-3) - 1))
    assert math.isfinite(won_error)


def test_pentanomial_counts_split_the_middle_class() -> None:
    p = Pentanomial().add(1, 0).add(0.5, 0.5).add(0, 1).add(1, 0.5).add(0, 0).add(1, 1).add(0.5, 0)
    assert p.counts == (1, 1, 3, 1, 1) and (p.dd, p.wl) == (1, 2) and p.pairs == 7
    assert p.summary().startswith("Pairs (LL, LD, DD/WL, WD, WW): 1, 1, 1/2, 1, 1; Elo difference: ")


@pytest.mark.parametrize(
    ("counts", "elo0", "elo1"),
    [([10, 20, 40, 22, 12], 0, 5), ([1, 4, 8, 5, 2], -3, 1), ([0, 3, 0, 0, 9], 0, 10), ([5, 0, 7], 0, 20)],
)
def test_pentanomial_llr_against_the_optimality_conditions(counts: list[int], elo0: float, elo1: float) -> None:
    """The LLR is N * sum p log(q1 / q0), q0 and q1 the likelihood-closest distributions with
    expected score L(elo0) and L(elo1): checked by the Lagrange conditions of that maximum
    (p_i / q_i affine in the class value, sum q = 1, mean = the score), not by the bisection."""
    regular = [c if c else 1e-3 for c in counts]
    total = sum(regular)
    p = [c / total for c in regular]
    values = [k / (len(counts) - 1) for k in range(len(counts))]
    qs = []
    for elo in (elo0, elo1):
        score = 1 / (1 + 10 ** (-elo / 400))
        q = mle_with_mean(values, p, score)
        assert sum(q) == pytest.approx(1, abs=1e-12)
        assert sum(v * x for v, x in zip(values, q)) == pytest.approx(score, abs=1e-12)
        ratio = [a / b for a, b in zip(p, q)]  # = lambda + mu * value at the maximum
        slope = (ratio[-1] - ratio[0]) / (values[-1] - values[0])
        for v, r in zip(values, ratio):
            assert r == pytest.approx(ratio[0] + slope * (v - values[0]), rel=1e-9)
        qs.append(q)
    expected = total * sum(a * math.log(b / c) for a, c, b in zip(p, *qs))
    assert llr_logistic(elo0, elo1, counts) == pytest.approx(expected, rel=1e-12)
    if len(counts) == 5:
        assert Sprt(elo0, elo1).llr_pentanomial(counts) == pytest.approx(expected, rel=1e-12)


def test_pentanomial_llr_pinned_and_decisions() -> None:
    assert Sprt(0, 5).llr_pentanomial([10, 20, 40, 22, 12]) == pytest.approx(0.1037620, abs=1e-6)
    assert Sprt(0, 5).llr_pentanomial([0, 0, 0, 0, 0]) == 0.0
    assert Sprt(-3, 1).status_pentanomial([10789, 19328, 33806, 19402, 10543]).llr == pytest.approx(2.131068, 1e-6)
    win = Sprt(0, 10).status_pentanomial([10, 40, 100, 80, 40])
    assert win.decision == "H1" and win.llr >= win.upper
    lose = Sprt(0, 10).status_pentanomial([40, 80, 100, 40, 10])
    assert lose.decision == "H0" and lose.llr <= lose.lower
    # symmetric results, symmetric hypotheses: no evidence either way
    assert Sprt(-5, 5).llr_pentanomial([3, 7, 20, 7, 3]) == pytest.approx(0, abs=1e-9)
