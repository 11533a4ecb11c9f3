"""Sentence-transformers folders as encoders: lingualite's own models and any other such folder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from lingualite.core.system import available_cpus
from lingualite.models.run_folder import RunFolder
from lingualite.text.sanitation import check_texts

__all__ = ["SentenceTransformerEncoder", "encode_pipelined", "model_folder_bytes"]


# Files of a model folder that loading does not need: documentation, a lingualite run's files beside the
# model, and training artefacts of other tools.
_NOT_MODEL_FILES = {
    "README.md",
    "lingualite_checksums.json",
    *RunFolder.FILES,
    "results.json",
    "results.md",
    "data_config.json",
    "train_script.py",
    ".gitattributes",
}


def model_folder_bytes(path: str | Path) -> int:
    """Bytes of the files sentence-transformers loads from ``path``.

    The folders named in ``modules.json`` are summed non-recursively (so ``checkpoints/`` and a spare
    ``tokenizer/`` folder of a lingualite run are not counted), documentation/training files are left out,
    and ``pytorch_model.bin`` is left out when ``model.safetensors`` (which is what gets loaded) is there.
    """
    path = Path(path)
    modules = json.loads((path / "modules.json").read_text())
    folders = {path / m.get("path", "") for m in modules} | {path}
    total = 0
    for folder in folders:
        if not folder.is_dir():  # modules without files (e.g. Normalize) name a folder that does not exist
            continue
        names = {f.name for f in folder.iterdir() if f.is_file()}
        for name in names:
            if name in _NOT_MODEL_FILES or name.startswith("."):
                continue
            if name == "pytorch_model.bin" and "model.safetensors" in names:
                continue
            total += (folder / name).stat().st_size
    return total


class SentenceTransformerEncoder:
    """Any sentence-transformers folder, lingualite's own models included.

    On a CPU it encodes through sentence-transformers' own ``encode`` in float32 (as it always did). On CUDA
    the weights are cast to bfloat16 (float16 on cards without it: :func:`lingualite.core.device.inference_dtype`)
    and :func:`encode_pipelined` keeps the GPU fed; vectors are float32 either way.

    :param batch_size: sentences per forward pass (None: :func:`lingualite.core.device.encode_batch_size`, 128 on
        a CPU, 512 on a GPU).
    :param threads: torch intra-op threads (``torch.set_num_threads``, process-wide); default: all cores
        available to the process.
    :param name: label for reports; default: the folder's name.
    :param device: the :mod:`lingualite.core.device` rule (``auto``, ``cpu``, ``cuda``, ``cuda:N``).
    :param dtype: the weights' dtype on a GPU (None: :func:`lingualite.core.device.inference_dtype`); a CPU
        always keeps the folder's float32.
    """

    def __init__(
        self,
        path: str | Path,
        batch_size: int | None = None,
        threads: int | None = None,
        name: str | None = None,
        device: str | Any = "auto",
        dtype: Any = None,
    ) -> None:
        import torch

        from lingualite.core.device import announce, encode_batch_size, inference_dtype, resolve_device
        from lingualite.models.checked_loading import load_sentence_transformer

        path = Path(path)
        self.device = resolve_device(device)
        self.threads = threads or available_cpus()
        if torch.get_num_threads() != self.threads:
            torch.set_num_threads(self.threads)
        # checked: one-line errors, safetensors only
        self.model = load_sentence_transformer(path, device=self.device)
        if self.device.type == "cuda":
            self.model.to(dtype or inference_dtype(self.device))
        announce(self.device, str(device), f"{str(self.model.dtype).removeprefix('torch.')} weights")
        self.path = path
        self.name = name or path.resolve().name
        self.batch_size = encode_batch_size(self.device, batch_size)
        self.last_unknown = (0.0, 0)  # see unknown_report()
        if (getattr(self.model, "prompts", None) or {}).get("query"):
            # Only an asymmetric model (a non-empty "query" prompt, e.g. lingualite's distilled ranker; ST >= 6
            # saves empty ones for every model) has encode_queries: IR, search and serving test for it.
            self.encode_queries = self._encode_queries

    def _encode_queries(self, texts: list[str]) -> np.ndarray:
        """Queries of an asymmetric retrieval task: the folder's ``query`` prompt."""
        return self.encode(texts, prompt_name="query")

    @property
    def dimension(self) -> int:
        return _dimension(self.model)

    def encode(self, texts: list[str], prompt_name: str | None = None) -> np.ndarray:
        """:param prompt_name: one of the folder's prompts (None: its default prompt, if any)."""
        check_texts(texts)
        if len(texts) == 0:  # sentence-transformers returns shape (0,) here
            return np.zeros((0, self.dimension), dtype=np.float32)
        from lingualite.core.device import out_of_memory_hint

        try:
            with out_of_memory_hint(self.batch_size, "--batch-size"):
                if self.device.type == "cuda":
                    vectors = encode_pipelined(self.model, texts, self.batch_size, prompt_name)
                else:
                    vectors = self.model.encode(
                        texts,
                        prompt_name=prompt_name,
                        batch_size=self.batch_size,
                        convert_to_numpy=True,
                        show_progress_bar=False,
                    )
        except (ValueError, AttributeError, KeyError, IndexError, TypeError, RuntimeError) as exc:
            # A folder that loads but cannot encode has damaged module settings (e.g. sentence_bert_config)
            from lingualite.models.checked_loading import ModelFolderError

            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise ModelFolderError(self.path, f"loads but cannot encode ({first})") from exc
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[0] != len(texts) or not np.isfinite(vectors).all():
            from lingualite.models.checked_loading import ModelFolderError

            raise ModelFolderError(self.path, f"gives vectors of shape {vectors.shape} or non-finite values")
        return vectors

    def count_tokens(self, texts: list[str]) -> list[int]:
        """Tokens the model reads per text: its tokenizer's ids, special tokens included, truncated to the
        model's ``max_seq_length`` as :meth:`encode` truncates them."""
        if not texts:
            return []
        # sentence-transformers >= 6 renamed the method (the old name warns); 3.x-5.x only have the old one
        preprocess = getattr(self.model, "preprocess", None) or self.model.tokenize
        features = preprocess(list(texts))
        mask = features.get("attention_mask")
        if mask is not None:
            return [int(n) for n in mask.sum(dim=1).tolist()]
        offsets = features.get("offsets")  # a StaticEmbedding module: flat ids, one offset per text
        if offsets is not None:
            ends = [*offsets.tolist()[1:], int(features["input_ids"].numel())]
            return [int(end - begin) for begin, end in zip(offsets.tolist(), ends, strict=True)]
        return [int(ids.numel()) for ids in features["input_ids"]]

    def unknown_report(self, texts: list[str]) -> tuple[float, int]:
        """(share of tokens unknown to the vocabulary, sentences made only of unknown tokens) for ``texts``."""
        from lingualite.models.checked_loading import unknown_token_share

        self.last_unknown = unknown_token_share(getattr(self.model, "tokenizer", None), texts)
        return self.last_unknown

    def no_known_token(self, texts: list[str]) -> np.ndarray:
        """Per text: True when its tokenizer gives it only ``[UNK]`` (or no content token at all):
        :mod:`lingualite.encoders.known_tokens`."""
        from lingualite.models.checked_loading import no_known_token

        return no_known_token(getattr(self.model, "tokenizer", None), texts)

    def num_parameters(self) -> int:
        """All parameters of the loaded modules (embeddings included)."""
        return int(sum(p.numel() for p in self.model.parameters()))

    def size_on_disk_bytes(self) -> int:
        """See :func:`model_folder_bytes`."""
        return model_folder_bytes(self.path)


