"""One checked way to load a model folder, used by every command that reads one (encode, eval, distill's
teacher, the benchmarks).

sentence-transformers and transformers load almost anything: a folder without tokenizer files gets a
5-token fallback tokenizer (every sentence becomes ``[UNK]``, every vector the same) and damaged files end
in tracebacks from deep inside the libraries. :func:`check_model_folder` looks first, and
:func:`load_sentence_transformer` turns whatever still fails into one :class:`ModelFolderError` line that
names the folder and what is wrong. Only safetensors weights are loaded: never a pickle from a user path.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lingualite.core.errors import ModelFolderError
from lingualite.models.checksums import verify_checksums

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

# The folder of ONNX graphs inside a model folder (written by :mod:`lingualite.encoders.onnx_export`); its
# graphs are checked by the ONNX loader, not by the checksums of the folder.
ONNX_DIR = "onnx"

__all__ = [
    "ModelFolderError",
    "check_model_folder",
    "load_sentence_transformer",
    "no_known_token",
    "tokenizer_unknown_id",
    "unknown_token_share",
    "verify_checksums",
]

_TOKENIZER_FILES = ("tokenizer.json", "vocab.txt", "sentencepiece.bpe.model", "spiece.model")


def _read_json(folder: Path, path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ModelFolderError(folder, f"{path.name} is not valid JSON ({_first_line(exc)})") from exc


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def safetensors_shapes(folder: Path, path: Path) -> dict[str, list[int]]:
    """Tensor shapes from a safetensors header (8-byte little-endian length, then JSON), checked against the
    file size, without loading the weights."""
    try:
        size = path.stat().st_size
        with path.open("rb") as fh:
            head = fh.read(8)
            if len(head) < 8:
                raise ModelFolderError(folder, f"{path.name} is empty or truncated ({size} bytes)")
            (length,) = struct.unpack("<Q", head)
            if length > min(size - 8, 100_000_000):
                raise ModelFolderError(folder, f"{path.name} is not a safetensors file (bad header length)")
            header = json.loads(fh.read(length))
    except (ValueError, UnicodeDecodeError) as exc:
        raise ModelFolderError(folder, f"{path.name} is not a safetensors file (unreadable header)") from exc
    if not isinstance(header, dict):
        raise ModelFolderError(folder, f"{path.name} is not a safetensors file (header is not a mapping)")
    shapes, end = {}, 0
    for name, info in header.items():
        if name == "__metadata__":
            continue
        try:
            begin, stop = info["data_offsets"]
            shapes[name] = [int(d) for d in info["shape"]]
        except (TypeError, KeyError, ValueError) as exc:
            raise ModelFolderError(folder, f"{path.name}: bad entry for tensor {name!r}") from exc
        end = max(end, int(stop))
        if begin > stop:
            raise ModelFolderError(folder, f"{path.name}: bad offsets for tensor {name!r}")
    if 8 + length + end > size:
        raise ModelFolderError(
            folder, f"{path.name} is truncated ({size} bytes; its header describes {8 + length + end})"
        )
    return shapes


def _tokenizer_size(folder: Path, module_dir: Path) -> int | None:
    tok_json = module_dir / "tokenizer.json"
    if tok_json.exists():
        data = _read_json(folder, tok_json)
        try:
            vocab = data["model"]["vocab"]
        except (TypeError, KeyError) as exc:
            raise ModelFolderError(folder, "tokenizer.json has no model vocabulary") from exc
        added = [t.get("id", -1) for t in data.get("added_tokens") or [] if isinstance(t, dict)]
        ids = len(vocab) if isinstance(vocab, dict | list) else 0
        return max([ids, *(i + 1 for i in added if isinstance(i, int))])
    vocab_txt = module_dir / "vocab.txt"
    if vocab_txt.exists():
        return sum(1 for _ in vocab_txt.open(encoding="utf-8", errors="replace"))
    return None


def _check_transformer(folder: Path, module_dir: Path) -> None:
    """The Transformer module: config, safetensors weights, a real tokenizer that fits the embedding."""
    config = module_dir / "config.json"
    if not config.exists():
        raise ModelFolderError(folder, f"missing {config.relative_to(folder)} (the transformer's config)")
    cfg = _read_json(folder, config)
    weights = module_dir / "model.safetensors"
    if not weights.exists():
        pickled = [p.name for p in module_dir.glob("*.bin")]
        hint = f" ({', '.join(pickled)} is a pickle, which lingualite never loads)" if pickled else ""
        raise ModelFolderError(folder, f"missing {weights.relative_to(folder)}{hint}")
    shapes = safetensors_shapes(folder, weights)
    if not any(p.name in _TOKENIZER_FILES for p in module_dir.iterdir()):
        raise ModelFolderError(
            folder,
            "no tokenizer files (tokenizer.json or vocab.txt): loading would fall back to a 5-token "
            "tokenizer that maps every sentence to [UNK]",
        )
    embedding = [s for n, s in shapes.items() if n.endswith("word_embeddings.weight")]
    if not embedding:
        return
    rows, dim = embedding[0][0], embedding[0][-1]
    tokens = _tokenizer_size(folder, module_dir)
    if tokens is not None and tokens > rows:
        raise ModelFolderError(
            folder, f"the tokenizer has {tokens} tokens but the embedding matrix only {rows} rows"
        )
    hidden = cfg.get("hidden_size") if isinstance(cfg, dict) else None
    if isinstance(hidden, int) and hidden != dim:
        raise ModelFolderError(folder, f"config.json says hidden_size {hidden}, the weights have {dim}")
    if isinstance(cfg, dict) and isinstance(cfg.get("vocab_size"), int) and cfg["vocab_size"] != rows:
        raise ModelFolderError(
            folder, f"config.json says vocab_size {cfg['vocab_size']}, the embedding matrix has {rows} rows"
        )


def check_model_folder(path: str | Path) -> Path:
    """Check that ``path`` is a loadable sentence-transformers folder; raise :class:`ModelFolderError` if not."""
    folder = Path(path)
    if not folder.exists():
        raise ModelFolderError(folder, "does not exist")
    if not folder.is_dir():
        raise ModelFolderError(folder, "is a file, not a model folder")
    modules_path = folder / "modules.json"
    if not modules_path.exists():
        raise ModelFolderError(folder, "not a sentence-transformers model folder (no modules.json)")
    modules = _read_json(folder, modules_path)
    if not isinstance(modules, list) or not modules:
        raise ModelFolderError(folder, "modules.json does not list any module")
    for entry in modules:
        if not isinstance(entry, dict) or not isinstance(entry.get("type"), str):
            raise ModelFolderError(folder, f"modules.json: bad module entry {entry!r:.80}")
        module_dir = folder / str(entry.get("path", ""))
        kind = entry["type"].rsplit(".", 1)[-1]
        if kind == "Normalize":  # has no files
            continue
        if not module_dir.is_dir():
            raise ModelFolderError(folder, f"missing module folder {entry.get('path')!r} ({kind})")
        if kind == "Transformer":
            _check_transformer(folder, module_dir)
        elif kind in ("Pooling", "Dense"):
            if not (module_dir / "config.json").exists():
                raise ModelFolderError(folder, f"missing {entry.get('path')}/config.json ({kind})")
            _read_json(folder, module_dir / "config.json")
            if kind == "Dense":
                weights = module_dir / "model.safetensors"
                if not weights.exists():
                    raise ModelFolderError(folder, f"missing {entry.get('path')}/model.safetensors (Dense)")
                safetensors_shapes(folder, weights)
    verify_checksums(folder, skip=(ONNX_DIR,))  # the graphs are checked by the ONNX loader
    return folder


def load_sentence_transformer(path: str | Path, device: str | Any = "auto") -> SentenceTransformer:
    """Check ``path``, then load it with sentence-transformers (safetensors only, no remote code), waiting
    for an export in progress; any failure is one :class:`ModelFolderError` line.

    :param device: the :mod:`lingualite.core.device` rule (``auto``: a CUDA GPU when there is one, else the CPU),
        or a ``torch.device``. The weights load in float32 wherever they go."""
    from sentence_transformers import SentenceTransformer

    from lingualite.core.device import resolve_device
    from lingualite.models.export import reading_model

    device = str(resolve_device(device))
    folder = Path(path)
    with reading_model(folder) if folder.is_dir() else _nothing():
        check_model_folder(folder)
        try:
            return SentenceTransformer(
                str(folder), device=device, trust_remote_code=False, model_kwargs={"use_safetensors": True}
            )
        except (OSError, ValueError, RuntimeError, KeyError, TypeError, AttributeError, ImportError) as exc:
            raise ModelFolderError(folder, f"cannot be loaded: {_first_line(exc)}") from exc


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def tokenizer_unknown_id(tokenizer: Any) -> int | None:
    """The id of the unknown token of a ``tokenizers.Tokenizer`` (WordPiece, BPE: ``unk_token``; Unigram:
    ``unk_id``), or None when it has none."""
    model = json.loads(tokenizer.to_str()).get("model") or {}
    if isinstance(model.get("unk_id"), int):
        return int(model["unk_id"])
    token = model.get("unk_token")
    return tokenizer.token_to_id(token) if isinstance(token, str) else None


def _is_raw(tokenizer: Any) -> bool:
    """A ``tokenizers.Tokenizer`` (sentence-transformers' ``StaticEmbedding`` holds one), not a transformers
    tokenizer: it has no ``unk_token_id``."""
    return callable(getattr(tokenizer, "encode_batch", None)) and callable(getattr(tokenizer, "to_str", None))


def _unknown_id(tokenizer: Any) -> int | None:
    if tokenizer is None:
        return None
    return tokenizer_unknown_id(tokenizer) if _is_raw(tokenizer) else getattr(tokenizer, "unk_token_id", None)


def _content_ids(tokenizer: Any, texts: list[str]) -> Iterator[list[int]]:
    """Per text: its ids that carry content, the unknown token included (special tokens and word-boundary
    pieces, such as a Unigram vocabulary's "▁", left out)."""
    unk = _unknown_id(tokenizer)
    raw = _is_raw(tokenizer)
    special = set() if raw else set(getattr(tokenizer, "all_special_ids", []) or [])
    piece_of = tokenizer.id_to_token if raw else tokenizer.convert_ids_to_tokens
    boundary: dict[int, bool] = {}

    def content(i: int) -> bool:
        if i not in boundary:
            boundary[i] = (piece_of(i) or "").strip("▁Ġ ") == ""
        return not boundary[i]

    for start in range(0, len(texts), 4096):
        chunk = texts[start : start + 4096]
        if raw:
            batch = [e.ids for e in tokenizer.encode_batch(chunk, add_special_tokens=False)]
        else:
            batch = tokenizer(chunk, add_special_tokens=False)["input_ids"]
        for ids in batch:
            yield [i for i in ids if i == unk or (i not in special and content(i))]


def no_known_token(tokenizer: Any, texts: list[str]) -> list[bool]:
    """Per text: True when it has no content token other than the unknown one (its vector would be that of
    ``[UNK]`` or of the special tokens alone); all False for a tokenizer without an unknown token."""
    unk = _unknown_id(tokenizer)
    if unk is None or not texts:
        return [False] * len(texts)
    return [all(i == unk for i in ids) for ids in _content_ids(tokenizer, texts)]


def unknown_token_share(tokenizer: Any, texts: list[str]) -> tuple[float, int]:
    """(share of tokens that are the unknown token, sentences made only of unknown tokens) for ``texts``.

    Scripts a vocabulary has never seen become ``[UNK]`` and give every such sentence the same vector."""
    unk = _unknown_id(tokenizer)
    if unk is None or not texts:
        return 0.0, 0
    total = unknown = all_unknown = 0
    for ids in _content_ids(tokenizer, texts):
        n_unk = sum(i == unk for i in ids)
        total += len(ids)
        unknown += n_unk
        all_unknown += bool(ids) and n_unk == len(ids)
    return (unknown / total if total else 0.0), all_unknown
