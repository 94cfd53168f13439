"""The tokens page's text section: the sidebar's text cut four ways side by side (characters,
UTF-8 bytes, MiniLM's WordPiece, byte-level BPE learned on the verse corpus with a merge
slider), what each costs per word and per Chinese character, how UTF-8 spells one Chinese
character, the merges as they were learned with their counts, and a word no scheme saw.
Computations: lab/text.py and lab/tokens.py; the learned merges: ui/serving/tokens.py."""
from __future__ import annotations

import pandas as pd
import streamlit as st

import viz_core as vz
from lab import text, tokens
from lab.tokens import Cut

from ..i18n import t
from ..links import bound, show_notices
from ..markup import markdown_table, md_code, md_escape
from ..serving.tokens import MAX_MERGES, cut_four_ways, verse_bpe
from ..sidebar import Selection
from ..widgets.notes import misconception

DEFAULT_MERGES = 500
MAX_SHOWN = 200             # pieces listed per scheme; the counts cover the whole text
MAX_WORD = 40               # characters of the made-up word
SCHEMES = ("chars", "bytes", "wordpiece", "bpe")
EXAMPLE_HAN = "词"          # the character spelled out when the text has no Chinese
DEFAULT_WORD = "flumbersnatch"   # a made-up word (the page checks the corpus never has it)


def label(piece: str) -> str:
    """A piece as shown in a code span: spaces as ␣, invisible characters named (not escaped:
    md_code keeps it literal)."""
    return vz.visible_label(piece.replace(" ", "␣"))


def pieces_line(cut: Cut, limit: int = MAX_SHOWN) -> str:
    shown = " ".join(md_code(label(p)) for p in cut.pieces[:limit])
    more = len(cut) - limit
    return shown + (" " + t("tkt_more", n=f"{more:,}") if more > 0 else "")


def ratio(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f}"


def section(sel: Selection) -> None:
    st.caption(t("tkt_intro"))
    n = int(bound(st.slider, t("tkt_merges"), 0, MAX_MERGES, DEFAULT_MERGES, key="tk_merges",
                  url_default=str(DEFAULT_MERGES), help=t("tkt_merges_help")))
    show_notices()
    source = sel.text
    if not source.strip():
        st.info(t("tkt_empty"), icon=":material/edit:")
        return
    vb = verse_bpe()
    cuts = cut_four_ways(source, n)
    compare(cuts, source, n)
    spell_utf8(source, cuts)
    merges(vb, n)
    unseen_word(vb, n)
    notes_check(cuts, source, n)


def name(scheme: str, n: int) -> str:
    return t(f"tkt_scheme_{scheme}", n=n)


def compare(cuts: dict[str, Cut], source: str, n: int) -> None:
    st.subheader(t("tkt_compare_title"))
    u = tokens.units(source)
    rows = []
    for scheme, cut in cuts.items():
        per_word, per_han = tokens.per_unit(cut, source)
        rows.append([name(scheme, n), f"{len(cut):,}", ratio(per_word), ratio(per_han), f"{cut.vocab_size:,}",
                     f"{cut.unknown_share:.0%}"])
    st.markdown(markdown_table([t("tkt_col_scheme"), t("tkt_col_pieces"), t("tkt_col_per_word"), t("tkt_col_per_han"),
                                t("tkt_col_vocab"), t("tkt_col_unk")], rows))
    st.caption(t("tkt_compare_caption", chars=f"{len(source):,}", words=f"{len(u.words):,}", han=f"{len(u.han):,}"))
    if "wordpiece" not in cuts:
        st.info(t("tkt_no_wordpiece"), icon=":material/info:")
    left, right = st.columns(2)
    for i, (scheme, cut) in enumerate(cuts.items()):
        with (left if i % 2 == 0 else right):
            st.markdown(f"**{md_escape(name(scheme, n))}** · {t('tkt_n_pieces', n=f'{len(cut):,}')}")
            st.markdown(pieces_line(cut))


