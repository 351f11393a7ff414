"""The shape rules of the developers' guide, checked on the sources: no function longer than
120 lines (``engine/``, ``search/``, ``uci/``, ``gui/``, ``scripts/``, and the web board's
JavaScript in ``gui/static``); every exception class of
``engine``, ``search`` and ``uci`` named ``*Error``; every upper-case module constant of
``search/`` and ``uci/`` (the tunables among them) a ``Final``. Import cycles:
``tests/test_imports.py``.
"""

from __future__ import annotations

import ast
import importlib
import os
import re
from collections.abc import Iterator

import pytest

from support.installed import ROOT

MAX_FUNCTION_LINES = 120  # the guide's limit, decorators and docstring included
LENGTH_FOLDERS = ("engine", "search", "uci", "gui", "scripts")
ERROR_PACKAGES = ("engine", "search", "uci")
FINAL_PACKAGES = ("search", "uci")
CONSTANT = re.compile(r"[A-Z][A-Z0-9_]*")


def sources(folder: str) -> Iterator[str]:
    """Every ``.py`` file under ``folder`` of the checkout."""
    for dirpath, _, files in os.walk(os.path.join(ROOT, folder)):
        for name in sorted(files):
            if name.endswith(".py"):
                yield os.path.join(dirpath, name)


def parse(path: str) -> ast.Module:
    with open(path, encoding="utf-8") as f:
        return ast.parse(f.read(), path)


def long_functions(tree: ast.AST, limit: int) -> list[tuple[str, int]]:
    """(name, lines) of every function or method (nested ones too) longer than ``limit`` lines,
    counted from its first decorator to its last line."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            lines = (node.end_lineno or node.lineno) - first + 1
            if lines > limit:
                found.append((node.name, lines))
    return found


def test_long_functions_are_found() -> None:
    tree = ast.parse("class A:\n    @staticmethod\n    def f():\n        def g():\n            pass\n        return g\n")
    assert long_functions(tree, 4) == [("f", 5)]
    assert long_functions(tree, 1) == [("f", 5), ("g", 2)]
    assert long_functions(tree, 5) == []


@pytest.mark.parametrize("folder", LENGTH_FOLDERS)
def test_no_function_over_the_limit(folder: str) -> None:
    too_long = [
        f"{os.path.relpath(path, ROOT)}: {name} ({lines} lines)"
        for path in sources(folder)
        for name, lines in long_functions(parse(path), MAX_FUNCTION_LINES)
    ]
    assert too_long == [], f"functions over {MAX_FUNCTION_LINES} lines: {too_long}"


# A JavaScript function's first line: a declaration, or an arrow function's body opening.
JS_FUNCTION = re.compile(r"\bfunction\b[^(]*\(.*\{\s*$|=>\s*\{\s*$")
JS_NOISE = re.compile(r"//.*$|\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`")  # comments, strings


def long_js_functions(source: str, limit: int) -> list[tuple[int, int]]:
    """(first line, lines) of every JavaScript function (nested ones too) longer than ``limit``
    lines: from the line that opens its body to the line where its braces close (braces in
    strings and ``//`` comments not counted; the web board's code has no block comments inside
    functions)."""
    lines = [JS_NOISE.sub("", line) for line in source.splitlines()]
    found = []
    for start, line in enumerate(lines):
        if not JS_FUNCTION.search(line):
            continue
        depth = 0
        for end in range(start, len(lines)):
            depth += lines[end].count("{") - lines[end].count("}")
            if depth <= 0:
                break
        if end - start + 1 > limit:
            found.append((start + 1, end - start + 1))
    return found


def test_long_js_functions_are_found() -> None:
    source = 'export function f(a) {\n  const s = "}";\n  a.forEach((x) => {\n    g(x);\n  });\n}\n'
    assert long_js_functions(source, 5) == [(1, 6)]
    assert long_js_functions(source, 2) == [(1, 6), (3, 3)]
    assert long_js_functions(source, 6) == []


def test_no_js_function_over_the_limit() -> None:
    folder = os.path.join(ROOT, "gui", "static")
    too_long = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".js"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                too_long += [f"{name}:{line} ({n} lines)" for line, n in long_js_functions(f.read(), MAX_FUNCTION_LINES)]
    assert too_long == [], f"functions over {MAX_FUNCTION_LINES} lines: {too_long}"
    assert long_js_functions("function wired() {\n" + "  x();\n" * 200 + "}\n", MAX_FUNCTION_LINES) == [(1, 202)]


def module_names(package: str) -> Iterator[str]:
    for path in sources(package):
        rel = os.path.relpath(path, ROOT)[:-3].split(os.sep)
        yield ".".join(rel[:-1] if rel[-1] == "__init__" else rel)


@pytest.mark.parametrize("package", ERROR_PACKAGES)
def test_exception_classes_end_in_error(package: str) -> None:
    """Every exception class a module of the package defines (the installed build's, compiled
    classes included) is named ``...Error``."""
    defined = []
    for name in module_names(package):
        module = importlib.import_module(name)
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, BaseException) and value.__module__ == name:
                defined.append(f"{name}.{value.__qualname__}")
    assert defined, "the walk found no exception class at all"
    assert [d for d in defined if not d.endswith("Error")] == []


def plain_constants(tree: ast.Module) -> list[str]:
    """Upper-case names bound at module level without a ``Final`` annotation."""
    found = []
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets = [t for target in node.targets for t in (target.elts if isinstance(target, ast.Tuple) else [target])]
            found += [t.id for t in targets if isinstance(t, ast.Name) and CONSTANT.fullmatch(t.id)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if CONSTANT.fullmatch(node.target.id) and "Final" not in ast.unparse(node.annotation):
                found.append(node.target.id)
    return found


def test_plain_constants_are_found() -> None:
    tree = ast.parse("A = 1\nB: Final = 2\nC, D = 3, 4\nE: int = 5\n_f = 6\nF: Final[int] = 7\ndef g():\n    H = 8\n")
    assert plain_constants(tree) == ["A", "C", "D", "E"]


@pytest.mark.parametrize("package", FINAL_PACKAGES)
def test_module_constants_are_final(package: str) -> None:
    plain = [
        f"{os.path.relpath(path, ROOT)}: {name}" for path in sources(package) for name in plain_constants(parse(path))
    ]
    assert plain == []
