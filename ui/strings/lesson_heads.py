"""Strings of the "many heads" lesson's step kinds (ui/lessons/heads.py)."""

STRINGS = {
    "lk_detector_title": {"en": "Every head scored as a {detector} head", "zh": "每个头作为“{detector}”头的得分"},
    "lk_head_detector_notice": {
        "en": "Head {best_head} scores highest as a {detector} head ({best_score:.0%}, where even attention would "
              "score {chance:.0%}); {n_strong:d} of the {n_heads:d} heads score 50% or more.",
        "zh": "{best_head}作为“{detector}”头得分最高（{best_score:.0%}；均匀分配注意力只能得到 {chance:.0%}）；"
              "{n_heads:d} 个头中有 {n_strong:d} 个得分达到 50% 或更高。"},
    "lk_opt_layers_early": {"en": "in the early layers", "zh": "在靠前的层"},
    "lk_opt_layers_middle": {"en": "in the middle layers", "zh": "在中间的层"},
    "lk_opt_layers_late": {"en": "in the late layers", "zh": "在靠后的层"},
    "lk_sinks_title": {"en": "Mean weight per layer on the first and on the last token",
                       "zh": "每层放在第一个和最后一个词元上的平均权重"},
    "lk_sink_first": {"en": "first token {token}", "zh": "第一个词元 {token}"},
    "lk_sink_last": {"en": "last token {token}", "zh": "最后一个词元 {token}"},
    "lk_sink_weight": {"en": "mean attention weight", "zh": "平均注意力权重"},
    "lk_sinks_notice": {
        "en": "Over all heads and layers, {first_token} gets {first_share:.0%} of the weight and {last_token} "
              "{last_share:.0%}; layer {peak_layer:d} parks the most on the two ({peak_share:.0%}).",
        "zh": "在所有层和头上平均，{first_token} 得到 {first_share:.0%} 的权重，{last_token} 得到 "
              "{last_share:.0%}；第 {peak_layer:d} 层在这两个词元上停放的权重最多（{peak_share:.0%}）。"},
    "lk_opt_sink_first": {"en": "the first token ([CLS], <bos>)", "zh": "第一个词元（[CLS]、<bos>）"},
    "lk_opt_sink_last": {"en": "the last token ([SEP])", "zh": "最后一个词元（[SEP]）"},
}
