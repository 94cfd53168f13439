"""Attribution: direct logit attribution, what a head writes, activation patching, head detectors."""
from ui.sidebar import current
from ui.views import attribution

attribution.render(current())
