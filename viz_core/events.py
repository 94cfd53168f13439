"""Read clicks back from a Streamlit plotly selection event (no streamlit import).

``st.plotly_chart(fig, on_select="rerun", key=...)`` returns an event whose
``event["selection"]["points"]`` lists the clicked points. The figures in
``viz_core`` put ``customdata=[row, col]`` on their click layer (see viz_core.figure).
"""

from __future__ import annotations

from collections.abc import Mapping


def selected_customdata(event: Mapping | None) -> list[tuple[int, ...]]:
    """Return the customdata of every selected point as a tuple of ints.

    ``[[3, 5]]`` -> ``[(3, 5)]``. Also accepts the ``{"0": 3, "1": 5}`` form that a
    numpy-typed customdata row turns into in the browser, and scalar customdata
    (``7`` -> ``(7,)``). Points without customdata are skipped.
    """
    if not event:
        return []
    selection = event.get("selection") or {}
    out: list[tuple[int, ...]] = []
    for point in selection.get("points") or []:
        data = point.get("customdata")
        if data is None:
            continue
        if isinstance(data, Mapping):
            data = [data[k] for k in sorted(data, key=int)]
        elif not isinstance(data, (list, tuple)):
            data = [data]
        out.append(tuple(int(v) for v in data))
    return out
