"""No import cycle among the project's modules (``engine``, ``search``, ``uci``, ``gui``,
``alice_match``), counting imports inside functions: a function-local import that dodges a
cycle at load time is still a cycle in the design.

The imports are read from the sources with ``ast``. An import names the most specific
project module it reaches (``from engine import movegen`` -> ``engine.movegen``; ``from
engine.tables import KING`` -> ``engine.tables``); a package's ``__init__`` is the module
named by the package, and ``from engine import movegen`` reaches both ``engine.movegen`` and
``engine`` (it reads the package's namespace, so a module of ``engine`` that does this while
``engine/__init__`` imports it closes a cycle: import siblings as ``from engine.movegen import
...``). Imports under ``if TYPE_CHECKING:`` are left out: they are never run
and only name types (``engine.movegen``'s functions take a ``Position``).
"""

from __future__ import annotations

import ast
import os
import pathlib
import re
from collections.abc import Iterator

from support.installed import ROOT

# Package name -> its folder in the checkout.
PACKAGES = {
    "engine": "engine",
    "search": "search",
    "uci": "uci",
    "gui": "gui",
    "problems": "problems",
    "tablebase": "tablebase",
    "alice_match": os.path.join("scripts", "alice_match"),
}
# Cycles in packages other engineers own, marked here until they are fixed there: each one as
# the sorted tuple of the modules on it, with why it is tolerated. Empty: none known.
KNOWN_CYCLES: dict[tuple[str, ...], str] = {}


def project_modules() -> dict[str, str]:
    """Module name -> source path, for every module of the packages."""
    modules: dict[str, str] = {}
    for package, folder in PACKAGES.items():
        base = os.path.join(ROOT, folder)
        for dirpath, _, files in os.walk(base):
            for name in files:
                if not name.endswith(".py"):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, name), base)[:-3].split(os.sep)
                if rel[-1] == "__init__":
                    rel = rel[:-1]
                modules[".".join([package, *rel])] = os.path.join(dirpath, name)
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, at module level or in a function or class, except under
    ``if TYPE_CHECKING:``."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def imports_of(module: str, path: str, modules: dict[str, str]) -> set[str]:
    """The project modules that ``module`` (source ``path``) imports."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
    found: set[str] = set()
    for node in _import_nodes(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*parts, base] if base else parts)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
            # ``from engine import movegen`` reads the package ``engine`` too: its ``__init__`` runs
            # first and the name is looked up in it (half-initialised when a module of the package
            # does this while ``engine/__init__`` imports it).
            if base in modules:
                targets.append(base)
        for target in targets:
            # The most specific project module the name reaches.
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != module:
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = project_modules()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[tuple[str, ...]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(tuple(sorted(component)))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def test_the_walk_sees_the_imports_it_must() -> None:
    """The walk finds module-level, function-local and relative imports, and skips type-only ones."""
    graph = import_graph()
    assert "engine.movegen" in graph["engine.position"]  # from engine.movegen import ...
    assert "engine" in graph["uci.shared"]  # from engine import Position
    assert {"search", "search.skill"} <= graph["search.thinker"]  # from search import skill
    assert "engine.position" in graph["search.tree"]
    assert "engine.position" not in graph["engine.movegen"]  # only under TYPE_CHECKING
    assert "gui.cli" in graph["uci.__main__"]  # imported inside main()
    assert len([m for m in graph if m.startswith("alice_match.")]) > 5


def test_a_package_namespace_import_from_inside_closes_a_cycle(tmp_path: pathlib.Path) -> None:
    """``engine`` -> ``engine.perft`` -> ``engine.position`` -> ``engine``: a module of a package
    that imports a sibling through the package (``from pkg import b``) while the package's
    ``__init__`` imports it is a cycle; ``from pkg.b import f`` is not."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from pkg.a import f\n")
    (package / "b.py").write_text("def g() -> None: ...\n")
    modules = {"pkg": str(package / "__init__.py"), "pkg.a": str(package / "a.py"), "pkg.b": str(package / "b.py")}
    (package / "a.py").write_text("from pkg import b\n")
    graph = {name: imports_of(name, path, modules) for name, path in modules.items()}
    assert cycles(graph) == [("pkg", "pkg.a")]
    (package / "a.py").write_text("from pkg.b import g\n")
    graph = {name: imports_of(name, path, modules) for name, path in modules.items()}
    assert cycles(graph) == []


