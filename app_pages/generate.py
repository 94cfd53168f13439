"""Generation: decoding one token at a time, why each token was chosen, the KV cache,
beam search and encoder-decoder cross-attention."""
from ui.sidebar import current
from ui.views import generate

generate.render(current())
