"""The layout's rules (DESIGN.md, "Layout"), read from the source with `ast`:

- import direction: app_pages -> ui -> (viz_core, lab -> models); cli -> (lab, models);
- models and lab import no streamlit, plotly or altair; viz_core no torch or streamlit;
- no module imports another module's private (_name) object;
- hook names are spelled only in models/: no string in ui/, viz_core/ or app_pages/
  (outside the string tables) names a hook point;
- every page file is the same three lines, every view module exposes render(sel);
- no source file outside the string tables is over 500 lines.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("app_pages", "ui", "viz_core", "lab", "models", "cli")
# what each layer may import from the project (its own layer included)
ALLOWED = {
    "app_pages": {"ui"},
    "ui": {"ui", "viz_core", "lab", "models"},
    "viz_core": {"viz_core"},
    "lab": {"lab", "models"},
    "models": {"models"},
    "cli": {"cli", "lab", "models"},
}
FORBIDDEN_THIRD_PARTY = {
    "models": {"streamlit", "plotly", "altair"},
    "lab": {"streamlit", "plotly", "altair"},
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


@pytest.mark.parametrize("path", sources(*LAYERS), ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_follow_the_layers(path: Path):
    layer = layer_of(path)
    for module, names, line in imports(parsed(path), path):
        top = module.split(".")[0]
        if top in ALLOWED:
            assert top in ALLOWED[layer], f"{path.relative_to(ROOT)}:{line} ({layer}) imports {module}"
        assert top not in FORBIDDEN_THIRD_PARTY.get(layer, ()), f"{path.relative_to(ROOT)}:{line} imports {module}"
        if top in ALLOWED and module != "__future__":
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            assert not private, f"{path.relative_to(ROOT)}:{line} imports the private {private} of {module}"


def string_constants(tree: ast.AST) -> list[tuple[int, str]]:
    return [(n.lineno, n.value) for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


@pytest.mark.parametrize("path", [p for p in sources("ui", "viz_core", "app_pages") if "strings" not in p.parts],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_no_hook_name_outside_models(path: Path):
    found = [(line, s) for line, s in string_constants(parsed(path)) if HOOK_NAME.search(s)]
    assert not found, f"{path.relative_to(ROOT)} spells hook names (use models.trace.act_name): {found[:3]}"


PAGE = re.compile(r'"""[^"]+"""\nfrom ui\.shell import current\nfrom ui\.views import (\w+)\n\n\1\.render\(current\(\)\)\n')


@pytest.mark.parametrize("path", sorted((ROOT / "app_pages").glob("*.py")), ids=lambda p: p.name)
def test_every_page_file_is_the_same_three_lines(path: Path):
    m = PAGE.fullmatch(path.read_text(encoding="utf-8"))
    assert m, f"{path.name} is not: docstring, `from ui.shell import current`, `from ui.views import X`, X.render(...)"
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
    assert not PAGE.fullmatch('"""x"""\nimport streamlit as st\nst.title("x")\n')
