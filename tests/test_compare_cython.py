"""scripts/compare_cython.py, the parts that need no Cython (it is no dependency of the
project): the module list it reads from setup.py, the source it pastes into the inlined
variant, and the .pxd files still matching search/evaluate.py."""

from __future__ import annotations

import ast
import os
import re
import shutil
from pathlib import Path

import compare_cython

ROOT = Path(compare_cython.ROOT)
PXD_DIR = Path(compare_cython.PXD_DIR)


def test_the_modules_are_setup_pys_and_include_the_measured_one() -> None:
    modules = compare_cython.compiled_modules()
    assert compare_cython.CYTHON_MODULE in modules
    assert "engine/movegen.py" in modules and "search/tree.py" in modules
    assert all((ROOT / m).is_file() for m in modules)


def test_function_sources_takes_the_compiled_branch() -> None:
    text = compare_cython.function_sources(str(ROOT / "engine/bits.py"), ["popcount", "bit_length"])
    tree = ast.parse(text)  # dedented: a module of two top-level functions
    assert [f.name for f in tree.body if isinstance(f, ast.FunctionDef)] == ["popcount", "bit_length"]
    assert "_PAIRS" in text and "int.bit_count" not in text  # the SWAR branch, not the pure one's alias


def test_the_inlined_module_parses_and_imports_no_callee(tmp_path: Path) -> None:
    for rel in ["search/evaluate.py", *(m for m, _ in compare_cython.INLINED_SOURCES)]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / rel, tmp_path / rel)
    compare_cython.inline_callees(str(tmp_path), "search/evaluate.py")
    tree = ast.parse((tmp_path / "search/evaluate.py").read_text())
    defined = {f.name for f in tree.body if isinstance(f, ast.FunctionDef)}
    pasted = {name for _, names in compare_cython.INLINED_SOURCES for name in names}
    assert pasted | {"i64_buffer", "evaluate", "_eval", "_side"} <= defined
    imported = {a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom) for a in n.names}
    assert not imported & (pasted | {"i64_buffer"})


def _pxd_functions(pxd: Path) -> set[str]:
    """The functions ``pxd`` declares (``cdef``/``cpdef`` lines with a parameter list)."""
    return set(re.findall(r"^c(?:p)?def (?:\([^)]*\) |[\w ]+ )(\w+)\(", pxd.read_text(), re.M))


def test_every_function_a_pxd_declares_is_defined_in_evaluate() -> None:
    tree = ast.parse((ROOT / compare_cython.CYTHON_MODULE).read_text())
    defined = {f.name for f in tree.body if isinstance(f, ast.FunctionDef)}
    plain = _pxd_functions(PXD_DIR / "search/evaluate.pxd")
    assert {"evaluate", "_eval", "_side", "_hanging"} <= plain <= defined
    pasted = {name for _, names in compare_cython.INLINED_SOURCES for name in names}
    assert _pxd_functions(PXD_DIR / "search/evaluate_inlined.pxd") <= defined | pasted


def test_no_pxd_is_beside_the_shipped_modules() -> None:
    """The normal build is mypyc only: a .pxd beside a module would be Cython's to read."""
    found = [os.path.join(d, f) for p in ("engine", "search") for d, _, fs in os.walk(ROOT / p) for f in fs if f.endswith(".pxd")]
    assert found == []
