"""The SPSA tuner (``python scripts/tune spsa``) and the engine side it drives (``ALICE_TUNE``).

The schedule is fishtest's (a, c, A on a worked example), the update moves θ toward the
optimum of a synthetic objective (a game runner replaced by a function), a resumed run is
the uninterrupted one, θ and the played values stay within bounds, the engine plays the values
it is given (bench's node count moves; unset, it is the signature), and one real step plays
through alice-match."""

from __future__ import annotations

import json
import os
import random
import re
import runpy
import signal
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from search.score import PIECE_VALUE
from search.tuning import TuneError, apply, current_value, parse_assignments
from support.installed import CHILD_CWD, ROOT, default_sigint, engine_command, pure_sources
from test_bench import BENCH_SIGNATURE
from tune import spsa
from tune.spsa_games import AliceMatchRunner, MatchFailedError, MatchSettings, match_args
from tune.spsa_games import engine_command as tuned_command

TIMEOUT = 120  # seconds for one engine or tuner run
OPTIMUM = {"X": 150.0, "Y": -20.0}  # the synthetic objective's best θ ...
SCALE = {"X": 100.0, "Y": 40.0}  # ... and how far from it costs 200 Elo per parameter
RFP_130_NODES = 37763  # bench's node count with RFP_MARGIN=130 (pure build and compiled tuning build alike)
SYNTHETIC = "X,100,0,300,10,0.02\nY,0,-100,100,4,0.02\n"


def synthetic_elo(values: dict[str, float]) -> float:
    return -200 * sum(((values[n] - OPTIMUM[n]) / SCALE[n]) ** 2 for n in OPTIMUM)


def synthetic_runner(plus: dict[str, float], minus: dict[str, float], pairs: int, seed: int) -> spsa.Outcome:
    """Games drawn from the Elo difference of the two θ (seeded: the same step plays the same)."""
    rng = random.Random(seed)
    p_win = 1 / (1 + 10 ** (-(synthetic_elo(plus) - synthetic_elo(minus)) / 400))
    wins = sum(rng.random() < p_win for _ in range(2 * pairs))
    return spsa.Outcome(wins, 2 * pairs - wins, 0)


# ------------------------------------------------------------------------------ the schedule
def test_schedule_is_fishtests_on_a_worked_example() -> None:
    """1000 games: N = 500 pairs, A = int(0.1 * 1000 / 2) = 50; c = c_end N^gamma,
    a = r_end c_end^2 (A + N)^alpha; step k: c_k = c / (k+1)^gamma, R_k = a / (A+k+1)^alpha / c_k^2."""
    (param,) = spsa.parse_params("RFP_MARGIN,100,40,200,10,0.002")
    state = spsa.new_state([param], games=1000, seed=1)
    p = state.params[0]
    assert (state.iterations, state.big_a, state.alpha, state.gamma) == (500, 50, 0.602, 0.101)
    assert p.c == pytest.approx(18.7333, rel=1e-4)  # 10 * 500 ** 0.101, worked out by hand
    assert p.a == pytest.approx(8.92747, rel=1e-5)  # 0.002 * 10**2 * (50 + 500) ** 0.602, by hand
    first = spsa.perturbation(state)
    assert first.c[0] == pytest.approx(p.c) and first.r[0] == pytest.approx(p.a / 51**0.602 / p.c**2)
    state.k = 499  # the last pair: c_k is c_end, and R_k c_k is r_end c_end
    last = spsa.perturbation(state)
    assert last.c[0] == pytest.approx(10.0) and last.r[0] * last.c[0] == pytest.approx(0.002 * 10.0)


def test_a_ratio_alpha_gamma_are_options() -> None:
    (param,) = spsa.parse_params("P,0,-10,10,1,0.5")
    state = spsa.new_state([param], games=200, seed=1, a_ratio=0.5, alpha=0.7, gamma=0.2)
    assert state.big_a == 50 and state.params[0].c == pytest.approx(100**0.2)
    assert state.params[0].a == pytest.approx(0.5 * 150**0.7)


