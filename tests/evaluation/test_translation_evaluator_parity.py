"""P@1 with nn/cosine equals sentence-transformers' TranslationEvaluator accuracy on the same pairs."""

from __future__ import annotations

import pytest
import torch

from lingualite.config.encoder import EncoderConfig
from lingualite.data.pairs import load_xsr_pairs
from lingualite.encoders.folder import SentenceTransformerEncoder
from lingualite.evaluation.xsr import evaluate_xsr
from lingualite.models.dual_encoder import DualEncoder


@pytest.mark.slow
def test_p_at_1_equals_translation_evaluator(tiny_tokenizer, synthetic_corpus, tmp_path) -> None:
    from sentence_transformers.sentence_transformer.evaluation import TranslationEvaluator

    torch.manual_seed(0)
    model = DualEncoder(
        EncoderConfig(vocab_size=len(tiny_tokenizer), hidden_size=32, num_heads=2, ffn_size=64)
    )
    folder = model.save(tiny_tokenizer, tmp_path / "m")
    src, tgt = load_xsr_pairs(synthetic_corpus / "en-fr" / "valid.tsv")
    ours = evaluate_xsr(SentenceTransformerEncoder(folder), src, tgt)
    evaluator = TranslationEvaluator(src, tgt, write_csv=False)
    theirs = evaluator(SentenceTransformerEncoder(folder).model)
    src2trg = next(v for k, v in theirs.items() if k.endswith("src2trg_accuracy"))
    trg2src = next(v for k, v in theirs.items() if k.endswith("trg2src_accuracy"))
    assert 0.0 < ours["p_at_1"] < 1.0  # an untrained model: neither trivial case
    assert ours["src2tgt_p_at_1"] == pytest.approx(src2trg)
    assert ours["tgt2src_p_at_1"] == pytest.approx(trg2src)
