"""Overview: what Glassbox shows, the loaded model, and how it splits the text."""
from ui.sidebar import current
from ui.views import home

home.render(current())
