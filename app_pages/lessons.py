"""Lessons: a guided path through the reader's own sentence, with predict-then-reveal steps."""
from ui.sidebar import current
from ui.views import lessons

lessons.render(current())
