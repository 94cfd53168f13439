"""The residual stream: norms and contributions, normalisation statistics, Pre-LN vs
Post-LN, the logit lens, A/B comparison and ablations."""
from ui.sidebar import current
from ui.views import residual

residual.render(current())