def test_cycles_are_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [("a", "b", "c")]


def test_no_import_cycle() -> None:
    found = cycles(import_graph())
    unexpected = [c for c in found if c not in KNOWN_CYCLES]
    assert unexpected == [], f"import cycles: {unexpected}"
    gone = [c for c in KNOWN_CYCLES if c not in found]
    assert gone == [], f"fixed, remove from KNOWN_CYCLES: {gone}"


# ---------------------------------------------------------------- the picture in the docs
ARCHITECTURE = os.path.join(ROOT, "docs", "architecture.md")
PICTURE_LINE = re.compile(r"^([a-z_]+(?:\.[a-z_]+)?)\s+->\s+(.*)$")


def documented_picture() -> dict[str, set[str]]:
    """The dependency lines of docs/architecture.md: ``name -> a, b`` (text in parentheses is
    a remark: ``(nothing of ours)`` names no import)."""
    picture: dict[str, set[str]] = {}
    with open(ARCHITECTURE, encoding="utf-8") as f:
        for line in f:
            match = PICTURE_LINE.match(line.strip())
            if match:
                targets = re.sub(r"\(.*?\)", "", match.group(2))
                picture[match.group(1)] = {t.strip() for t in targets.split(",") if t.strip()}
    return picture


def derived_picture(graph: dict[str, set[str]], documented: set[str]) -> dict[str, set[str]]:
    """For each documented name: a package -> the other packages its modules import; a module ->
    the modules of its own package it imports (the package's ``__init__`` is no sibling module:
    the cycle test watches it)."""
    derived: dict[str, set[str]] = {}
    for name in documented:
        if name in PACKAGES:
            targets = {t.split(".")[0] for m, ts in graph.items() if m.split(".")[0] == name for t in ts}
            derived[name] = targets - {name}
        else:
            package = name.split(".")[0]
            derived[name] = {t for t in graph[name] if t.split(".")[0] == package and t != package}
    return derived


def test_the_documented_picture_is_true() -> None:
    """docs/architecture.md's dependency lines name exactly the imports in the sources, for every
    package and for every module of engine/ and search/."""
    documented = documented_picture()
    graph = import_graph()
    must = set(PACKAGES) | {m for m in graph if m.split(".")[0] in ("engine", "search") and "." in m}
    must -= {"engine.__init__", "search.__init__"}
    assert must <= set(documented), f"not in the picture: {sorted(must - set(documented))}"
    assert derived_picture(graph, set(documented)) == documented


# ---------------------------------------------------------------- the web board's ES modules
STATIC = os.path.join(ROOT, "gui", "static")
# ``import ... from "./x.js"``, ``import "./x.js"``, ``export ... from "./x.js"`` and ``import("./x.js")``.
JS_IMPORT = re.compile(r"""(?:\bimport\s*(?:[\w*{}\s,$]+\s*from\s*)?|\bexport\s+[\w*{}\s,$]+\s*from\s*|\bimport\s*\(\s*)["'](\.{1,2}/[^"']+)["']""")


def js_import_graph(folder: str) -> dict[str, set[str]]:
    """File name -> the files it imports, for every ``.js`` module in ``folder`` (relative
    specifiers only: the page loads nothing else)."""
    graph: dict[str, set[str]] = {}
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".js"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            source = f.read()
        targets = {os.path.normpath(spec).replace(os.sep, "/") for spec in JS_IMPORT.findall(source)}
        graph[name] = {t for t in targets if t != name}
    return graph


