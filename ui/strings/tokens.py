"""Strings of the "Tokens from anything" page's frame (ui/views/tokens.py): title, intro, sections."""

STRINGS = {
    "nav_tokens": {"en": "Tokens from anything", "zh": "词元从哪里来"},
    "tk_title": {"en": "Tokens from anything", "zh": "词元从哪里来"},
    "tk_intro": {
        "en": "A Transformer reads numbers only: whatever it is given is first cut into a sequence of pieces, and each "
              "piece becomes a vector. How the cut is made decides how long the sequence is, what the model can "
              "spell, and what it can never see.",
        "zh": "Transformer 只读数字：无论输入是什么，都要先切成一串片段，每个片段再变成一个向量。怎么切，决定了序列有多长、"
              "模型能拼出什么、以及它永远看不到什么。"},
    "tk_section": {"en": "Input", "zh": "输入"},
    "tk_sec_text": {"en": "Text", "zh": "文本"},
    "tk_sec_images": {"en": "Images (ViT)", "zh": "图像（ViT）"},
    "tk_sec_sound": {"en": "Sound (Whisper-style)", "zh": "声音（Whisper 式）"},
    "tk_sec_pairing": {"en": "Pairing (CLIP-style)", "zh": "图文配对（CLIP 式）"},
}
