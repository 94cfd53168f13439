"""Strings of the "Tokens from anything" page's Sound section (ui/views/tokens_sound.py), refused_sound_* included."""

STRINGS = {
    "tsd_intro": {
        "en": "Sound reaches a Transformer as a waveform: 16,000 numbers a second. Whisper does not read them one by "
              "one. It slides a 25 ms window along the sound, 10 ms at a time, and turns each window into 80 numbers "
              "(how loud each band of pitch is: a log-mel spectrum). A small convolution stem then merges pairs of "
              "those frames, so the Transformer reads one vector per 20 ms.",
        "zh": "声音交给 Transformer 时是一段波形：每秒 16000 个数。Whisper 并不逐个读这些数，而是拿一个 25 毫秒的窗口沿着声音滑动，"
              "每次移动 10 毫秒，把每个窗口变成 80 个数（每个音高频带有多响：对数梅尔频谱）。随后一个小的卷积前端把相邻两帧合成一个，"
              "所以 Transformer 每 20 毫秒读到一个向量。"},
    "tsd_source": {"en": "Sound", "zh": "声音"},
    "tsd_source_speech": {"en": "speech made from text", "zh": "由文字合成的语音"},
    "tsd_source_record": {"en": "my recording", "zh": "我的录音"},
    "tsd_source_upload": {"en": "a WAV file", "zh": "一个 WAV 文件"},
    "tsd_text": {"en": "Text to speak", "zh": "要朗读的文字"},
    "tsd_text_help": {
        "en": "Spoken offline on this server by espeak-ng, a small speech synthesizer. The model below was trained "
              "on single spoken digits, zero to nine in English or in Mandarin: try one.",
        "zh": "由本服务器上的小型语音合成器 espeak-ng 离线朗读。下面的模型是用单个数字（英语或普通话的零到九）的读音训练的，"
              "可以试一个。"},
    "tsd_lang": {"en": "Voice", "zh": "发音"},
    "tsd_lang_en": {"en": "English", "zh": "英语"},
    "tsd_lang_zh": {"en": "Mandarin", "zh": "普通话"},
    "tsd_voice": {"en": "Speaker", "zh": "说话人"},
    "tsd_voice_default": {"en": "default", "zh": "默认"},
    "tsd_voice_f3": {"en": "a female variant", "zh": "一种女声"},
    "tsd_voice_m3": {"en": "a male variant", "zh": "一种男声"},
    "tsd_record": {"en": "Record with the microphone", "zh": "用麦克风录音"},
    "tsd_record_help": {
        "en": "Recorded by your browser at 16 kHz; the first 30 seconds are analysed.",
        "zh": "由浏览器以每秒 16000 个采样点录制；只分析前 30 秒。"},
    "tsd_record_wait": {"en": "Record something to see how it is cut into frames and tokens.",
                        "zh": "录一段声音，看看它怎样被切成帧和词元。"},
    "tsd_upload": {"en": "A WAV file", "zh": "一个 WAV 文件"},
    "tsd_upload_help": {
        "en": "Any sample rate from 1,000 to 192,000 Hz (resampled to 16,000), mono or several channels (averaged); "
              "the first 30 seconds are analysed.",
        "zh": "采样率 1000 到 192000 Hz 均可（重采样为 16000 Hz），单声道或多声道（取平均）；只分析前 30 秒。"},
    "tsd_upload_wait": {"en": "Choose a WAV file to see how it is cut into frames and tokens.",
                        "zh": "请选择一个 WAV 文件，看看它怎样被切成帧和词元。"},
    "tsd_bad_too_big": {"en": "This file has {size} MB; the limit is {limit} MB. Nothing was changed.",
                        "zh": "这个文件有 {size} MB，上限是 {limit} MB。什么都没有改变。"},
    "tsd_bad_not_audio": {"en": "This file is not a WAV recording that can be read; nothing was changed.",
                          "zh": "这个文件不是能读取的 WAV 录音；什么都没有改变。"},
    "tsd_bad_bad_rate": {"en": "This file says its sample rate is {rate} Hz; rates from {low} to {high} Hz can be read.",
                         "zh": "这个文件标明的采样率是 {rate} Hz；能读取的采样率在 {low} 到 {high} Hz 之间。"},
    "tsd_bad_too_short": {
        "en": "This recording is {ms} ms long: shorter than one 25 ms window ({n} of the {need} samples it needs), "
              "so it makes no frame.",
        "zh": "这段录音只有 {ms} 毫秒，不够一个 25 毫秒的窗口（有 {n} 个采样点，需要 {need} 个），切不出一帧。"},
    "tsd_note_mono": {"en": "The file has {channels} channels; they were averaged into one.",
                      "zh": "文件有 {channels} 个声道，已取平均合成一个。"},
    "tsd_note_resampled": {"en": "Recorded at {rate} Hz; resampled to {to} Hz, Whisper's rate.",
                           "zh": "录制的采样率是 {rate} Hz，已重采样为 Whisper 用的 {to} Hz。"},
    "tsd_note_cut": {"en": "The recording is {seconds} s long; only its first {limit} s are analysed, as Whisper "
                           "reads one 30 s piece at a time.",
                     "zh": "录音长 {seconds} 秒；只分析前 {limit} 秒，因为 Whisper 一次读一段 30 秒。"},
    "tsd_note_clipped": {"en": "Some samples were past full scale or not numbers; they were clipped to ±1 (or 0).",
                         "zh": "有些采样值超出满刻度或不是数字，已截到 ±1（或 0）。"},
    "tsd_note_silent": {"en": "This recording is silent (every sample is zero or nearly so). It is shown anyway: "
                              "its spectrogram is flat.",
                        "zh": "这段录音是静音（所有采样值都是零或接近零）。仍然照常显示：它的频谱是平的。"},
    "refused_sound_empty": {"en": "There is no text to speak (or espeak-ng made no sound for it): type a word.",
                            "zh": "没有可以朗读的文字（或者 espeak-ng 没有为它发出声音）：请输入一个词。"},
    "refused_sound_no_espeak": {
        "en": "This server has no espeak-ng (the speech synthesizer), so it cannot make speech from text. Record "
              "or upload a WAV file instead.",
        "zh": "本服务器没有安装语音合成器 espeak-ng，无法把文字变成语音。请改为录音或上传 WAV 文件。"},
    "refused_sound_text_too_long": {"en": "The text is longer than {limit} characters; shorten it.",
                                    "zh": "文字超过 {limit} 个字符，请缩短。"},
    "refused_sound_espeak_failed": {"en": "espeak-ng could not speak this text; try other words.",
                                    "zh": "espeak-ng 无法朗读这段文字，请换一些词。"},
    # ---- counts ----
    "tsd_count_title": {"en": "From samples to frames to tokens", "zh": "从采样点到帧再到词元"},
    "tsd_col_step": {"en": "step", "zh": "步骤"},
    "tsd_col_this": {"en": "this sound", "zh": "这段声音"},
    "tsd_col_chunk": {"en": "Whisper's 30 s piece", "zh": "Whisper 的一段 30 秒"},
    "tsd_row_samples": {"en": "samples ({rate} a second)", "zh": "采样点（每秒 {rate} 个）"},
    "tsd_row_frames": {"en": "frames: a {window}-sample (25 ms) window every {hop} samples (10 ms)",
                       "zh": "帧：每隔 {hop} 个采样点（10 毫秒）取一个 {window} 个采样点（25 毫秒）的窗口"},
    "tsd_row_tokens": {"en": "tokens after the stride-2 convolution stem (one per 20 ms)",
                       "zh": "步长为 2 的卷积前端之后的词元（每 20 毫秒一个）"},
    "tsd_count_caption": {
        "en": "{n} samples ÷ {hop} = {frames} frames (the last partial step dropped); the stem's second convolution "
              "has stride 2, so {frames} frames give ⌈frames ÷ 2⌉ = {tokens} tokens. Each frame is 80 numbers, each "
              "token a d_model-wide vector.",
        "zh": "{n} 个采样点 ÷ {hop} = {frames} 帧（最后不满一步的部分丢掉）；前端的第二个卷积步长为 2，所以 {frames} 帧"
              "得到 ⌈帧数 ÷ 2⌉ = {tokens} 个词元。每帧是 80 个数，每个词元是一个 d_model 维的向量。"},
    # ---- figures ----
    "tsd_seconds": {"en": "s", "zh": "秒"},
    "tsd_time_axis": {"en": "time (s)", "zh": "时间（秒）"},
    "tsd_wave_title": {"en": "The waveform", "zh": "波形"},
    "tsd_wave_axis": {"en": "amplitude", "zh": "振幅"},
    "tsd_mel_title": {"en": "Log-mel spectrogram: {bins} bins × {frames} frames (one column per 10 ms)",
                      "zh": "对数梅尔频谱：{bins} 个频带 × {frames} 帧（每 10 毫秒一列）"},
    "tsd_mel_axis": {"en": "mel bin", "zh": "梅尔频带"},
    "tsd_mel_value": {"en": "log-mel", "zh": "对数梅尔值"},
    "tsd_att_query": {"en": "query token at (s)", "zh": "查询词元的时间（秒）"},
    "tsd_att_key": {"en": "key token at (s)", "zh": "被看的词元的时间（秒）"},
    "tsd_att_value": {"en": "attention", "zh": "注意力"},
    "tsd_fig_caption": {
        "en": "Each column of the spectrogram is one frame ({frames} here), drawn at its window's centre: frame i "
              "looks at the 25 ms around i × 10 ms.",
        "zh": "频谱的每一列是一帧（这里共 {frames} 帧），画在它的窗口中心：第 i 帧看的是 i × 10 毫秒前后共 25 毫秒。"},
    "tsd_att_caption_cls": {
        "en": "Under it, each row is one head (and the rollout through both layers): how much [CLS], the vector the "
              "answer is read from, takes from each audio token, placed at the token's time, so a bright cell sits "
              "under the sound it reads. The red box is the stretch the model reads; past the sound's end it hears "
              "the silence it was padded with.",
        "zh": "下面每一行是一个头（以及贯穿两层的注意力展开）：读出答案的向量 [CLS] 从每个音频词元取了多少，画在词元的时间上，"
              "所以亮的格子正好在它读的那段声音下面。红框是模型读的那一段；声音结束之后，它听到的是补上的静音。"},
    "tsd_att_caption_map": {
        "en": "Under it, row = the audio token that looks (the query), column = the token it looks at, both placed at "
              "their time, so a bright column sits under the sound many tokens read. The red box is the stretch the "
              "model reads.",
        "zh": "下面的图中，行是发出注意的音频词元（查询），列是被看的词元，两者都放在各自的时间上，所以亮的一列正好在许多词元"
              "都去读的那段声音下面。红框是模型读的那一段。"},
    "tsd_zoom_title": {"en": "{n} frames up close: {win} ms windows, one every {ms} ms, overlapping",
                       "zh": "放大看 {n} 帧：{win} 毫秒的窗口，每 {ms} 毫秒一个，互相重叠"},
    "tsd_frame_n": {"en": "frame {n}", "zh": "第 {n} 帧"},
    "tsd_token_n": {"en": "token {n}", "zh": "词元 {n}"},
    "tsd_zoom_caption": {
        "en": "The loudest stretch of the sound with the {n} frames around it. Each bump is one frame's Hann "
              "window: 25 ms wide, starting 10 ms after the one before, so every moment of sound is seen by two or "
              "three frames. The dotted lines are the tokens' centres after the stem: every second frame, 20 ms apart.",
        "zh": "声音最响的一段和它附近的 {n} 帧。每个鼓包是一帧的汉宁窗：宽 25 毫秒，比前一帧晚 10 毫秒开始，所以每一刻的声音"
              "都被两到三帧看到。虚线是前端之后各词元的中心：每隔一帧一个，相距 20 毫秒。"},
    "tsd_mis_common": {
        "en": "Speech becomes one token every 30 ms, each token 80 log-mel numbers; cutting the sound into pieces is "
              "all there is to it.",
        "zh": "语音每 30 毫秒变成一个词元，每个词元是 80 个对数梅尔值；把声音切成段就完事了。"},
    "tsd_mis_shown": {
        "en": "30 is the length of Whisper's input in seconds, not the spacing in milliseconds. The spectrogram has "
              "one frame every 10 ms, each computed from a 25 ms window (neighbouring windows overlap), and each "
              "frame holds the 80 log-mel numbers. The tokens come later: two convolutions (the second with stride 2) "
              "turn pairs of frames into one d_model-wide vector, one every 20 ms. Here: {frames} frames → {tokens} "
              "tokens; {chunk} s → {chunk_frames} frames → {chunk_tokens} tokens.",
        "zh": "30 是 Whisper 一次输入的秒数，而不是以毫秒计的间隔。频谱每 10 毫秒一帧，每帧由一个 25 毫秒的窗口算出"
              "（相邻窗口互相重叠），80 个对数梅尔值属于帧。词元在后面才出现：两层卷积（第二层步长为 2）把每两帧变成一个"
              " d_model 维的向量，每 20 毫秒一个。这里：{frames} 帧 → {tokens} 个词元；{chunk} 秒 → {chunk_frames} 帧 → {chunk_tokens} 个词元。"},
    # ---- the model ----
    "tsd_layer_n": {"en": "layer {n}", "zh": "第 {n} 层"},
    "tsd_head_n": {"en": "head {n}", "zh": "第 {n} 个头"},
    "tsd_head_mean": {"en": "mean of the heads", "zh": "各头的平均"},
    "tsd_att_pick": {"en": "Attention drawn under the spectrogram", "zh": "画在频谱下面的注意力"},
    "tsd_att_pick_help": {
        "en": "[CLS] is the extra vector the model reads its answer from: its row shows which moments it listens "
              "to, in every head. A layer's head shows every audio token's attention to every other.",
        "zh": "[CLS] 是模型从中读出答案的额外向量：它的那一行显示模型在每个头里听哪些时刻。选一层的某个头，则显示每个音频词元对其他每个词元的注意力。"},
    "tsd_att_cls": {"en": "from [CLS], every head", "zh": "从 [CLS] 出发，所有头"},
    "tsd_att_rollout": {"en": "rollout", "zh": "注意力展开"},
    "tsd_att_title_cls": {"en": "What [CLS] listens to: its attention over the {tokens} audio tokens, on the same "
                                "time axis",
                          "zh": "[CLS] 在听什么：它在 {tokens} 个音频词元上的注意力，与上面共用时间轴"},
    "tsd_att_title_map": {"en": "Attention among the {tokens} audio tokens (row: the token that looks), same time axis",
                          "zh": "{tokens} 个音频词元之间的注意力（行：发出注意的词元），与上面共用时间轴"},
    "tsd_digit": {"en": "{d} ({word})", "zh": "{d}（{word}）"},
    "tsd_model_caption": {
        "en": "The model reads {clip:.2f} s, from {start:.2f} s to {end:.2f} s (the red box above): from just before "
              "the first loud moment, cut or padded with silence to the length it was trained on.",
        "zh": "模型读 {clip:.2f} 秒，从 {start:.2f} 秒到 {end:.2f} 秒（上图的红框）：从第一个响亮时刻稍前开始，"
              "截断或用静音补齐到训练时的长度。"},
    "tsd_model_title": {"en": "A small audio Transformer hearing digits", "zh": "一个听数字的小型音频 Transformer"},
    "tsd_model_intro": {
        "en": "Our own Transformer (encoder) reads the tokens of a Whisper-like stem and says which spoken digit it "
              "heard, in English or Mandarin. It was trained on digits spoken by espeak-ng with several voices, "
              "speeds and pitches; anything else it hears is still read as one of its digits.",
        "zh": "我们自己的 Transformer（编码器）读一个类似 Whisper 的前端给出的词元，判断听到的是哪个数字（英语或普通话）。"
              "它用 espeak-ng 以多种声音、语速和音高读出的数字训练；听到别的内容时，它仍会把它读成某个数字。"},
    "tsd_pred": {"en": "The model hears **{word}** ({prob:.0%}).", "zh": "模型听到的是 **{word}**（{prob:.0%}）。"},
    "tsd_col_word": {"en": "word", "zh": "词"},
    "tsd_col_prob": {"en": "probability", "zh": "概率"},
    "tsd_acc_expander": {"en": "How often is it right? Held-out accuracy against baselines",
                         "zh": "它有多准？留出集准确率与基线比较"},
    "tsd_col_model": {"en": "model", "zh": "模型"},
    "tsd_col_acc": {"en": "accuracy", "zh": "准确率"},
    "tsd_acc_caption": {
        "en": "Measured by the recipe (`recipes/sound_words.py`, trained in {seconds:.0f} s on one CPU thread) on {n} "
              "held-out clips spoken by voices the model never heard in training ({voices}). The logistic "
              "regression reads the same log-mel averaged over time: it knows which sounds occur, not in what order.",
        "zh": "由训练配方（`recipes/sound_words.py`，单个 CPU 线程训练 {seconds:.0f} 秒）在 {n} 段留出录音上测得，"
              "这些录音的说话人声音模型训练时从未听过（{voices}）。逻辑回归读的是同样的对数梅尔值按时间取平均："
              "它知道出现了哪些声音，但不知道先后顺序。"},
    "tsd_m_model_en": {"en": "the audio Transformer, English digits", "zh": "音频 Transformer，英语数字"},
    "tsd_m_model_cmn": {"en": "the audio Transformer, Mandarin digits", "zh": "音频 Transformer，普通话数字"},
    "tsd_m_majority": {"en": "always the most common digit", "zh": "总是猜最常见的数字"},
    "tsd_m_logreg": {"en": "logistic regression on the time-averaged log-mel", "zh": "时间平均对数梅尔值上的逻辑回归"},
    "tsd_acc_missing": {"en": "The model's files record no held-out accuracy.",
                        "zh": "模型文件中没有记录留出集准确率。"},
    "tsd_m_model": {"en": "the audio Transformer", "zh": "音频 Transformer"},
    "tsd_no_model": {"en": "The shipped spoken-digit model is missing on this server; the spectrogram above is "
                           "complete without it.",
                     "zh": "本服务器缺少随附的数字语音模型；上面的频谱不依赖它，照常完整。"},
}