def test_update_rule_moves_by_result_times_flip() -> None:
    """θ += R_k c_k (wins - losses) flip, and k grows by the pairs played."""
    state = spsa.new_state(spsa.parse_params("A,50,0,100,5,0.01\nB,50,0,100,5,0.01"), games=100, seed=7)
    step = spsa.perturbation(state)
    spsa.update(state, step, spsa.Outcome(wins=3, losses=1, draws=2))
    for p, c, r, flip in zip(state.params, step.c, step.r, step.flips):
        assert p.theta == pytest.approx(50 + r * c * 2 * flip)
        assert step.plus[p.name] == pytest.approx(50 + c * flip) and step.minus[p.name] == pytest.approx(50 - c * flip)
    assert (state.k, state.steps) == (3, 1)


# ------------------------------------------------------------------------------ the algorithm
@pytest.mark.parametrize("seed", range(4))
def test_spsa_moves_theta_toward_the_optimum(seed: int) -> None:
    """Start 50 and 20 away from the optimum of a synthetic Elo; 2000 pairs end much nearer."""
    state = spsa.new_state(spsa.parse_params(SYNTHETIC), games=4000, seed=seed)
    spsa.run(state, synthetic_runner, pairs=4, say=lambda line: None)
    x, y = (p.theta for p in state.params)
    assert abs(x - OPTIMUM["X"]) < 25 and abs(y - OPTIMUM["Y"]) < 10, (x, y)
    assert state.done and state.k == 2000 and state.steps == 500


def test_a_resumed_run_is_the_uninterrupted_one(tmp_path: Path) -> None:
    """Stopped after 7 steps and resumed from the state file: the same lines and the same θ."""
    whole: list[str] = []
    uninterrupted = spsa.new_state(spsa.parse_params(SYNTHETIC), games=60, seed=5)
    spsa.run(uninterrupted, synthetic_runner, pairs=2, say=whole.append)
    path = str(tmp_path / "state.json")
    parts: list[str] = []
    first = spsa.new_state(spsa.parse_params(SYNTHETIC), games=60, seed=5)
    spsa.run(first, synthetic_runner, pairs=2, state_path=path, say=parts.append, max_steps=7)
    assert not first.done and len(parts) == 7
    resumed = spsa.load_state(path)
    spsa.run(resumed, synthetic_runner, pairs=2, state_path=path, say=parts.append)
    assert parts == whole
    assert spsa.to_json(resumed) == spsa.to_json(uninterrupted) == json.loads(Path(path).read_text())
    assert not [name for name in os.listdir(tmp_path) if name != "state.json"]  # no temporary file left


def test_theta_and_the_played_values_stay_within_bounds() -> None:
    """A runner where θ+ always wins pushes θ along the flips: never past min or max."""

    def plus_wins(plus: dict[str, float], minus: dict[str, float], pairs: int, seed: int) -> spsa.Outcome:
        for values in (plus, minus):
            assert 0 <= values["A"] <= 10 and -5 <= values["B"] <= 5
        return spsa.Outcome(2 * pairs, 0, 0)

    state = spsa.new_state(spsa.parse_params("A,9,0,10,3,5\nB,-4,-5,5,3,5"), games=200, seed=2)
    seen = set()
    while not state.done:
        spsa.play_step(state, plus_wins, pairs=1)
        a, b = (p.theta for p in state.params)
        assert 0 <= a <= 10 and -5 <= b <= 5
        seen.add((a, b))
    assert {a for a, _ in seen} & {0.0, 10.0} and {b for _, b in seen} & {-5.0, 5.0}  # the bounds were reached


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("A,1,0,2,1", "expected name,start,min,max,c_end,r_end"),
        ("A,1,2,0,1,0.1", "min 2 > max 0"),
        ("A,1,0,2,0,0.1", "c_end must be > 0"),
        ("A,1,0,2,1,-1", "r_end must be >= 0"),
        ("A,x,0,2,1,0.1", "start is no number"),
        ("A,nan,0,2,1,0.1", "start is not finite"),
        ("A,1,0,2,1,0.1\nA,1,0,2,1,0.1", "A given twice"),
        ("# only a comment\n\n", "no parameter line"),
    ],
)
def test_bad_parameter_files_are_one_clear_error(text: str, message: str) -> None:
    with pytest.raises(spsa.SpsaError, match=message):
        spsa.parse_params(text, "p.csv")


