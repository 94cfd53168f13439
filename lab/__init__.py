"""Analysis that runs a model (or reads its Trace) and returns dataclasses or numpy.

One module per topic: attention (head metrics, rollout), walkthrough (one head, step by
step), beyond (the q, k, v the Beyond page's variants share), masking (a composed mask
applied to the model), variants (attention without softmax), kv (MHA/GQA/MQA and KV-cache
sizes), generation, ablation, ffn, residual (decomposition, norms, logit lens), positional
(PE experiments), memory (what a trace costs before it runs), model_map (the architecture
as parts and shapes, and one pass's numbers along it), attribution (direct logit
attribution, what a head writes), patching (activation patching between two texts),
detectors (head detectors). No Streamlit, plotly or altair, and no translated strings: the
app's pages call these, and so can a notebook.
"""
