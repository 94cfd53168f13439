"""The shipped language models (verse-lm, verse-mlm) and their corpus (models/training/corpus.py,
recipes/verse.py, verse_eval.py): they load, they are small, they generate only their own characters,
they beat count baselines computed here from the shipped corpus, and the corpus builder is
deterministic and holds out whole poems and chapters."""
from __future__ import annotations

import stat
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from cli import verse as verse_command
from lab import generate
from models.tokenizer import cjk_share
from models.training import corpus
from models.training.trainer import TrainSettings, train
from models.weights import safety, zoo
from models.weights.checkpoint import CHECKPOINT_DIR
from recipes import verse
from recipes import verse_eval
from recipes.verse_tasks import CLS, MASK, MaskedCharTask, VerseLMTask

EN_CHARS = 6000          # held-out characters scored per language (keeps the test quick)


@pytest.fixture(scope="module")
def docs():
    return corpus.load_corpus()


@pytest.fixture(scope="module")
def lm():
    return zoo.load("toy:verse-lm")


@pytest.fixture(scope="module")
def mlm():
    return zoo.load("toy:verse-mlm")


def test_shipped_models_load_small_fp16_and_are_listed_as_language_models():
    for stem, arch in (("verse-lm", "decoder"), ("verse-mlm", "encoder")):
        path = CHECKPOINT_DIR / f"{stem}.safetensors"
        assert path.stat().st_size <= 10 * 2**20
        header = safety.read_header(path)
        assert {t.dtype for t in header.tensors.values()} == {"F16"}
        entry = zoo.get(f"toy:{stem}")
        assert entry.available and entry.kind == "lm" and entry.task is None
        assert entry.config.arch == arch and entry.config.output == "logits"
        assert "toy" not in entry.label.lower()
        assert entry.card["description"] and entry.card["description_zh"]
        model, tok = zoo.load(entry.key)
        assert model.cfg.vocab_size == tok.vocab_size
    # the language models come first among the shipped checkpoints
    assert [e.kind for e in zoo.toy_entries()][:2] == ["lm", "lm"]


@pytest.mark.parametrize("temperature", [0.0, 0.9])
def test_generation_writes_only_characters_of_the_vocabulary(lm, temperature):
    model, tok = lm
    for prompt in verse.PROMPTS.values():
        ids = tok.encode(prompt).ids
        out = model.generate(ids, 40, temperature=temperature, seed=3)[0].tolist()
        new = out[len(ids):]
        assert all(0 <= i < tok.vocab_size for i in new)
        text = tok.decode(new)
        assert set(text) <= set(tok.vocab)
        assert tok.unk_id not in new or temperature > 0           # greedy never picks <unk>


def test_lm_beats_the_bigram_baseline_on_held_out_text(lm, docs):
    """On held-out modern Chinese, on English and overall the LM beats the bigram fitted on the
    training text; on the held-out poems (a few thousand characters, many of them rare) it
    beats the unigram (docs/benchmarks.md, "Shipped language models")."""
    model, tok = lm
    v = tok.vocab_size
    got, n = {}, {}
    for part in corpus.PARTS:
        train_ids = verse_eval.ids_of(tok, corpus.split_text(docs, False, part))
        test_ids = verse_eval.ids_of(tok, corpus.split_text(docs, True, part))[:EN_CHARS]
        uni = verse_eval.unigram_bits(train_ids, test_ids, v)[0]
        bi = verse_eval.bigram_bits(train_ids, test_ids, v)[0]
        bits = verse_eval.lm_bits(model, test_ids)
        assert bi < uni                                        # the baselines are sane
        assert bits < uni, (part, bits, uni)
        got[part], n[part] = (bits, bi), len(test_ids) - 1
    assert got["zh-modern"][0] < got["zh-modern"][1], got["zh-modern"]
    assert got["en"][0] < got["en"][1], got["en"]
    overall = [sum(got[k][i] * n[k] for k in n) / sum(n.values()) for i in (0, 1)]
    assert overall[0] < overall[1], overall


def test_mlm_predicts_masked_characters_better_than_the_unigram(mlm, docs):
    model, tok = mlm
    task = verse.mlm_task(docs)
    assert task.tokenizer.vocab == tok.vocab                   # the shipped corpus gives the shipped vocabulary
    for part in corpus.PARTS:
        train_ids = verse_eval.ids_of(tok, corpus.split_text(docs, False, part))
        test_ids = verse_eval.ids_of(tok, corpus.split_text(docs, True, part))[:EN_CHARS]
        bits, acc, n = verse_eval.mlm_bits(model, task, test_ids)
        assert n > 100
        assert bits < verse_eval.masked_positions_unigram(train_ids, test_ids, tok.vocab_size), part


