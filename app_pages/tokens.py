"""Tokens from anything: how text (and, in later sections, images and sound) becomes a sequence of tokens."""
from ui.sidebar import current
from ui.views import tokens

tokens.render(current())