def spell_utf8(source: str, cuts: dict[str, Cut]) -> None:
    """One Chinese character of the text (the first; an example when there is none) written in
    UTF-8, and how the text's Chinese characters fare in byte-level BPE."""
    st.subheader(t("tkt_utf8_title"))
    u = tokens.units(source)
    ch = source[u.han[0]] if u.han else EXAMPLE_HAN
    lay = text.utf8_layout(ch)
    st.markdown(t("tkt_utf8_char", char=md_code(ch), cp=md_code(f"U+{lay.code_point:04X}"), bits=md_code(lay.bits),
                  n_bits=len(lay.bits), patterns=md_code(" ".join(lay.patterns)),
                  hex=md_code(" ".join(f"{b:02x}" for b in lay.data)), n=len(lay.data))
                + ("" if u.han else " " + t("tkt_utf8_example")))
    st.caption(t("tkt_utf8_rule"))
    if not u.han:
        return
    costs = tokens.han_costs(cuts["bpe"], source)
    st.markdown(t("tkt_han_costs", han=f"{len(u.han):,}", one=costs["1"], two=costs["2"], three=costs["3"],
                  more=costs["4+"], shared=costs["shared"]))


def merges(vb, n: int) -> None:
    st.subheader(t("tkt_merges_title"))
    st.caption(t("tkt_merges_caption", docs=f"{vb.n_docs:,}", chars=f"{vb.n_chars:,}", words=f"{len(vb.table):,}",
                 seconds=f"{vb.seconds:.1f}", total=f"{len(vb.merges):,}"))
    if n == 0:
        st.info(t("tkt_no_merges"), icon=":material/info:")
        return
    chosen = vb.merges[:n]

    def shown(s: str) -> str:
        return label(text.piece_label(text.token_bytes(s)))

    st.dataframe(pd.DataFrame({t("tkt_col_step"): range(1, n + 1),
                               t("tkt_col_left"): [shown(m.left) for m in chosen],
                               t("tkt_col_right"): [shown(m.right) for m in chosen],
                               t("tkt_col_new"): [shown(m.token) for m in chosen],
                               t("tkt_col_count"): [m.count for m in chosen]}),
                 hide_index=True, width="stretch", height=260, key="tkt_merge_table")
    last = chosen[-1]
    st.caption(t("tkt_merges_last", n=n, new=md_code(shown(last.token)), count=f"{last.count:,}",
                 first=f"{chosen[0].count:,}"))


def unseen_word(vb, n: int) -> None:
    st.subheader(t("tkt_unseen_title"))
    word = bound(st.text_input, t("tkt_unseen_word"), DEFAULT_WORD, key="tk_word",
                 url_default=DEFAULT_WORD, help=t("tkt_unseen_help")) or ""
    word = word.strip()[:MAX_WORD] or DEFAULT_WORD
    seen = text.unseen(vb.table, word)
    st.markdown(t("tkt_unseen_seen", word=md_code(label(word)), n=f"{seen:,}") if seen
                else t("tkt_unseen_new", word=md_code(label(word))))
    for scheme, cut in cut_four_ways(word, n).items():
        st.markdown(f"**{md_escape(name(scheme, n))}** · {t('tkt_word_cost', n=len(cut), unk=cut.unknown)}  \n"
                    + pieces_line(cut, 60))
    st.caption(t("tkt_unseen_caption"))


def notes_check(cuts: dict[str, Cut], source: str, n: int) -> None:
    """The notes give fixed token costs for an English word and a Chinese character; the
    table above shows they depend on the scheme and on how many merges it learned."""
    per = {s: tokens.per_unit(c, source) for s, c in cuts.items()}
    bpe_word, bpe_han = per["bpe"]
    parts = [t("tkt_mis_shown_bpe", n=n, word=ratio(bpe_word), han=ratio(bpe_han))]
    if "wordpiece" in per:
        wp_word, wp_han = per["wordpiece"]
        parts.append(t("tkt_mis_shown_wp", word=ratio(wp_word), han=ratio(wp_han),
                       unk=f"{cuts['wordpiece'].unknown_share:.0%}"))
    parts.append(t("tkt_mis_shown_rest", bytes=ratio(per["bytes"][1])))
    if bpe_word is None or bpe_han is None:
        parts.append(t("tkt_mis_missing"))
    misconception("tk_costs", t("tkt_mis_common"), " ".join(parts))
