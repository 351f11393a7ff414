"""Build hook: ``pip install .`` compiles the rules core and the search with mypyc.

The modules in ``COMPILED_MODULES`` (same Python source) become C extension modules
when mypyc and a C compiler are available. Otherwise the install still succeeds, as
pure Python, and one warning line says why:

- ``ALICE_ENGINE_PURE=1`` (pure on purpose; an editable install, ``pip install -e``,
  is pure too, silently: the checkout's ``.py`` files must stay the code that runs);
- mypyc cannot be imported, or it rejects the code;
- no C compiler, or the C compile fails (``CC=false pip install .``).

pip hides a build's output unless ``-v``, so the line goes to the terminal (``/dev/tty``)
when there is one; with none (CI, a pipe) it is a ``UserWarning``, which pip 26.3 and
newer show anyway (older ones with ``-v``). ``alice-engine --version`` tells which build
is installed (``engine/build.py``).
"""

from __future__ import annotations

import ast
import glob
import os
import re
import shutil
import sys
import warnings

from setuptools import Distribution, Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

# Hot modules, compiled together into one mypyc group. engine/board.py (the python-chess
# subclass), engine/build.py, search/thinker.py (the thread facade), search/workers.py and
# search/helper.py (the helper processes), search/skill.py, gui/,
# uci/, problems/ but its solver, tablebase/ but its hot loops (retro.py), and alice_match
# stay interpreted.
COMPILED_MODULES = [
    "engine/bits.py",
    "engine/tables.py",
    "engine/position.py",
    "engine/movegen.py",
    "engine/fen.py",
    "engine/notation.py",
    "engine/perft.py",
    "search/search.py",
    "search/tree.py",
    "search/history.py",
    "search/movepick.py",
    "search/see.py",
    "search/clock.py",
    "search/evalcache.py",
    "search/score.py",
    "search/mate.py",
    "search/evaluate.py",
    "search/tt.py",
    "search/sharedtt.py",
    "search/timeman.py",
    "search/limits.py",
    "search/bench.py",
    "problems/solver.py",
    "tablebase/retro.py",
]
PURE_ENV = "ALICE_ENGINE_PURE"  # set to anything but "" or "0" to install pure Python
TUNE_ENV = "ALICE_ENGINE_TUNE"  # set (not "" or "0"): a compiled tuning build (docs/tuning.md)
TUNE_SOURCES = os.path.join("build", "tune-src")  # the tuning build's rewritten copy of the compiled packages
# The modules whose number constants a tuning build keeps as module variables (search/tuning.py).
TUNED_MODULES = ("search/tree.py", "search/evaluate.py", "search/score.py", "search/search.py",
                 "search/timeman.py", "search/movepick.py", "search/history.py", "search/see.py")
EDITABLE_COMMANDS = ("editable_wheel", "develop")  # setuptools commands of `pip install -e`
BUILD_COMMANDS = ("bdist_wheel", "build", "build_ext", "install")  # the ones that compile
WARNING_PREFIX = "alice-engine:"  # starts the one warning line of a pure fallback
# mypy options of the compiled build: engine.bits.COMPILED is true there, so mypyc compiles
# only the native branches.
MYPY_OPTIONS = ["--always-true=COMPILED"]


def warn(reason: str) -> None:
    """One warning line the installing user sees (see the module docstring)."""
    line = f"{WARNING_PREFIX} {reason}; installing the pure Python build (slower, same moves)"
    try:
        with open("/dev/tty", "w") as tty:  # pip hides a build's output, not the terminal
            tty.write(f"\nWARNING: {line}\n")  # on a line of its own, past pip's spinner
    except OSError:  # no terminal (CI, a pipe): a recent pip still shows a build's warnings
        warnings.warn(line, stacklevel=2)


def pure_on_purpose() -> bool:
    """``ALICE_ENGINE_PURE`` is set (to anything but "" or "0")."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def tuning_build() -> bool:
    """``ALICE_ENGINE_TUNE`` is set: the tuned constants stay variables (slower; ALICE_TUNE works)."""
    return os.environ.get(TUNE_ENV, "") not in ("", "0")


# A top-level ``NAME: Final = ...`` (or ``Final[tuple[...]]``, ``Final[i64]``) line of a tuned module.
FINAL_LINE = re.compile(r"^([A-Z][A-Z0-9_]*): Final(?:\[(tuple\[[^=]*\]|i64)\])? = (.*)$")
DERIVED_TABLES = ("LMR", "CAPTURE_GAIN", "SEE_VALUE", "PROMOTION_GAIN")  # rebuilt by search/tuning.py
TUNABLE_MARK = "TUNABLE_BUILD = 1  # search.tuning: a compiled build whose tuned constants are variables\n"


def fixed_names() -> frozenset[str]:
    """``search.tuning.FIXED`` (the structure constants), read from its source."""
    with open(os.path.join("search", "tuning.py"), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "FIXED":
            assert isinstance(node.value, ast.Call)
            return frozenset(ast.literal_eval(node.value.args[0]))
    raise RuntimeError("search/tuning.py has no FIXED")


def tunable_line(line: str, fixed: frozenset[str]) -> str:
    """A tuned constant's line without ``Final`` (a module variable, which ALICE_TUNE can set)."""
    match = FINAL_LINE.match(line)
    if not match:
        return line
    name, kind, rest = match.groups()
    derived = name in DERIVED_TABLES
    if not derived and (name in fixed or name.startswith("STAGE_") or not re.match(r"[-(0-9.]", rest)):
        return line
    annotation = ": int" if kind == "i64" else f": {kind}" if kind else ""
    return f"{name}{annotation} = {rest}\n"


