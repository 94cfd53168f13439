"""Analysis that runs a model (or reads its Trace) and returns dataclasses or numpy.

No Streamlit, plotly or altair, and no translated strings: the app's pages call these, and
so can a notebook. One module per topic, named as the page section that shows it
(`ui/views/<page>_<x>.py` reads `lab/<x>.py` and draws with `viz_core/<x>.py`; the README's
"One name per topic" table lists every page and section):

=================  ============================================================  ==================================
module             what it computes                                              shown on
=================  ============================================================  ==================================
attention          head metrics (entropy, distance, sinks, sparsity), rollout     Attention
positional         the positional schemes' numbers (tables, shift, RoPE, bias)    Positional encodings
checkpoints        the toy checkpoints trained once per scheme                    · effect on attention, extrapolation
length_curve       train short, test long: bits per character by length          · train short, test long
qk_geometry        one head's queries and keys in one picture                     · query–key geometry
pe_knobs           the same weights run with another RoPE base or scaling         (the scheme knobs widget)
masks              a composed mask applied to the model                           Masks & variants
variants           attention without softmax, on the model's q, k, v              Masks & variants
walkthrough        one query of one head, step by step                            Q/K/V walk-through
kv                 which query heads share K and V, KV-cache sizes                walk-through, generation
flash              FlashAttention tile by tile against the model                  · tiled attention
scaling            why divide by √d_k, measured                                   · why divide by √d_k
ffn                the FFN's activations and function                             Feed-forward
ablation           one part of a model changed, the output compared               FFN, residual (ablation widget)
residual           the residual stream: decomposition, norms, logit lens          Residual stream
input_layer        what the model adds up before its first block                  · the input layer
norms              LayerNorm against BatchNorm on a padded batch, DyT's tanh      · norms
attribution        direct logit attribution, what one head writes                 Attribution
detectors          head detectors                                                 · head detectors, Training lab
patching           activation patching between two texts                         · activation patching
generate           generation one token at a time, everything kept                Generation
repetition         the n-grams a decoder repeats                                  Generation
teacher_forcing    every position at once against one at a time                  · teacher forcing
beyond             the q, k, v every Beyond variant runs on (QKV)                 Beyond softmax
long_memory        three ways to read long memory on one head                     · long memory
recurrent          the recurrent family on one head                               · the recurrent family
kv_families        memory per generated token, family by family                   · memory per token
mixer              MLP-Mixer beside attention                                     · MLP-Mixer vs attention
ternary            ternary weights                                                · ternary weights
memory             what a recorded pass costs before it runs                      every page (the budget)
model_map          the architecture as parts and shapes, one pass along it       Overview (the model map)
lessons            lesson files parsed and checked                                Lessons
lesson_<x>         the numbers a lesson step kind names (ui/lessons/<x>.py)       Lessons
=================  ============================================================  ==================================
"""
