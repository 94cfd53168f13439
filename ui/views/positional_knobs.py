"""Moved (issue 34): the positional knobs panel is ui/widgets/positional_knobs.py, the knob
cache keys and the knobbed models ui/serving/positional.py. These names stay here only for
ui/views/positional_length.py, which a parallel change holds; when it imports them from
their homes, this file goes (tests/unit/test_layout.py allow-lists that one import)."""
from __future__ import annotations

from ..serving.positional import DEVICE, STOCK, from_tuple, knob_tuple, knobbed
from ..widgets.positional_knobs import PARAMS, is_changed, panel, pictures, reset, summary, words

__all__ = ["DEVICE", "STOCK", "from_tuple", "knob_tuple", "knobbed", "PARAMS", "is_changed", "panel", "pictures",
           "reset", "summary", "words"]
