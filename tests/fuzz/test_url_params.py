"""Door: the URL's query parameters on every page (a link a teacher shares, or one a
student edits), through Streamlit's AppTest as tests/app/helpers.py opens the app.

Every parameter a page binds (the sidebar's on every page, the page's own) gets a value
that is valid, nearly valid, or hostile: random strings, huge numbers, negative numbers,
NaN and infinities, unicode (RTL, combining marks, emoji, CJK), empty, 10,000
characters. The page must draw without an exception element, and nothing it shows may
hold a traceback or a Python type name; an error it shows is a sentence.
Each example is one app run (about a second once the models are cached), so the ci
profile runs few per page; `make fuzz` many more.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.app.helpers import GPT_LABEL, LLAMA_LABEL, MINILM_LABEL, T5_LABEL, everything_rendered, open_app
from tests.fuzz.fuzzing import APP_BUDGET_MB, examples
from tests.fuzz.props import TYPE_NAMES, run_door
from lab import detectors, patching
from ui.views import attention, attribution, attribution_detectors, ffn, generate, positional, positional_checkpoints
from ui.views import beyond, beyond_long_memory, beyond_recurrent, residual
from ui.widgets import model_map

HOSTILE = st.one_of(
    st.sampled_from(["1e309", "-1", "99999999999999999999999", "NaN", "nan", "inf", "-inf", "", " ", "0x10", "1_000",
                     " 3 ", "3.7", "-0", "true", "None", "null", "[1]", "{}", "\u202e7", "٣", "３", "e\u0301", "🤖",
                     "层", "<script>alert(1)</script>", "%00", "\x00", "a\nb", "x" * 10_000, "1" * 5000]),
    st.integers(-10**30, 10**30).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.text(max_size=30),
)


def values(*valid: object) -> st.SearchStrategy[str]:
    """A parameter's value: hostile first (Hypothesis's first example is its simplest,
    so the first run of each page is all hostile), or one of its valid values."""
    return st.one_of(HOSTILE, st.sampled_from([str(v) for v in valid])) if valid else HOSTILE


def numbers(lo: float, hi: float) -> st.SearchStrategy[str]:
    return values(lo, hi, (lo + hi) / 2, int(hi) + 1, int(lo) - 1)


MODELS = [MINILM_LABEL, GPT_LABEL, LLAMA_LABEL, T5_LABEL, "Toy: reverse · rope", "Toy: spell digits (encoder-decoder) · "
          "sinusoidal", "BERT-style encoder", "minilm", "custom:gpt"]
SIDEBAR = {"lang": values("English", "中文"), "model": values(*MODELS),
           "text": values("the cat sat on the mat", "abcd=dcba", "a" * 3000, "The students\u202e read 中文 🤖"),
           "target": values("dcba", "12"), "device": values("cpu", "cuda", "mps")}
PAGES = {
    "app_pages/home.py": {},
    "app_pages/attention.py": {"view": values(*attention.VIEWS), "stack": values("encoder", "decoder", "cross"),
                               "layer": numbers(0, 5), "head": numbers(0, 11), "combine": values(*attention.COMBINE),
                               "query": numbers(-1, 20), "metric": values(*attention.METRICS),
                               "text_b": values("the dog sat", "")},
    "app_pages/positional.py": {"pe_view": values(*positional.BASE_SECTIONS, *positional_checkpoints.SECTIONS,
                                                  "length", "geometry"),
                                "pe_n": numbers(2, 1024), "pe_d": numbers(2, 1024), "pe_base": numbers(2.0, 1e7),
                                "pe_sim": values("cosine", "dot"), "pe_k": numbers(0, 1024),
                                "pe_pos": numbers(0, 1024), "pe_seed": numbers(0, 10_000), "pe_gap": numbers(0, 16),
                                "pe_bn": numbers(2, 1024), "pe_heads": numbers(1, 32),
                                "pe_task": values("reverse", "copy", "sort"), "pe_probe_len": numbers(1, 64),
                                "pe_layer": numbers(0, 3), "pe_head": values("mean", "0", "3"),
                                "pe_perm_seed": numbers(0, 1000), "pe_perm_head": numbers(0, 3),
                                "pe_extra_n": values(64, 128, 256, 512), "pe_metric": values("accuracy",
                                                                                             "token_accuracy"),
                                "pe_fk": numbers(0, 64),
                                # positional knobs (ui/widgets/positional_knobs.py)
                                "pe_k_theta": numbers(10.0, 1e7), "pe_k_scaling": values("none", "linear", "ntk", "yarn"),
                                "pe_k_factor": numbers(1.0, 64.0), "pe_k_alibi": numbers(1 / 64, 64.0),
                                "pe_k_buckets": numbers(2, 128), "pe_k_maxdist": numbers(2, 4096),
                                "pe_k_sinbase": numbers(10.0, 1e7), "pe_k_layout": values("interleaved", "halves"),
                                "pe_k_temp": numbers(0.05, 20.0),
                                "pe_l_lang": values("en", "zh-modern", "zh-verse"), "pe_l_view": values("curve", "distance"),
                                # query-key geometry (ui/views/positional_qk_geometry.py)
                                "pe_gc": values("position", "token"), "pe_g_norm": values("True", "False"),
                                "pe_g_top": numbers(0, 64), "pe_gm": values("toy:verse-lm", "toy:pe64-rope",
                                                                            "toy:reverse-alibi"),
                                "pe_g_probes": numbers(0, 8), "pe_g_layer": numbers(0, 3), "pe_g_head": numbers(0, 3),
                                "pe_gset": values("pe64", "reverse", "copy"), "pe_g_blayer": numbers(0, 3),
                                "pe_g_bhead": numbers(0, 3),
                                # before sinusoidal (ui/views/positional_naive_positions.py)
                                "pn_n": numbers(4, 64), "pn_trained": numbers(2, 64),
                                # RoPE's cost (ui/views/positional_rope_cost.py)
                                "rc_repeats": numbers(5, 200)},
    "app_pages/masks.py": {"mk_layer": numbers(0, 5), "mk_head": numbers(0, 11),
                           "mk_stack": values("encoder", "decoder"), "ob_pos": numbers(1, 127),
                           "bsp_b": numbers(1, 16), "bsp_local": numbers(0, 4), "bsp_global": numbers(0, 4),
                           "bsp_random": numbers(0, 4), "bsp_seed": numbers(0, 10_000)},
    "app_pages/walkthrough.py": {"wt_stack": values("encoder", "decoder", "cross"), "wt_layer": numbers(0, 5),
                                 "wt_head": numbers(0, 11), "fu_runs": numbers(3, 50)},
    "app_pages/ffn.py": {"layer": numbers(0, 5), "neuron": numbers(0, 1535), "fview": values(*ffn.VIEWS),
                         "fwhich": values("post", "pre"), "forder": values(*ffn.ORDERS),
                         "fs_k": numbers(1, 16), "fe_e": numbers(2, 16), "fe_k": numbers(1, 4),
                         "fe_seed": numbers(0, 10_000)},
    "app_pages/residual.py": {"rview": values(*residual.VIEWS), "lens": values("top", "final"),
                              # training: Pre-LN vs Post-LN (ui/views/residual_ln_training.py)
                              "lnt_step": numbers(0, 600), "lnt_w": values("trained", "initial")},
    "app_pages/generate.py": {"strategy": values(*generate.STRATEGIES), "gen_n": numbers(1, 64),
                              "gen_t": numbers(0.0, 2.0), "gen_k": numbers(0, 30522), "gen_p": numbers(0.0, 1.0),
                              "gen_seed": numbers(0, 1_000_000), "gen_width": numbers(1, 8),
                              "gen_alpha": numbers(0.0, 2.0)},
    "app_pages/training.py": {},
    "app_pages/attribution.py": {"aview": values(*attribution.VIEWS), "pos": numbers(0, 12), "layer": numbers(0, 5),
                                 "head": numbers(0, 11), "hstack": values("decoder", "cross"),
                                 "dsource": values(*attribution_detectors.SOURCES),
                                 "offsets": values("1", "1, 2", "-1", "0", "1,,2", "3 4"),
                                 "dstack": values("encoder", "decoder", "cross"),
                                 "detector": values(*detectors.DETECTORS), "psite": values(*patching.SITES),
                                 "pmetric": values(*patching.METRICS), "ppos": numbers(0, 12)},
}
PAGES["app_pages/home.py"] = {"mview": values(*model_map.MODES), "mlayer": numbers(0, 5),
                              "mstack": values("encoder", "decoder"), "mstep": numbers(0, 40), "vs": values(*MODELS)}
PAGES["app_pages/beyond.py"] = {"bx_view": values(*beyond.SECTIONS), "bx_src": values(*beyond.SOURCES),
                                "bx_layer": numbers(0, 5), "bx_head": numbers(0, 11), "bx_n": numbers(2, 512),
                                "bx_d": numbers(2, 256), "bx_seed": numbers(0, 1000),
                                "bxr_form": values(*beyond_recurrent.FORMS), "bxr_gamma": numbers(0, 2),
                                "bxr_chunk": numbers(0, 5000), "bxr_gbias": numbers(-5, 9), "bxr_seed": numbers(0, 1000),
                                "bxr_u": numbers(-4, 4), "bxr_ch": numbers(0, 300), "bxr_state": numbers(0, 40),
                                "bxl_part": values(*beyond_long_memory.PARTS), "bxl_seg": numbers(0, 200000),
                                "bxl_layers": numbers(0, 30), "bxl_query": numbers(0, 600), "bxl_seed": numbers(0, 1000),
                                "bxl_iseg": numbers(0, 200000), "bxl_beta": numbers(-7, 7),
                                "bxl_pairs": values("4:1, 8:2, 16:4", "4:0", "0:1", "8 2", "64:8", ",", "9:9:9")}
PAGES["app_pages/beyond.py"].update({"bxm_lo": numbers(0, 10**6), "bxm_hi": numbers(0, 10**6),
                                     "bxm_dtype": values("fp32", "fp16", "int8"), "bxm_groups": numbers(0, 16),
                                     "bxm_window": numbers(0, 10**5), "bxm_stack": values("encoder", "decoder"),
                                     "bxm_layer": numbers(0, 5), "bxm_matrix": values("W_Q", "W_gate", "W_out"),
                                     "bxm_mix": values("fit", "random"), "bxm_shuffle": values("true", "false"),
                                     "bxm_pseed": numbers(0, 1000),
                                     "cz_k": values(1, 3, 5, 7), "cz_dil": numbers(1, 8), "cz_groups": values(1, 2, 4, 8),
                                     "cz_layers": numbers(1, 6)})
PAGES["app_pages/beyond.py"].update({"bx_rt_q": values("vanity", "", "   ", "<b>x</b> [y](z)", "\u200b", "智慧"),
                                     "bx_rt_k": numbers(-2, 20), "bx_rt_m": numbers(-2, 40),
                                     "bx_rt_nb": numbers(-1, 9), "bx_rt_w": values("random", "identity"),
                                     "bx_rt_seed": numbers(0, 1000)})
PAGES["app_pages/lessons.py"] = {"lesson": values("attention", "nope", ""), "step": numbers(-3, 40)}
# the tokens page (ui/views/tokens.py) and its text section (ui/views/tokens_text.py)
PAGES["app_pages/tokens.py"] = {"tk_view": values("text", "images", "sound", "pairing"), "tk_merges": numbers(0, 2000),
                                "tk_word": values("flumbersnatch", "明月", "", "<b>x</b> [y](z)", "\u200b", "🤖" * 50)}
# its images section (ui/views/tokens_patches.py)
PAGES["app_pages/tokens.py"].update({"tim_src": values("digit", "upload"), "tim_i": numbers(0, 449),
                                     "tim_p": values(1, 2, 4, 8), "tim_q": numbers(0, 16), "tim_seed": numbers(0, 999),
                                     "tim_vit": values("learned", "sincos2d", "none"),
                                     "tim_live_pos": values("learned", "sincos2d", "none")})   # not read from links
# its sound section (ui/views/tokens_sound.py)
PAGES["app_pages/tokens.py"].update({"tsd_src": values("speech", "record", "upload"), "tsd_lang": values("en", "zh"),
                                     "tsd_text": values("seven", "七", "", "<b>x</b> [y](z)", "--help", "🤖" * 100),
                                     "tsd_voice": values("", "f3", "m3"),
                                     "tsd_att": values("cls", "0.mean", "1.3", "2.0", "1.x")})
# its pairing section (ui/views/tokens_pairing.py)
PAGES["app_pages/tokens.py"].update({"tpr_lang": values("en", "zh", "fr"), "tpr_seed": numbers(0, 999),
                                     "tpr_src": values("digit", "upload"), "tpr_i": numbers(0, 449)})
PAGES["app_pages/residual.py"].update({"in_stack": values("encoder", "decoder"), "bn_layer": numbers(0, 5)})
PAGES["app_pages/residual.py"].update({"rd_layers": numbers(2, 24), "rd_gain": values(0.5, 1.0, 4.0, 8.0)})


DOOR_BUDGET_MB = APP_BUDGET_MB                  # the app doors (tests/fuzz/conftest.py's budget_mb)


@pytest.fixture(scope="module")
def warm(budget_mb):
    """The app opened once (imports, MiniLM and the catalogue loaded) before the door's
    memory is measured."""
    open_app(page="app_pages/attention.py", errors_ok=True)


def check_page(at) -> None:
    """No exception element; nothing shown holds a traceback or a Python type name."""
    assert not at.exception, ["".join(e.stack_trace)[-3000:] for e in at.exception][:1]
    shown = everything_rendered(at)
    assert "Traceback" not in shown
    for e in at.error:
        assert not TYPE_NAMES.search(str(e.value)), e.value


def open_with(page: str, query: dict[str, str]):
    return open_app(query, page=page, direct=True, errors_ok=True)


@pytest.mark.parametrize("page", list(PAGES))
def test_url_params(page):
    strategy = st.fixed_dictionaries({**SIDEBAR, **PAGES[page]})

    @examples("url_params")
    @given(strategy)
    def run(query):
        at = run_door("url_params", lambda: open_with(page, query), what=f"{page} {str(query)[:120]}")
        check_page(at)

    run()


# ---- every URL parameter the app binds is fuzzed ---------------------------------------------------
BINDERS = {"bound": "key", "choice": "param", "index_slider": 2, "stack_choice": 2}    # the parameter's keyword or position


def bound_params() -> set[str]:
    """The URL parameters ui/ binds, read from its source: the name given to each binder
    (ui/links.py's bound, choice, index_slider, stack_choice), and the default `param` of
    a helper that passes one on (e.g. position_choice's "pos") where a call gives none."""
    root = Path(__file__).resolve().parents[2] / "ui"
    trees = [ast.parse(p.read_text()) for p in sorted(root.rglob("*.py"))]
    helpers: dict[str, str] = {}                  # helper function -> its default param
    for tree in trees:
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef):
                args = fn.args.args[len(fn.args.args) - len(fn.args.defaults):]
                for a, d in zip(args, fn.args.defaults):
                    if a.arg == "param" and isinstance(d, ast.Constant) and isinstance(d.value, str):
                        helpers[fn.name] = d.value
    found: set[str] = set()
    for tree in trees:
        for call in ast.walk(tree):
            if not isinstance(call, ast.Call):
                continue
            name = getattr(call.func, "id", None) or getattr(call.func, "attr", None)
            where = BINDERS.get(name, "param" if name in helpers else None)
            if where is None:
                continue
            if isinstance(where, int):
                node = call.args[where] if len(call.args) > where else None
            else:
                node = next((k.value for k in call.keywords if k.arg == where), None)
            if node is None and name in helpers:
                found.add(helpers[name])
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.add(node.value)
    return found


def test_every_bound_url_parameter_is_fuzzed():
    """A view that binds a new URL parameter adds it to PAGES (a name that is only known
    at run time, a variable, is not read here)."""
    fuzzed = set(SIDEBAR).union(*PAGES.values())
    found = bound_params()
    assert {"text", "layer", "pos", "pe_task", "mview", "vs"} <= found          # the reader itself reads them
    assert not found - fuzzed, f"URL parameters no fuzz example sets: {sorted(found - fuzzed)}"
