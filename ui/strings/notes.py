"""Strings of the "common explanation vs what the model shows" notes (ui/widgets/notes.py)."""

STRINGS = {
    "mis_common": {"en": "Common explanation:", "zh": "常见说法："},
    "mis_shown": {"en": "What the model shows:", "zh": "模型实际显示："},
}
