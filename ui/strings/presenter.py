"""Strings of presenter mode (the projector view of every page) and of the colour palette picker."""

STRINGS = {
    "present_toggle": {"en": "Presenter mode", "zh": "演示模式"},
    "present_help": {"en": "For a projector: large text and titles, figures full width, the sidebar folded away "
                           "(open it again with the arrow at the top left). The link keeps it on (?present=1).",
                     "zh": "适合投影：大号正文和标题，图表占满宽度，侧边栏收起（点左上角的箭头可再打开）。"
                           "链接会保留此模式（?present=1）。"},
    "palette": {"en": "Colour palette", "zh": "配色"},
    "palette_help": {"en": "The colours of attention maps and other heat maps. All three read in greyscale and "
                           "with red–green colour blindness; signed values keep blue–white–red.",
                     "zh": "注意力图和其他热力图的配色。三种都能在灰度下和红绿色盲者眼中区分深浅；"
                           "有正负号的数值仍用蓝–白–红。"},
    "palette_viridis": {"en": "viridis (default)", "zh": "viridis（默认）"},
    "palette_cividis": {"en": "cividis (colour-blind safe)", "zh": "cividis（色盲友好）"},
    "palette_inferno": {"en": "inferno (high contrast)", "zh": "inferno（高对比度）"},
}