def write_tunable_sources(modules: list[str], into: str) -> list[str]:
    """The tuning build's sources: the compiled modules' packages (engine/, search/, problems/)
    copied into ``into``, the tuned modules' number constants (and the tables made from them)
    no longer ``Final``; their paths there."""
    if os.path.isdir(into):
        shutil.rmtree(into)
    fixed = fixed_names()
    for package in sorted({module.split("/")[0] for module in modules}):
        os.makedirs(os.path.join(into, package))
        for path in glob.glob(os.path.join(package, "*.py")):
            with open(path, encoding="utf-8") as f:
                lines = f.readlines()
            if path.replace(os.sep, "/") in TUNED_MODULES:
                lines = [tunable_line(line, fixed) for line in lines]
            if path.replace(os.sep, "/") == "search/tree.py":
                lines.append(TUNABLE_MARK)
            with open(os.path.join(into, path), "w", encoding="utf-8") as f:
                f.writelines(lines)
    return [os.path.join(into, m) for m in modules]


def editable_install() -> bool:
    """``pip install -e``: the checkout's ``.py`` files must stay the code that runs."""
    return any(cmd in sys.argv for cmd in EDITABLE_COMMANDS)


def first_line(error: BaseException) -> str:
    text = str(error).strip()
    return (text.splitlines() or [type(error).__name__])[0][:200]


class MaybeCompiledDistribution(Distribution):
    """Declares extension modules (a platform wheel, ``build_ext`` runs) unless pure is asked for."""

    def has_ext_modules(self) -> bool:
        return not (pure_on_purpose() or editable_install())


class CleanBuildPy(build_py):
    """Start from an empty build directory so no extension of an earlier build leaks into this one."""

    def run(self) -> None:
        if pure_on_purpose():
            warn(f"{PURE_ENV} is set")
        if os.path.isdir(self.build_lib):
            shutil.rmtree(self.build_lib)
        super().run()


class OptionalMypycBuildExt(build_ext):
    """mypyc-compile ``COMPILED_MODULES``; on any failure, warn and leave the pure modules."""

    def finalize_options(self) -> None:
        self.distribution.ext_modules = self._mypyc_extensions()
        super().finalize_options()

    def _mypyc_extensions(self) -> list[Extension]:
        if pure_on_purpose() or editable_install():
            return []
        if not any(cmd in sys.argv for cmd in BUILD_COMMANDS):
            return []  # metadata only (egg_info, dist_info also finalize build_ext): no need for C
        try:
            from mypyc.build import mypycify
        except Exception as error:  # not installed, or broken
            warn(f"mypyc is not available ({first_line(error)})")
            return []
        modules = COMPILED_MODULES
        if tuning_build():
            modules = write_tunable_sources(COMPILED_MODULES, TUNE_SOURCES)
        try:
            return list(mypycify([*MYPY_OPTIONS, *modules], opt_level="3"))
        except SystemExit as error:  # mypy printed type errors, then exited
            why = error.code if isinstance(error.code, str) else "type errors"
            warn(f"mypyc could not compile the code ({why}; pip install -v shows them)")
            return []
        except Exception as error:
            warn(f"mypyc could not compile the code ({first_line(error)})")
            return []

    def run(self) -> None:
        try:
            super().run()
        except (Exception, SystemExit) as error:  # no compiler, CC=false, missing headers, ...
            extensions: list[Extension] = self.extensions
            for ext in extensions:  # a partial build must not be installed
                path = self.get_ext_fullpath(ext.name)
                if os.path.exists(path):
                    os.remove(path)
            extensions.clear()
            compiler = (getattr(self.compiler, "compiler_so", None) or ["the C compiler"])[0]
            warn(f"the C compile failed ({compiler}: {type(error).__name__}; pip install -v shows why)")


setup(
    distclass=MaybeCompiledDistribution,
    cmdclass={"build_ext": OptionalMypycBuildExt, "build_py": CleanBuildPy},
)