def test_a_foreign_state_file_is_refused(tmp_path: Path) -> None:
    for content in ("[1, 2]", '{"version": 1}', "not json"):
        path = tmp_path / "s.json"
        path.write_text(content)
        with pytest.raises(spsa.SpsaError, match=r"s\.json"):
            spsa.load_state(str(path))


def test_shipped_parameter_files_start_at_the_engines_defaults() -> None:
    """Every constant of the three shipped files exists, starts at its current value, within bounds."""
    for name in ("spsa_search.csv", "spsa_eval.csv", "spsa_time.csv"):
        params = spsa.parse_params(Path(ROOT, "scripts", "tune", name).read_text(), name)
        for p in params:
            assert p.start == current_value(p.name) and p.minimum < p.start < p.maximum, p.name
            assert 0 < p.c_end < (p.maximum - p.minimum) / 4, p.name


# ------------------------------------------------------------------------------ the engine side
def test_tune_assignments_are_checked_before_anything_changes() -> None:
    assert parse_assignments("A=1, B[2]=2.5,") == {"A": 1.0, "B[2]": 2.5}
    for text, message in (
        ("RFP_MARGIN", "expected NAME=VALUE"),
        ("RFP_MARGIN=x", "not a number"),
        ("RFP_MARGIN=inf", "not a finite number"),
    ):
        with pytest.raises(TuneError, match=message):
            parse_assignments(text)
    before = current_value("RFP_MARGIN")
    for values, message in (
        ({"RFP_MARGIN": 120.0, "NO_SUCH": 1.0}, "NO_SUCH is no number constant"),
        ({"RFP_MARGIN": 120.0, "MOB_FREE": 1.0}, "MOB_FREE is a table of 7 entries"),
        ({"RFP_MARGIN": 120.0, "MOB_FREE[9]": 1.0}, "MOB_FREE is a table"),
        ({"RFP_MARGIN[1]": 120.0}, "single number"),
        ({"MATE": 1.0}, "MATE is no number constant"),  # structure, not tuning
    ):
        with pytest.raises(TuneError, match=message):
            apply(values)
        assert current_value("RFP_MARGIN") == before  # nothing was set


def bench_nodes(command: list[str], cwd: str, env: dict[str, str], tune: str | None) -> subprocess.CompletedProcess[str]:
    env = dict(env)
    env.pop("ALICE_TUNE", None)
    if tune is not None:
        env["ALICE_TUNE"] = tune
    return subprocess.run([*command, "bench"], capture_output=True, text=True, cwd=cwd, env=env, timeout=TIMEOUT)


def nodes_of(done: subprocess.CompletedProcess[str]) -> int:
    assert done.returncode == 0, done.stderr
    return int(done.stdout.split("Nodes searched:")[1].split()[0])


def test_the_engine_plays_the_values_it_is_given(tmp_path: Path) -> None:
    """The pure engine (the checkout's sources, as the tuner runs them): unset, bench is the
    signature; a search margin, an LMR float, a piece value and an evaluation table entry
    each change the node count, and the default values given explicitly do not."""
    env = pure_sources(str(tmp_path))
    command = [sys.executable, "-m", "uci"]
    run = str(tmp_path)
    assert nodes_of(bench_nodes(command, run, env, None)) == BENCH_SIGNATURE
    assert nodes_of(bench_nodes(command, run, env, "RFP_MARGIN=100,LMR_BASE=0.75,PIECE_VALUE[2]=211")) == BENCH_SIGNATURE
    for tune in ("RFP_MARGIN=130", "LMR_BASE=1.0", "PIECE_VALUE[2]=300", "MOB_FREE[2]=12"):
        nodes = nodes_of(bench_nodes(command, run, env, tune))
        assert nodes != BENCH_SIGNATURE and (tune != "RFP_MARGIN=130" or nodes == RFP_130_NODES), (tune, nodes)