def encode_pipelined(
    model: Any, texts: list[str], batch_size: int, prompt_name: str | None = None
) -> np.ndarray:
    """Float32 vectors of ``texts`` from a ``SentenceTransformer``, computed as its ``encode`` does (the
    folder's prompt, tokenizer, modules) but through :func:`lingualite.models.encoding.encode_in_batches`:
    length-sorted batches, the next one tokenised in a background thread, one copy back at the end (on
    CUDA; on a CPU it runs in order and matches ``encode`` to float rounding)."""
    from lingualite.models.encoding import encode_in_batches

    prompts = getattr(model, "prompts", None) or {}
    name = prompt_name if prompt_name is not None else getattr(model, "default_prompt_name", None)
    prompt = prompts.get(name) if name else None
    preprocess = getattr(model, "preprocess", None)

    def tokenize(batch: list[str]) -> Any:
        if callable(preprocess):
            return preprocess(batch, prompt=prompt or None)
        return model.tokenize([(prompt or "") + text for text in batch])  # sentence-transformers < 6.1

    model.eval()
    device = next(model.parameters()).device
    dim = _dimension(model)
    return encode_in_batches(
        texts, tokenize, lambda f: model(f)["sentence_embedding"], device, dim, batch_size
    )


def _dimension(model: Any) -> int:
    # sentence-transformers >= 6 renamed the method (the old name warns); 3.x-5.x only have the old one
    get = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
    return int(get())
