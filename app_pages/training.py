"""Training lab: train a tiny model live and watch its attention patterns emerge."""
from ui.sidebar import current
from ui.views import training

training.render(current())
