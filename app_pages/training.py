"""Training lab: train a tiny model live and watch its attention patterns emerge."""
from ui import training_views as tv

tv.page()