DERIVED_PROBE = """
import search.tree as t
before = list(t.LMR)
from search.tuning import apply_environment
apply_environment()
import search.evaluate as e, search.score as s, search.see as see, search.timeman as tm
print(s.PIECE_VALUE[5], e.PIECE_VALUE[5], t.PIECE_VALUE[5], see.SEE_VALUE[5], t.CAPTURE_GAIN[5], see.PROMOTION_GAIN)
print(t.RFP_MARGIN, tm.STABLE_SCALE[0], list(t.LMR) != before)
"""


def test_derived_tables_follow_and_ints_are_rounded(tmp_path: Path) -> None:
    """A piece value reaches every module that imported it and every table made from it (SEE,
    delta pruning, the promotion gain); LMR_BASE rebuilds the LMR table; an int constant takes a
    float value rounded, a float table entry takes it as it is."""
    env = pure_sources(str(tmp_path))
    env["ALICE_TUNE"] = "PIECE_VALUE[5]=1100,RFP_MARGIN=110.6,STABLE_SCALE[0]=1.75,LMR_BASE=1.0"
    done = subprocess.run([sys.executable, "-c", DERIVED_PROBE], capture_output=True, text=True, cwd=tmp_path, env=env,
                          timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr
    gain = 1100 - PIECE_VALUE[1]  # the promotion gain: the new queen less the pawn
    assert done.stdout.splitlines() == [f"1100 1100 1100 1100 1100 {gain}", "111 1.75 True"]


def test_a_bad_value_is_one_error_line_and_exit_2(tmp_path: Path) -> None:
    env = pure_sources(str(tmp_path))
    done = bench_nodes([sys.executable, "-m", "uci"], str(tmp_path), env, "RFP_MARGIN=oops")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == ["alice-engine: ALICE_TUNE: RFP_MARGIN: not a number: 'oops'"]


def test_the_installed_build_tunes_or_refuses() -> None:
    """The engine the tests use: a pure build or a compiled tuning build plays the value; a
    normal compiled one (constants built into its code) refuses the variable with one line
    rather than play the defaults silently."""
    probe = "from search.tuning import settable_build; print(settable_build())"
    settable = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=CHILD_CWD, timeout=TIMEOUT)
    assert settable.stdout.strip() in ("True", "False"), settable.stderr
    done = bench_nodes(engine_command(), CHILD_CWD, dict(os.environ), "RFP_MARGIN=130")
    if settable.stdout.strip() == "False":
        assert done.returncode == 2 and done.stdout == ""
        assert "ALICE_TUNE needs the pure Python build or a tuning build" in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
    else:
        assert nodes_of(done) == RFP_130_NODES  # the pure build's count: the same tree in every build


# ------------------------------------------------------------------------------ through alice-match
def test_match_args_start_each_engine_with_its_values() -> None:
    settings = MatchSettings(limit="nodes=100", engine="alice-engine", engine_dir=None, concurrency=2)
    args = match_args(settings, {"A": 1.5}, {"A": 0.5}, 3, 42)
    assert args[:4] == ["-engine", "cmd=env ALICE_TUNE=A=1.5 alice-engine", "name=plus", "-engine"]
    assert "cmd=env ALICE_TUNE=A=0.5 alice-engine" in args
    assert args[args.index("-rounds") + 1] == "3" and args[args.index("-srand") + 1] == "42"
    assert args[args.index("-concurrency") + 1] == "2"
    clustered = match_args(MatchSettings(cluster="local:2"), {}, {}, 1, 1)
    assert "-cluster" in clustered and "-concurrency" not in clustered
    assert tuned_command("e", {"MOB_FREE[2]": 11.0}) == "env 'ALICE_TUNE=MOB_FREE[2]=11' e"


