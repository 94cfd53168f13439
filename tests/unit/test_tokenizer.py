import pytest

from models import CharTokenizer, WordTokenizer
from models.tokenizer import minilm_tokenizer, tokenizer_from_dict


def test_char_tokenizer_round_trip_and_unknown():
    tok = CharTokenizer.from_corpus(["abc ab"])
    enc = tok.encode("cab!")
    assert enc.tokens == ["c", "a", "b", "<unk>"] and enc.ids[-1] == tok.unk_id
    assert tok.decode(tok.encode("ab c").ids) == "ab c"
    assert tok.encode("").ids == [] and not tok.encode("").truncated


def test_word_tokenizer_splits_punctuation_and_cjk():
    tok = WordTokenizer.from_corpus(["x"])
    pieces = [p for p, _, _ in tok.split("Hello, world! 注意力机制 isn't")]
    assert pieces == ["Hello", ",", "world", "!", "注", "意", "力", "机", "制", "isn", "'", "t"]
    enc = WordTokenizer.from_corpus(["the cat sat"]).encode("the dog sat")
    assert enc.tokens == ["the", "<unk>", "sat"]
    assert enc.offsets == [(0, 3), (4, 7), (8, 11)]


def test_truncation_is_reported():
    tok = CharTokenizer.from_corpus(["abcdef"])
    enc = tok.encode("abcdefabcdef", max_len=5)
    assert enc.ids == tok.encode("abcde").ids and enc.truncated and enc.n_tokens_before_truncation == 12
    with pytest.raises(ValueError, match="max_len"):
        tok.encode("abc", max_len=0)
    with pytest.raises(ValueError, match="string"):
        tok.encode(None)


def test_serialisation():
    tok = WordTokenizer.from_corpus(["a b c", "b c"], lowercase=True, add_bos=True)
    back = tokenizer_from_dict(tok.to_dict())
    assert back.vocab == tok.vocab and back.encode("A b").ids == tok.encode("A b").ids
    assert back.encode("a").tokens[0] == "<bos>"


def test_minilm_wordpiece():
    tok = minilm_tokenizer()
    assert tok.vocab_size == 30522
    enc = tok.encode("Hello world, 世界! <b>x</b>")
    assert enc.tokens[0] == "[CLS]" and enc.tokens[-1] == "[SEP]"
    assert enc.tokens[:4] == ["[CLS]", "hello", "world", ","] and "世" in enc.tokens and "<" in enc.tokens
    assert "[UNK]" in enc.tokens         # 界 is not in the uncased BERT vocabulary
    assert enc.ids[:3] == [101, 7592, 2088]
    assert tok.encode("").tokens == ["[CLS]", "[SEP]"]
    assert tok.encode("😀").tokens == ["[CLS]", "[UNK]", "[SEP]"]
    long = tok.encode("word " * 600, max_len=512)
    assert len(long) == 512 and long.truncated and long.n_tokens_before_truncation == 602
    assert long.tokens[-1] == "[SEP]"                      # special tokens survive truncation
    wp = tok.encode("unbelievable tokenization").tokens
    assert any(t.startswith("##") for t in wp)
    assert tokenizer_from_dict(tok.to_dict()).encode("hello").ids == tok.encode("hello").ids
