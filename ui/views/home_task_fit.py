"""The overview's "which architecture for which task" section: the task × architecture table
and this app's models placed in it, every mark computed from configurations
(lab/task_fit.py: abilities read from the masks and stacks a config builds)."""
from __future__ import annotations

import streamlit as st

from lab import task_fit
from lab.task_fit import TASKS
from models.weights import zoo

from .. import model_names
from ..i18n import t
from ..markup import markdown_table

ARCHS = ("encoder", "decoder", "encoder-decoder")


def mark(ok: bool) -> str:
    return "✓" if ok else "✗"


def section() -> None:
    with st.expander(t("tfit_title"), icon=":material/account_tree:"):
        st.markdown(t("tfit_intro"))
        ref = task_fit.reference()
        rows = [[t(f"tfit_task_{task}"), *[t(f"tfit_fit_{task_fit.fit(ref[a], task)}") for a in ARCHS]] for task in TASKS]
        st.markdown(markdown_table([t("tfit_col_task"), *[t(f"arch_{a}") for a in ARCHS]], rows))
        st.caption(t("tfit_abilities", n=task_fit.PROBE_LEN, enc=ref["encoder"].seen_share, dec=ref["decoder"].seen_share))
        st.markdown(f"**{t('tfit_models_title')}**")
        entries = [e for e in zoo.catalogue() if e.available and e.config is not None]
        found = [(e, task_fit.abilities(e.config)) for e in entries]
        groups: dict[task_fit.Abilities, list[str]] = {}
        for e, a in found:                                   # one row per set of abilities, its models listed
            groups.setdefault(a, []).append(model_names.label(e))
        order = sorted(groups, key=lambda a: (ARCHS.index(a.arch) if a.arch in ARCHS else len(ARCHS), -a.seen_share))
        rows = [[t("tfit_list_sep").join(groups[a]), t(f"arch_{a.arch}"), f"{mark(a.sees_later)} ({a.seen_share:.0%})",
                 mark(a.writes), mark(a.cross),
                 t("tfit_list_sep").join(t(f"tfit_short_{x}") for x in task_fit.best_tasks(a)) or t("tfit_none")]
                for a in order]
        st.markdown(markdown_table([t("tfit_col_models"), t("tfit_col_arch"), t("tfit_col_sees"), t("tfit_col_writes"),
                                    t("tfit_col_cross"), t("tfit_col_fits")], rows))
        count = {arch: sum(a.arch == arch for _, a in found) for arch in ARCHS}
        st.caption(t("tfit_models_caption", n=len(found), enc=count["encoder"], dec=count["decoder"],
                     ed=count["encoder-decoder"]))