def test_an_engine_refusing_its_values_stops_the_batch() -> None:
    """The values reach the engines: one that refuses them makes alice-match stop, an error."""
    runner = AliceMatchRunner(MatchSettings(limit="nodes=50"))
    with pytest.raises(MatchFailedError, match="alice-match"):
        runner({"NO_SUCH": 1.0}, {"NO_SUCH": 2.0}, 1, 1)


def run_tuner(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    script = os.path.join(ROOT, "scripts", "tune")
    return subprocess.run([sys.executable, script, "spsa", *args], capture_output=True, text=True, cwd=cwd, timeout=TIMEOUT)


def test_one_real_step_through_alice_match(tmp_path: Path) -> None:
    """`tune spsa` at 60 nodes a move: one pair of θ+ and θ- games, the state written, θ
    within bounds; the same command again resumes a finished run and plays nothing more."""
    params = tmp_path / "p.csv"
    params.write_text("RFP_MARGIN,100,40,200,8,0.002\nLMR_BASE,0.75,0.25,1.5,0.06,0.002\n")
    state = tmp_path / "s.json"
    done = run_tuner("--params", str(params), "--games", "2", "--tc", "nodes=60", "--state", str(state), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    steps = [line for line in done.stdout.splitlines() if line.startswith("step ")]
    assert len(steps) == 1 and "pairs 1/1" in steps[0]
    assert "ALICE_TUNE='RFP_MARGIN=" in done.stdout
    source = done.stdout.split("# search/tree.py\n")[1].splitlines()  # θ as source lines to paste
    assert re.match(r"RFP_MARGIN: Final = \d+  # ", source[0]) and re.match(r"LMR_BASE: Final = [\d.]+  # ", source[1])
    saved = spsa.load_state(str(state))
    assert saved.done and saved.wins + saved.losses + saved.draws == 2
    assert 40 <= saved.params[0].theta <= 200 and 0.25 <= saved.params[1].theta <= 1.5
    again = run_tuner("--state", str(state), "--tc", "nodes=60", cwd=tmp_path)
    assert again.returncode == 0 and "resuming" in again.stdout
    assert not [line for line in again.stdout.splitlines() if line.startswith("step ")]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "2"], "--params FILE is needed"),
        (["--params", "missing.csv"], "missing.csv"),
        (["--params", "p.csv", "--tc", "fast"], "bad time control"),
        (["--params", "bad.csv"], "NO_SUCH is no number constant"),
    ],
)
def test_tuner_errors_are_one_line_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    (tmp_path / "p.csv").write_text("RFP_MARGIN,100,40,200,8,0.002\n")
    (tmp_path / "bad.csv").write_text("NO_SUCH,1,0,2,1,0.002\n")
    done = run_tuner(*args, cwd=tmp_path)
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_ctrl_c_keeps_the_last_finished_step(tmp_path: Path) -> None:
    """Ctrl-C during a run: exit 130, one line naming the state file, the state at the last
    finished step (no temporary file left), and the same command continues from it."""
    params = tmp_path / "p.csv"
    params.write_text("RFP_MARGIN,100,40,200,8,0.002\n")
    state = tmp_path / "s.json"
    command = [sys.executable, os.path.join(ROOT, "scripts", "tune"), "spsa", "--params", str(params), "--games", "200",
               "--tc", "nodes=60", "--state", str(state)]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                          preexec_fn=default_sigint) as tuner:
        assert tuner.stdout is not None
        while not tuner.stdout.readline().startswith("step 1 "):
            assert tuner.poll() is None
        tuner.send_signal(signal.SIGINT)
        _, err = tuner.communicate(timeout=TIMEOUT)
    assert tuner.returncode == 130
    assert err.strip().splitlines() == [f"tune spsa: interrupted; {state} holds step {spsa.load_state(str(state)).steps}: "
                                        "the same command continues"]
    saved = spsa.load_state(str(state))
    assert 1 <= saved.steps == saved.k < 100
    assert sorted(os.listdir(tmp_path)) == ["p.csv", "s.json"]
    again = run_tuner("--state", str(state), "--tc", "nodes=60", "--steps", "1", cwd=tmp_path)
    assert again.returncode == 0 and f"step {saved.steps + 1} " in again.stdout
    assert spsa.load_state(str(state)).steps == saved.steps + 1


