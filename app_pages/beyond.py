"""Beyond softmax: long memory, the recurrent family, memory per token, MLP-Mixer and ternary weights."""
from ui.sidebar import current
from ui.views import beyond

beyond.render(current())
