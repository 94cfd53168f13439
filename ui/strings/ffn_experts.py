"""Strings of the FFN page's Mixture-of-Experts view (ui/views/ffn_experts.py)."""

STRINGS = {
    "ffn_view_experts": {"en": "Mixture of experts", "zh": "混合专家"},
    "fe_intro": {
        "en": "A Mixture of Experts (MoE) replaces one FFN by E smaller ones, the experts, and a router that sends each "
              "token to only k of them: the parameters grow with E, the compute per token with k. Here this model's FFN "
              "of layer {layer} is cut along d_ff into E experts (together they are exactly the dense FFN), and a "
              "router scores every token vector against every expert. **The router is random (seeded), not trained**, "
              "and the experts were trained as one dense FFN: this shows how routing works on real token vectors, not "
              "how well a trained MoE does.",
        "zh": "混合专家（MoE）把一个 FFN 换成 E 个较小的 FFN（专家），再加一个路由器，把每个词元只送到其中 k 个专家：参数量随 E 增长，"
              "每个词元的计算量随 k 增长。这里把本模型第 {layer} 层的 FFN 沿 d_ff 切成 E 个专家（合起来正好是原来的稠密 FFN），"
              "路由器给每个词元向量和每个专家打分。**路由器是随机的（固定种子），没有训练过**，专家也是作为一个稠密 FFN 训练出来的："
              "这里展示路由在真实词元向量上如何工作，而不是训练好的 MoE 效果如何。"},
    "fe_experts": {"en": "Experts E", "zh": "专家数 E"},
    "fe_topk": {"en": "Experts per token k", "zh": "每个词元的专家数 k"},
    "fe_seed": {"en": "Router seed", "zh": "路由器种子"},
    "fe_seed_help": {"en": "The router is a random d × E matrix drawn from this seed; another seed routes differently.",
                     "zh": "路由器是按这个种子抽取的 d × E 随机矩阵；换一个种子，路由就不同。"},
    "fe_load_title": {"en": "Load per expert: (token, slot) assignments on this text",
                      "zh": "每个专家的负载：本文本上分到的（词元，槽位）数"},
    "fe_load_y": {"en": "assignments", "zh": "分配数"},
    "fe_expert": {"en": "expert {e}", "zh": "专家 {e}"},
    "fe_load_caption": {
        "en": "{n} tokens × k = {k} slots = {total} assignments; an even load is {ideal:.3g} per expert. Busiest: "
              "{busiest} assignments, idlest: {idlest}. Switch Transformer's balance loss E·Σ fₑ·Pₑ is {aux:.3g} "
              "(1 when the load and the router's probabilities are even; training adds it to the loss to keep every "
              "expert used).",
        "zh": "{n} 个词元 × k = {k} 个槽位 = {total} 次分配；均匀负载是每个专家 {ideal:.3g} 次。最忙的专家 {busiest} 次，最闲的 {idlest} 次。"
              "Switch Transformer 的均衡损失 E·Σ fₑ·Pₑ 为 {aux:.3g}（负载和路由概率都均匀时为 1；训练时把它加进损失，"
              "让每个专家都被用到）。"},
    "fe_table_title": {"en": "Routing of every token", "zh": "每个词元的路由"},
    "fe_col_token": {"en": "token", "zh": "词元"},
    "fe_col_choice": {"en": "choice {j} (weight)", "zh": "第 {j} 选择（权重）"},
    "fe_col_top": {"en": "router's highest probability", "zh": "路由器的最高概率"},
    "fe_metric_params": {"en": "Parameters: all experts + router", "zh": "参数：全部专家 + 路由器"},
    "fe_metric_active": {"en": "Active per token", "zh": "每个词元用到的参数"},
    "fe_metric_compute": {"en": "Compute vs the dense FFN", "zh": "计算量与稠密 FFN 之比"},
    "fe_metric_diff": {"en": "Output vs the dense FFN (relative difference)", "zh": "输出与稠密 FFN 的相对差"},
    "fe_compute_caption": {
        "en": "Compute counts 2 operations per multiply-add: the dense FFN does {dense:,} on this text, the k chosen "
              "experts plus the router {moe:,}. The E experts summed with weight 1 give the dense output back "
              "(difference {all}); the routed output differs by {diff:.3g} because each token skips E − k experts and "
              "weights the others, which a trained MoE learns to make up for.",
        "zh": "计算量按每次乘加 2 次运算计：稠密 FFN 在这段文本上做 {dense:,} 次，被选中的 k 个专家加上路由器做 {moe:,} 次。"
              "E 个专家以权重 1 相加就得到稠密输出（相差 {all}）；路由后的输出相差 {diff:.3g}，因为每个词元跳过了 E − k 个专家，"
              "其余专家又按权重相加，训练好的 MoE 会学会弥补这一点。"},
    "fe_mis_common": {
        "en": "An MoE model with N parameters costs as much to run per token as a dense model with N parameters.",
        "zh": "参数量为 N 的 MoE 模型，每个词元的计算量和参数量为 N 的稠密模型一样。"},
    "fe_mis_shown": {
        "en": "With E = {e} experts and k = {k}, the layer keeps {params:,} parameters but each token uses about "
              "{active:,} of them: the compute on this text is {ratio:.1%} of the dense FFN's, while every expert must "
              "still sit in memory.",
        "zh": "E = {e} 个专家、k = {k} 时，这一层有 {params:,} 个参数，但每个词元只用到约 {active:,} 个：这段文本上的计算量是稠密 FFN 的 "
              "{ratio:.1%}，而所有专家仍然都要放在内存里。"},
}