# ------------------------------------------------------------------------------ the compiled tuning build
SETUPTOOLS_MODULES = ("setuptools", "setuptools.command", "setuptools.command.build_ext", "setuptools.command.build_py")


def setup_module_functions(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """setup.py's functions, without setuptools (a stand-in whose setup() does nothing)."""
    stand_ins = {name: types.ModuleType(name) for name in SETUPTOOLS_MODULES}
    stand_ins["setuptools"].__dict__.update(Distribution=object, Extension=object, setup=lambda **kwargs: None)
    stand_ins["setuptools.command.build_ext"].__dict__.update(build_ext=object)
    stand_ins["setuptools.command.build_py"].__dict__.update(build_py=object)
    for name, module in stand_ins.items():
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.chdir(ROOT)
    return runpy.run_path(os.path.join(ROOT, "setup.py"), run_name="setup_under_test")


def test_tuning_build_sources_keep_the_tuned_constants_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """ALICE_ENGINE_TUNE=1's sources: every constant of the shipped parameter files loses
    ``Final`` (a module variable the compiled code reads at run time), the tables made from
    them too; structure constants, the picker's stages and the other modules stay as they are."""
    functions = setup_module_functions(monkeypatch)
    compiled = functions["COMPILED_MODULES"]
    paths = functions["write_tunable_sources"](compiled, str(tmp_path / "src"))
    assert [os.path.relpath(p, tmp_path / "src") for p in paths] == compiled and all(os.path.exists(p) for p in paths)
    text = {m: Path(tmp_path, "src", m).read_text() for m in compiled}
    for name in ("spsa_search.csv", "spsa_eval.csv", "spsa_time.csv"):
        for p in spsa.parse_params(Path(ROOT, "scripts", "tune", name).read_text(), name):
            base = p.name.split("[")[0]
            assert any(re.search(rf"^{base}(: tuple\[[^=]*\])? = ", t, re.M) for t in text.values()), base
    assert re.search(r"^LMR = i64_table", text["search/tree.py"], re.M)
    assert re.search(r"^PROMOTION_GAIN: int = ", text["search/see.py"], re.M)
    assert "\nTUNABLE_BUILD = 1" in text["search/tree.py"]
    assert re.search(r"^MATE: Final = 30000", text["search/score.py"], re.M)
    assert re.search(r"^STAGE_TT: Final = 0", text["search/movepick.py"], re.M)
    assert re.search(r"^ORDER_VALUE: Final = ", text["search/movepick.py"], re.M)
    for module in compiled:
        if module not in functions["TUNED_MODULES"]:
            assert text[module] == Path(ROOT, module).read_text(), module


def test_one_step_on_a_local_dask_cluster(tmp_path: Path) -> None:
    """`--cluster local:1`: the step's pair is played by a Dask worker (alice-match -cluster;
    the cluster extra, installed in CI's main venv)."""
    pytest.importorskip("distributed")
    params = tmp_path / "p.csv"
    params.write_text("RFP_MARGIN,100,40,200,8,0.002\n")
    state = tmp_path / "s.json"
    done = run_tuner("--params", str(params), "--games", "2", "--tc", "nodes=60", "--cluster", "local:1",
                     "--state", str(state), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    saved = spsa.load_state(str(state))
    assert saved.done and saved.steps == 1 and saved.wins + saved.losses + saved.draws == 2