def test_a_chinese_sentence_has_no_unknown_characters_for_verse_mlm(mlm):
    _, tok = mlm
    sentence = "床前明月光，疑是地上霜。举头望明月，低头思故乡。"
    enc = tok.encode(sentence)
    assert tok.unk_id not in enc.ids and len(enc.ids) == len(sentence)
    assert MASK in tok.vocab and CLS in tok.vocab


def test_cjk_share():
    assert cjk_share("床前明月光，疑是地上霜。") == 1.0
    assert cjk_share("The LORD is my shepherd;") == 0.0
    assert cjk_share("") == 0.0 and cjk_share("，。 ") == 0.0
    assert cjk_share("ab明月") == 0.5


def test_language_prompts_put_the_ui_language_first():
    card = {"prompts": verse.PROMPTS}
    assert [k for k, _ in generate.language_prompts(card, "zh")] == ["zh", "en"]
    assert [k for k, _ in generate.language_prompts(card, "en")] == ["en", "zh"]
    assert generate.language_prompts({}, "en") == [] and generate.language_prompts({"prompts": "x"}, "en") == []


# ---- the corpus -----------------------------------------------------------------------------------
def test_shipped_corpus_splits_whole_poems_and_chapters(docs):
    by_source: dict[str, list[corpus.Doc]] = {}
    for d in docs:
        by_source.setdefault(d.source, []).append(d)
    assert list(by_source) == ["tang300", "song100", "kjv-ps", "kjv-pr", "kjv-ec", "kjv-so",
                               "debref", "debfaq", "manpages-zh"]     # verse.txt.xz, then zh_modern.txt.xz
    assert [d.source for d in corpus.load_corpus(corpus.CORPUS_PATH)][-1] == "kjv-so"
    assert len(by_source["kjv-ps"]) == 150
    for source, items in by_source.items():
        assert [d.index for d in items] == list(range(len(items)))
        assert all(d.heldout == (d.index % 10 == 9) for d in items)
    train_text = corpus.split_text(docs, False)
    for d in docs:
        if d.heldout and len(d.text) > 40:
            assert d.text not in train_text
    assert corpus.parse(corpus.serialise(docs)) == docs
    # the famous prompt's poem is trained on
    assert "床前明月光" in corpus.split_text(docs, False, "zh")


FAKE_BIBLE = '''#!{python}
import sys
spec = sys.argv[-1]                    # e.g. ps3:1-3:200
book = "".join(c for c in spec if c.isalpha())
ch = int(spec[len(book):].split(":")[0])
short = {{"ps": "Psa", "pr": "Prv", "ec": "Eccl", "so": "SSol"}}[book]
for v in range(1, 4):
    print(f"{{short}}{{ch}}:{{v}} Verse {{v}} of {{book}} chapter {{ch}}, and the LORD")
'''


def _fake_sources(tmp: Path) -> tuple[Path, Path, Path]:
    fortunes = tmp / "fortunes"
    fortunes.mkdir()
    for name, n in (("tang300", 23), ("song100", 12)):
        entries = [f"\x1b[32m《诗{i}》\x1b[m\n\x1b[33m作者：某{i}（９８７－１０５３）\x1b[m\n"
                   f"春眠不觉晓{i}，处处闻啼鸟。\n" for i in range(n)]
        (fortunes / name).write_text("%\n".join(entries) + "%\n", encoding="utf-8")
    bible = tmp / "bible"
    bible.write_text(FAKE_BIBLE.format(python=sys.executable))
    bible.chmod(bible.stat().st_mode | stat.S_IEXEC)
    data = tmp / "lib"
    data.mkdir()
    (data / "bible.data").write_bytes(b"x")
    return fortunes, bible, data