def test_the_js_walk_sees_every_kind_of_import(tmp_path: pathlib.Path) -> None:
    (tmp_path / "a.js").write_text('import { x, y } from "./b.js";\nimport "./c.js";\nexport { z } from "./d.js";\n')
    (tmp_path / "b.js").write_text('const m = await import("./a.js");\n// "./e.js" in a comment is no import\n')
    (tmp_path / "c.js").write_text("import * as all from './b.js';\n")
    (tmp_path / "d.js").write_text("export const z = 1;\n")
    graph = js_import_graph(str(tmp_path))
    assert graph == {"a.js": {"b.js", "c.js", "d.js"}, "b.js": {"a.js"}, "c.js": {"b.js"}, "d.js": set()}
    assert cycles(graph) == [("a.js", "b.js", "c.js")]


def test_no_import_cycle_among_the_web_board_modules() -> None:
    """The page's ES modules (gui/static) import one another without a cycle: a module shared
    by two others holds what they share (view.js: the flipped board, the preview)."""
    graph = js_import_graph(STATIC)
    assert {"api.js", "boards.js", "view.js"} <= graph["app.js"]  # the walk sees the entry's imports
    assert cycles(graph) == [], f"import cycles in gui/static: {cycles(graph)}"


# ---------------------------------------------------------------- scripts stand alone
SCRIPTS = os.path.join(ROOT, "scripts")
TESTS = os.path.join(ROOT, "tests")
# What an engine process is started with; the one UCI client (alice_match.uci_process) may.
ENGINE_PROCESS_CALLS = {"Popen", "create_subprocess_exec", "create_subprocess_shell", "popen_uci", "SimpleEngine"}
UCI_CLIENT = os.path.join(SCRIPTS, "alice_match", "uci_process.py")


def python_files(folder: str) -> list[str]:
    return sorted(
        os.path.join(dirpath, name) for dirpath, _, names in os.walk(folder) for name in names if name.endswith(".py")
    )


def test_scripts_import_nothing_from_tests() -> None:
    """A script runs from a checkout or an install without tests/: it imports no module of
    tests/ (``support``, a ``test_*`` module, ``conftest``, ``tests``) and puts no tests folder
    on ``sys.path``."""
    test_modules = {"support", "tests", "conftest", "engines"} | {
        name[:-3] for name in os.listdir(TESTS) if name.startswith("test_") and name.endswith(".py")
    }
    found: list[str] = []
    for path in python_files(SCRIPTS):
        with open(path, encoding="utf-8") as f:
            source = f.read()
        where = os.path.relpath(path, ROOT)
        for node in _import_nodes(ast.parse(source, path)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            if node.__class__ is ast.ImportFrom and node.level:
                continue  # relative: inside its own package
            found += [f"{where}: imports {n}" for n in names if n.split(".")[0] in test_modules]
        if re.search(r"""sys\.path.*["']tests["']""", source):
            found.append(f"{where}: puts tests/ on sys.path")
    assert found == [], found


def test_only_the_uci_client_starts_engine_processes() -> None:
    """scripts/ drives engine processes through one client, ``alice_match.uci_process`` (the
    web board uses python-chess's ``chess.engine``): no other module of scripts/ starts a
    process with a pipe to talk to (``subprocess.Popen``, asyncio's subprocesses, python-chess's
    ``popen_uci``/``SimpleEngine``); ``subprocess.run`` of a finished command is no client."""
    found: list[str] = []
    for path in python_files(SCRIPTS):
        if path == UCI_CLIENT:
            continue
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        for node in ast.walk(tree):
            name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
            if name in ENGINE_PROCESS_CALLS:
                found.append(f"{os.path.relpath(path, ROOT)}:{node.lineno}: {name}")
    assert found == [], found
