"""Attribution: direct logit attribution, what a head writes, activation patching, head detectors."""
from ui.shell import current
from ui.views import attribution

attribution.render(current())