def test_corpus_builder_is_deterministic_and_holds_out_every_tenth(tmp_path):
    fortunes, bible, data = _fake_sources(tmp_path)
    a = corpus.build_corpus(fortunes, str(bible), data)
    b = corpus.build_corpus(fortunes, str(bible), data)
    assert a == b
    p1 = corpus.write_corpus(a, tmp_path / "one.txt.xz")
    p2 = corpus.write_corpus(b, tmp_path / "two.txt.xz")
    assert p1.read_bytes() == p2.read_bytes()
    assert corpus.load_corpus(p1) == a
    tang = [d for d in a if d.source == "tang300"]
    assert len(tang) == 23 and [d.index for d in tang if d.heldout] == [9, 19]
    # colours, the 作者 prefix and the life dates cleaned
    assert tang[0].text == "《诗0》某0\n春眠不觉晓0，处处闻啼鸟。"
    ps = [d for d in a if d.source == "kjv-ps"]
    assert len(ps) == 150 and ps[0].text.splitlines()[0] == "Verse 1 of ps chapter 1, and the LORD"
    assert all(d.lang == "en" for d in a if d.source.startswith("kjv"))


def test_missing_packages_give_the_apt_command(tmp_path):
    with pytest.raises(corpus.MissingSource, match="apt-get install -y fortunes-zh bible-kjv bible-kjv-text"):
        corpus.build_corpus(tmp_path, str(tmp_path / "no-bible"), tmp_path)
    assert verse_command.main(["corpus", "--only", "verse", "--fortunes", str(tmp_path), "--bible",
                               str(tmp_path / "x")]) == 2


# ---- the training extensions ------------------------------------------------------------------------
def _texts():
    return {"zh": "床前明月光，疑是地上霜。举头望明月，低头思故乡。\n" * 8,
            "en": "The LORD is my shepherd; I shall not want.\n" * 8}


def test_verse_tasks_batches():
    lm_task = VerseLMTask(_texts(), {"zh": 0.5, "en": 0.5}, train_len=16)
    b = lm_task.batch(8, np.random.default_rng(0))
    assert b.ids.shape == (8, 16) and torch.equal(b.ids[:, 1:], b.targets[:, :-1])
    mlm_task = MaskedCharTask(_texts(), None, train_len=16)
    m = mlm_task.batch(64, np.random.default_rng(0))
    assert m.ids.shape == (64, 16) and (m.ids[:, 0] == mlm_task.cls_id).all()
    chosen = m.targets != -100
    assert 0.08 < float(chosen.float().mean()) < 0.22
    assert float((m.ids[chosen] == mlm_task.mask_id).float().mean()) > 0.6
    assert (m.ids[~chosen][m.ids[~chosen] != mlm_task.cls_id] != mlm_task.mask_id).all()


def test_time_budget_stops_training_and_keeps_the_schedule_bounded():
    task = VerseLMTask(_texts(), None, train_len=16)
    cfg = task.default_config(d_model=16, n_layers=1, n_heads=2, d_ff=32)
    run = train(task, cfg, TrainSettings(steps=500, batch_size=4, eval_size=4, time_budget=1e-6))
    assert run.state == "done" and run.step == 1
    s = TrainSettings(steps=100, warmup=0, time_budget=10.0)
    assert s.lr_at(1, 10.0) == pytest.approx(0.1 * s.lr)          # the clock is up: the floor of the decay
    assert s.lr_at(1, 0.0) == pytest.approx(s.lr, rel=1e-3)
    with pytest.raises(ValueError):
        TrainSettings(time_budget=0)


def test_the_report_replaces_its_own_section_and_keeps_the_next_benchmarks_marker(tmp_path, monkeypatch):
    """The section sits between other benchmarks' `<!-- bench:NAME -->` blocks: rewriting it
    must stop at the next marker (it once swallowed the real-size block's opening marker)."""
    doc = tmp_path / "benchmarks.md"
    doc.write_text("# B\n\n<!-- bench:a -->\nA\n<!-- /bench:a -->\n\n" + verse_eval.SECTION + "\n\nold numbers\n\n"
                   "<!-- bench:real_size -->\n## Real size\nR\n<!-- /bench:real_size -->\n", encoding="utf-8")
    monkeypatch.setattr(verse_eval, "markdown_section", lambda report: verse_eval.SECTION + "\n\nnew numbers\n\n")
    verse_eval.update_benchmarks({}, doc)
    text = doc.read_text(encoding="utf-8")
    assert "new numbers" in text and "old numbers" not in text
    assert "<!-- bench:real_size -->\n## Real size\nR\n<!-- /bench:real_size -->" in text
    assert "<!-- bench:a -->\nA\n<!-- /bench:a -->" in text
