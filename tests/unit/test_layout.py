"""The layout's rules (DESIGN.md, "Layout"), read from the source with `ast`:

- import direction: app_pages -> ui -> (viz_core, lab -> models); cli -> (lab, models);
  (issue 34, "folders say what they hold") ui -> server -> (lab, models): server/ is what the
  server process keeps for all sessions, app.py (the server's entry) reads it too; recipes/
  (how the shipped checkpoints were made) -> (lab, models), run by cli/; support/ (helpers
  tests and benchmarks share) -> cli. Nothing in app_pages, ui, viz_core, lab or models
  imports recipes, support, benchmarks or tests, and benchmarks import no test code;
- models, lab and recipes import no streamlit, plotly or altair; viz_core no torch or
  streamlit; server no plotly or altair;
- no module imports another module's private (_name) object;
- hook names are spelled only in models/: no string in ui/, viz_core/ or app_pages/
  (outside the string tables) names a hook point;
- every page file is the same three lines, every view module exposes render(sel);
- no source file outside the string tables is over 500 lines;
- inside ui/ (issue 34, "views draw; serving computes"):
  - ui/lessons, ui/widgets and ui/serving import no view (ui/views);
  - a view imports another view only when it is a page view importing one of its own
    sections. A page view is a module an app_pages file renders (`from ui.views import X`);
    its sections are the modules named `<page>_<x>.py`; every view module is a page view
    or a section of one;
  - views define no `st.cache_data` / `st.cache_resource` / `shared_result` function: the
    cached passes and datasets live in ui/serving/<topic>.py;
- no import circle inside a folder (models, lab, viz_core, ui, server, recipes, support and
  every subfolder, cli, app_pages): the graph of each folder's modules from their imports, deferred imports
  inside functions and TYPE_CHECKING imports included. Importing `pkg.mod` is an edge to
  mod, not to pkg/__init__.py.
The exceptions are the short allow-lists below, each naming why and what removes it; an
entry that no longer matches anything fails, so whoever removes an exception deletes its line.
"""
from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("app_pages", "ui", "server", "viz_core", "lab", "models", "recipes", "cli", "support")
# what each layer may import from the project (its own layer included)
ALLOWED = {
    "app_pages": {"ui", "server"},           # app.py, the server's entry: warm-up progress, run timing
    "ui": {"ui", "server", "viz_core", "lab", "models"},
    "server": {"server", "lab", "models"},
    "viz_core": {"viz_core"},
    "lab": {"lab", "models"},
    "models": {"models"},
    "recipes": {"recipes", "lab", "models"},
    "cli": {"cli", "recipes", "lab", "models"},
    "support": {"support", "cli"},           # replicas.py renders the proxy's template with cli.proxy
}
# project folders outside LAYERS: no layer imports them (benchmarks and tests may import any layer)
UNLAYERED = {"benchmarks", "tests"}
FORBIDDEN_THIRD_PARTY = {
    "models": {"streamlit", "plotly", "altair"},
    "lab": {"streamlit", "plotly", "altair"},
    "recipes": {"streamlit", "plotly", "altair"},
    "server": {"plotly", "altair"},          # Streamlit only where a piece needs its runtime (run_stats)
    "viz_core": {"torch", "streamlit"},
}
HOOK_NAME = re.compile(r"hook_[a-z]|blocks\.")


def sources(*layers: str) -> list[Path]:
    files = [ROOT / "app.py"] if "app_pages" in layers else []
    for layer in layers:
        files += sorted((ROOT / layer).rglob("*.py"))
    return files


def layer_of(path: Path) -> str:
    rel = path.relative_to(ROOT)
    return "app_pages" if rel.parts[0] == "app.py" else rel.parts[0]


def imports(tree: ast.AST, path: Path) -> list[tuple[str, list[str], int]]:
    """(absolute module, imported names, line) of every import; relative imports resolved."""
    out = []
    package = list(path.relative_to(ROOT).with_suffix("").parts[:-1])
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, [], node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            out.append((module, [a.name for a in node.names], node.lineno))
    return out


def parsed(path: Path) -> ast.AST:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def test_the_layers_exist():
    for layer in LAYERS:
        assert (ROOT / layer).is_dir(), layer
    assert (ROOT / "ui" / "serving").is_dir() and (ROOT / "ui" / "views").is_dir()


