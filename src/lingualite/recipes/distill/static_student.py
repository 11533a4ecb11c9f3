"""The static student (``student.kind: static``): one embedding row per vocabulary token, sentence = mean of
its tokens' rows. No transformer: encoding is a table lookup and a mean, the speed tier of model2vec and
sentence-transformers' ``StaticEmbedding`` — but trained, like the transformer student, on the teacher's
vectors of the English sentence AND its translation (paper 002's objective), instead of being read off a
transformer token by token as model2vec does.

Special tokens ([CLS], [SEP], padding) are left out of the mean, because ``StaticEmbedding`` tokenizes without
them at inference; the saved folder is ``StaticEmbedding`` (safetensors + ``tokenizer.json``), which
sentence-transformers loads and ``static:FOLDER`` encodes in numpy.
"""

from __future__ import annotations

from pathlib import Path

import torch
from torch import nn
from transformers import PreTrainedTokenizerFast

from lingualite.config.encoder import EncoderConfig
from lingualite.models.sentence_encoder import SentenceEncoder


class StaticStudent(SentenceEncoder):
    """``Embedding(vocab, output_dim)`` and a masked mean over the non-special tokens.

    :param cfg: only ``vocab_size`` and ``max_seq_length`` are used (the shared student interface).
    :param special_ids: token ids left out of the mean ([CLS], [SEP], [PAD], ...).
    """

    def __init__(self, cfg: EncoderConfig, output_dim: int, special_ids: list[int]) -> None:
        super().__init__()
        self.cfg, self.output_dim, self.max_seq_length = cfg, output_dim, cfg.max_seq_length
        self.embedding = nn.Embedding(cfg.vocab_size, output_dim)
        self.register_buffer(
            "special", torch.tensor(sorted(set(special_ids)), dtype=torch.long), persistent=False
        )

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        keep = attention_mask.bool() & ~torch.isin(input_ids, self.special)
        rows = self.embedding(input_ids) * keep.unsqueeze(-1)
        return rows.sum(1) / keep.sum(1, keepdim=True).clamp(min=1)

    @torch.no_grad()
    def match_output_scale(self, target_rms: float) -> None:
        """Rows of the teacher vectors' size: a sentence (a mean of rows) starts a little smaller than its
        target, so early steps grow it towards the target instead of first shrinking noise."""
        nn.init.normal_(self.embedding.weight, std=target_rms)

    def token_embeddings(self) -> nn.Embedding:
        return self.embedding

    def save(self, tokenizer: PreTrainedTokenizerFast, path: str | Path) -> Path:
        """A sentence-transformers ``StaticEmbedding`` folder (atomically, safetensors only)."""
        from sentence_transformers import SentenceTransformer
        from sentence_transformers.sentence_transformer.modules import StaticEmbedding

        from lingualite.core.io_utils import atomic_dir

        path = Path(path)
        weights = self.embedding.weight.detach().cpu().float().clone()
        with atomic_dir(path) as out:
            module = StaticEmbedding(tokenizer.backend_tokenizer, embedding_weights=weights)
            SentenceTransformer(modules=[module], device="cpu").save(str(out), safe_serialization=True)
        return path


def special_token_ids(tokenizer: PreTrainedTokenizerFast) -> list[int]:
    return [int(i) for i in tokenizer.all_special_ids]
