"""Training lab: train a tiny model live and watch its attention patterns emerge."""
from ui import training_views as tv
from ui.shell import page_guard

page_guard()
tv.page()