def layer_violations(tree: ast.AST, path: Path) -> list[str]:
    """What a module of LAYERS imports against the rules above (layer, third party, private)."""
    layer, found = layer_of(path), []
    for module, names, line in imports(tree, path):
        top = module.split(".")[0]
        if (top in ALLOWED or top in UNLAYERED) and top not in ALLOWED[layer]:
            found.append(f"{path.relative_to(ROOT)}:{line} ({layer}) imports {module}")
        if top in FORBIDDEN_THIRD_PARTY.get(layer, ()):
            found.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
        if top in ALLOWED and module != "__future__":
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            if private:
                found.append(f"{path.relative_to(ROOT)}:{line} imports the private {private} of {module}")
    return found


@pytest.mark.parametrize("path", sources(*LAYERS), ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_follow_the_layers(path: Path):
    found = layer_violations(parsed(path), path)
    assert not found, "; ".join(found)


def test_benchmarks_import_no_test_code():
    """What the benchmarks share with the tests is in support/; tests/ is the tests' own."""
    found = [f"{rel(p)}:{line} imports {module}" for p in sources("benchmarks")
             for module, _, line in imports(parsed(p), p) if module.split(".")[0] == "tests"]
    assert not found, found


def string_constants(tree: ast.AST) -> list[tuple[int, str]]:
    return [(n.lineno, n.value) for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


@pytest.mark.parametrize("path", [p for p in sources("ui", "viz_core", "app_pages") if "strings" not in p.parts],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_no_hook_name_outside_models(path: Path):
    found = [(line, s) for line, s in string_constants(parsed(path)) if HOOK_NAME.search(s)]
    assert not found, f"{path.relative_to(ROOT)} spells hook names (use models.trace.act_name): {found[:3]}"


PAGE = re.compile(r'"""[^"]+"""\nfrom ui\.sidebar import current\nfrom ui\.views import (\w+)\n\n\1\.render\(current\(\)\)\n')


@pytest.mark.parametrize("path", sorted((ROOT / "app_pages").glob("*.py")), ids=lambda p: p.name)
def test_every_page_file_is_the_same_three_lines(path: Path):
    m = PAGE.fullmatch(path.read_text(encoding="utf-8"))
    assert m, f"{path.name} is not: docstring, `from ui.sidebar import current`, `from ui.views import X`, X.render(...)"
    assert (ROOT / "ui" / "views" / f"{m[1]}.py").is_file()


@pytest.mark.parametrize("path", sorted(p for p in (ROOT / "ui" / "views").glob("*.py") if p.name != "__init__.py"),
                         ids=lambda p: p.name)
def test_view_modules_expose_render(path: Path):
    tree = parsed(path)
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    pages = {PAGE.fullmatch(p.read_text(encoding="utf-8"))[1] for p in (ROOT / "app_pages").glob("*.py")
             if PAGE.fullmatch(p.read_text(encoding="utf-8"))}
    if path.stem in pages:
        assert "render" in functions, f"{path.name} has no render(sel)"
        assert [a.arg for a in functions["render"].args.args] == ["sel"]


@pytest.mark.parametrize("path", sources(*LAYERS, "benchmarks", "tests"), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_source_file_over_500_lines(path: Path):
    if "strings" in path.parts:
        return                                   # string tables: one key per line, by design
    n = len(path.read_text(encoding="utf-8").splitlines())
    assert n <= 500, f"{path.relative_to(ROOT)} has {n} lines"


def test_the_rules_catch_what_they_forbid(tmp_path):
    """The checks above fail on the mistakes they exist for (not tests that cannot fail)."""
    bad = tmp_path / "ui" / "views" / "bad.py"
    bad.parent.mkdir(parents=True)
    bad.write_text('from models.trace import _KINDS\nimport streamlit\nNAME = "blocks.0.attn.hook_pattern"\n')
    tree = ast.parse(bad.read_text())
    found = imports(tree, ROOT / "ui" / "views" / "bad.py")
    assert ("models.trace", ["_KINDS"], 1) in found
    assert any(HOOK_NAME.search(s) for _, s in string_constants(tree))
    assert any("private" in v for v in layer_violations(tree, ROOT / "ui" / "views" / "bad.py"))
    # issue 34, deliverable 5: server sits under ui, recipes and support beside the app
    up = ast.parse("from ui.serving import gate\nfrom app_pages import home\nimport plotly\n")
    assert len(layer_violations(up, ROOT / "server" / "bad.py")) == 3
    assert not layer_violations(ast.parse("from server import guard\n"), ROOT / "ui" / "serving" / "bad.py")
    for layer in ("app_pages", "ui", "viz_core", "lab", "models"):
        for top in ("recipes", "support", "benchmarks", "tests"):
            where = ROOT / ("app.py" if layer == "app_pages" else f"{layer}/bad.py")
            assert layer_violations(ast.parse(f"from {top} import x\n"), where), (layer, top)
    assert layer_violations(ast.parse("from tests.e2e import helpers\n"), ROOT / "support" / "bad.py")
    assert layer_violations(ast.parse("from ui import warmup\n"), ROOT / "recipes" / "bad.py")
    assert not PAGE.fullmatch('"""x"""\nimport streamlit as st\nst.title("x")\n')


# ---- inside ui/: views draw, serving computes (issue 34) ----------------------------------------
def page_views() -> set[str]:
    return {m[1] for m in (PAGE.fullmatch(p.read_text(encoding="utf-8")) for p in (ROOT / "app_pages").glob("*.py"))
            if m}


VIEWS = sorted(p for p in (ROOT / "ui" / "views").glob("*.py") if p.name != "__init__.py")
VIEW_IMPORTS_ALLOWED: set[tuple[str, str]] = set()     # (importer, imported) views, each with why
VIEW_CACHES_ALLOWED: dict[str, set[str]] = {}          # view -> cached functions, each with why
# circles allowed for now, each with what removes it (none left: deliverable 5 of issue 34 opened the last)
KNOWN_CIRCLES: dict[frozenset[str], str] = {}


def page_of(view: str, pages: set[str]) -> str | None:
    """The page a view module draws for: itself for a page view, else the page its name extends."""
    if view in pages:
        return view
    owners = [p for p in pages if view.startswith(p + "_")]
    return max(owners, key=len) if owners else None


def view_import_allowed(importer: str, imported: str, pages: set[str]) -> bool:
    """A page view may import its own sections; no other view imports a view."""
    return importer in pages and imported != importer and page_of(imported, pages) == importer


def module_file(dotted: str) -> Path | None:
    base = ROOT.joinpath(*dotted.split("."))
    for p in (base.with_suffix(".py"), base / "__init__.py"):
        if p.is_file():
            return p
    return None


def imported_files(tree: ast.AST, path: Path) -> list[tuple[Path, int]]:
    """(project file, line) of every import, deferred ones included: a name imported from a
    package that is a module of its own counts as that module, any other as the package."""
    out = []
    for module, names, line in imports(tree, path):
        subs = [f for f in (module_file(f"{module}.{n}") for n in names) if f]
        out += [(f, line) for f in subs]
        if len(subs) < len(names) or not names:
            f = module_file(module)
            if f is not None:
                out.append((f, line))
    return out


def cached_functions(tree: ast.AST) -> set[str]:
    """Functions decorated with st.cache_data / st.cache_resource or ui/serving's
    shared_result (called or bare)."""
    def is_cache(d: ast.expr) -> bool:
        d = d.func if isinstance(d, ast.Call) else d
        return ((isinstance(d, ast.Attribute) and d.attr in ("cache_data", "cache_resource", "shared_result"))
                or (isinstance(d, ast.Name) and d.id == "shared_result"))
    return {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
            and any(is_cache(d) for d in n.decorator_list)}


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("path", sources("ui/lessons", "ui/widgets", "ui/serving"), ids=rel)
def test_lessons_widgets_and_serving_import_no_view(path: Path):
    views = ROOT / "ui" / "views"
    found = [(line, rel(f)) for f, line in imported_files(parsed(path), path) if f.parent == views]
    assert not found, f"{rel(path)} imports views {found}: what it needs belongs in ui/serving, lab or viz_core"


@pytest.mark.parametrize("path", VIEWS, ids=lambda p: p.name)
def test_a_view_imports_only_its_own_sections(path: Path):
    pages = page_views()
    views = ROOT / "ui" / "views"
    bad = [(line, f.stem) for f, line in imported_files(parsed(path), path)
           if f.parent == views and f.name != "__init__.py" and not view_import_allowed(path.stem, f.stem, pages)
           and (path.stem, f.stem) not in VIEW_IMPORTS_ALLOWED]
    assert not bad, (f"ui/views/{path.name} imports the views {bad}: only a page view imports its own sections "
                     "(shared code goes to ui/serving, ui/widgets, lab or viz_core)")


@pytest.mark.parametrize("path", VIEWS, ids=lambda p: p.name)
def test_every_view_is_a_page_or_one_of_its_sections(path: Path):
    assert page_of(path.stem, page_views()) is not None, f"ui/views/{path.name} belongs to no page"


@pytest.mark.parametrize("path", VIEWS, ids=lambda p: p.name)
def test_views_cache_nothing(path: Path):
    cached = cached_functions(parsed(path)) - VIEW_CACHES_ALLOWED.get(path.stem, set())
    assert not cached, f"ui/views/{path.name} caches {sorted(cached)}: cached passes live in ui/serving/<topic>.py"


def find_circles(graph: dict[str, set[str]]) -> list[tuple[frozenset[str], list[str]]]:
    """Every group of nodes that import each other, directly or not (the strongly connected
    components of more than one node, Tarjan), with one circle through it as a path."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    circles = []
    for group in groups:
        start = min(group)
        path, seen = [start], {start}
        while True:                          # walk inside the group until the path closes
            nxt = sorted(w for w in graph[path[-1]] if w in group)
            back = [w for w in nxt if w == start]
            if back and len(path) > 1:
                circles.append((frozenset(group), path + [start]))
                break
            step = next((w for w in nxt if w not in seen), None)
            if step is None:                 # a dead end inside the group: close through any member seen
                w = next(w for w in nxt if w in seen)
                circles.append((frozenset(group), path[path.index(w):] + [w]))
                break
            path.append(step)
            seen.add(step)
    return circles


FOLDERS = sorted({p.parent for p in sources(*LAYERS) if p.name != "app.py"})


@cache
def folder_circles(folder: Path) -> list[tuple[frozenset[str], list[str]]]:
    files = sorted(folder.glob("*.py"))
    graph = {rel(f): {rel(g) for g, _ in imported_files(parsed(f), f) if g.parent == folder and g != f}
             for f in files}
    return find_circles(graph)


@pytest.mark.parametrize("folder", FOLDERS, ids=rel)
def test_no_import_circle_inside_a_folder(folder: Path):
    found = [path for group, path in folder_circles(folder) if group not in KNOWN_CIRCLES]
    assert not found, "import circles: " + "; ".join(" -> ".join(path) for path in found)


def test_the_allow_lists_name_only_what_exists():
    """An exception that no longer happens fails here: whoever removes it deletes its line."""
    circles = {group for folder in FOLDERS for group, _ in folder_circles(folder)}
    assert not [sorted(k) for k in KNOWN_CIRCLES if k not in circles], "KNOWN_CIRCLES names circles that are gone"
    views = ROOT / "ui" / "views"
    for importer, imported in VIEW_IMPORTS_ALLOWED:
        path = views / f"{importer}.py"
        assert views / f"{imported}.py" in {f for f, _ in imported_files(parsed(path), path)}, (importer, imported)
    for view, names in VIEW_CACHES_ALLOWED.items():
        assert names <= cached_functions(parsed(views / f"{view}.py")), (view, names)


def test_the_ui_rules_catch_what_they_forbid():
    """The rules above fail on what issue 34 found: a lesson or widget importing a view, a
    section importing its page or a sibling, a page importing another page, a circle."""
    pages = page_views()
    assert view_import_allowed("beyond", "beyond_long_memory", pages)
    assert view_import_allowed("lessons", "lessons_class", pages)
    assert not view_import_allowed("walkthrough_flash", "walkthrough", pages)        # section -> its page
    assert not view_import_allowed("beyond_long_memory", "beyond_recurrent", pages)  # section -> sibling
    assert not view_import_allowed("beyond", "walkthrough", pages)                   # page -> another page
    assert not view_import_allowed("positional", "walkthrough_flash", pages)         # page -> another's section
    bad = ast.parse("from ..views.residual import plain_labels\n\n\ndef f():\n    from ..views import masks\n")
    found = {rel(f) for f, _ in imported_files(bad, ROOT / "ui" / "widgets" / "bad.py")}
    assert {"ui/views/residual.py", "ui/views/masks.py"} <= found
    assert cached_functions(ast.parse("@st.cache_data(ttl=1)\ndef a(): pass\n@st.cache_resource\ndef b(): pass\n"
                                      "def c(): pass\n@shared_result('t')\ndef d(): pass\n")) == {"a", "b", "d"}
    assert find_circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [(frozenset("abc"), ["a", "b", "c", "a"])]
    assert find_circles({"a": {"b"}, "b": set()}) == []


def test_the_lesson_registry_names_every_topic_module():
    """ui/lessons imports its step kinds from an explicit list (TOPICS), not by scanning the
    folder: a topic module missing from the list would register nothing, so the list and the
    folder must agree."""
    from ui.lessons import KINDS, TOPICS

    folder = {p.stem for p in (ROOT / "ui" / "lessons").glob("*.py") if not p.stem.startswith("_")}
    assert sorted(TOPICS) == sorted(folder)
    assert {k.run.__module__.rsplit(".", 1)[1] for k in KINDS.values()} == set(TOPICS)


# ---- one name per topic (issue 34, deliverable 3) ------------------------------------------
# A page view's topic is its page; a section <page>_<x>'s topic is <x>. The topic's computation
# is lab/<topic>.py and its figures viz_core/<topic>.py, so a reader who knows one name finds
# the others. Views whose topic has neither, each with why:
TOPICLESS_VIEWS = {
    "home": "the overview: the model card and map come from widgets (ui/widgets/model_map.py)",
    "lessons_class": "class mode: its store is server/classroom.py, its steps those of the lessons",
}
# ui/strings modules that belong to no view, widget or lesson step kind: the app's frame
COMMON_STRINGS = {"common"}


def topic_of(view: str, pages: set[str]) -> str:
    page = page_of(view, pages)
    return view if view == page else view[len(page) + 1:]


@pytest.mark.parametrize("path", VIEWS, ids=rel)
def test_a_views_topic_names_its_lab_or_viz_core_module(path: Path):
    view = path.stem
    if view in TOPICLESS_VIEWS:
        return
    topic = topic_of(view, page_views())
    assert (ROOT / "lab" / f"{topic}.py").is_file() or (ROOT / "viz_core" / f"{topic}.py").is_file(), (
        f"{rel(path)}: its topic {topic!r} has neither lab/{topic}.py nor viz_core/{topic}.py")


@pytest.mark.parametrize("path", sorted((ROOT / "ui" / "strings").glob("*.py")), ids=rel)
def test_each_strings_module_is_named_after_what_shows_it(path: Path):
    """ui/strings/<x>.py: a view, a widget, a lesson step kind (lesson_<topic>), a ui module
    (model_names, presenter, refusals, replica) or the frame's common.py; no grab-bag."""
    ui = ROOT / "ui"
    owners = ({p.stem for p in (ui / "views").glob("*.py")} | {p.stem for p in (ui / "widgets").glob("*.py")}
              | {f"lesson_{p.stem}" for p in (ui / "lessons").glob("*.py")} | {p.stem for p in ui.glob("*.py")}
              | COMMON_STRINGS)
    assert path.stem == "__init__" or path.stem in owners, f"{rel(path)} is named after nothing that shows it"


def test_the_allow_lists_of_topics_name_only_what_exists():
    views = {p.stem for p in VIEWS}
    assert set(TOPICLESS_VIEWS) <= views
    for view in TOPICLESS_VIEWS:
        topic = topic_of(view, page_views())
        assert not (ROOT / "lab" / f"{topic}.py").is_file() and not (ROOT / "viz_core" / f"{topic}.py").is_file(), view


# The field's own short names for modules; any other alias of one to three letters hides
# which module a name comes from (issue 34 found `R` for both lab.residual and lab.recurrent).
# Where one file needs lab/x and viz_core/x, it imports both by their dotted names.
CONVENTIONAL_ALIASES = {"np": {"numpy"}, "pd": {"pandas"}, "st": {"streamlit", "hypothesis.strategies"},
                        "go": {"plotly.graph_objects"}, "px": {"plotly.express"}, "alt": {"altair"},
                        "nn": {"torch.nn"}, "F": {"torch.nn.functional"}, "vz": {"viz_core"}}


def short_aliases(tree: ast.AST) -> list[tuple[str, str, int]]:
    """(module, alias, line) of every `import m as x` / `from p import m as x` whose alias
    has one to three characters and is not the field's convention for that very module."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                if a.asname is None or len(a.asname) > 3:
                    continue
                module = a.name if isinstance(node, ast.Import) else f"{node.module}.{a.name}" if node.module else a.name
                if module not in CONVENTIONAL_ALIASES.get(a.asname, ()):
                    out.append((module, a.asname, node.lineno))
    return out


@pytest.mark.parametrize("path", [p for p in sources(*LAYERS, "tests", "benchmarks") if "__pycache__" not in p.parts],
                         ids=rel)
def test_modules_are_imported_by_their_own_names(path: Path):
    found = short_aliases(parsed(path))
    assert not found, [f"line {line}: {module} as {alias}" for module, alias, line in found]


def test_the_alias_rule_catches_what_it_forbids():
    tree = ast.parse("import numpy as np\nfrom lab import recurrent as R\nfrom lab import residual as res\n"
                     "import viz_core as vc\nimport torch.nn.functional as F\nfrom lab import ffn as F\n")
    assert [(m, a) for m, a, _ in short_aliases(tree)] == [("lab.recurrent", "R"), ("lab.residual", "res"),
                                                          ("viz_core", "vc"), ("lab.ffn", "F")]
