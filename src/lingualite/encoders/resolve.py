"""One name for every encoder: :func:`load_encoder` resolves a model spec to an :class:`Encoder`."""

from __future__ import annotations

from pathlib import Path

from lingualite.core.device import cpu_only, parse_device
from lingualite.encoders.base import Encoder
from lingualite.encoders.baselines import BASELINES, CPU_ONLY
from lingualite.encoders.folder import SentenceTransformerEncoder
from lingualite.encoders.packaged import packaged_spec
from lingualite.encoders.spec import split_runtime

__all__ = ["load_encoder"]


def load_encoder(name_or_path: str | Path, threads: int | None = None, device: str = "auto") -> Encoder:
    """A baseline by name (``tfidf``, ``minilm``, ``use-m``, ``e5-small``), a packaged model by name
    (``lingualite-small``, ``lingualite-static``: :mod:`lingualite.encoders.packaged`), a sentence-transformers
    folder, or
    ``onnx:FOLDER`` / ``onnx-int8:FOLDER`` (the ONNX graphs that ``lingualite export`` wrote into FOLDER, run
    by onnxruntime: :class:`lingualite.encoders.onnx.OnnxEncoder`), or ``static:FOLDER`` (a model2vec /
    ``StaticEmbedding`` folder in numpy: :class:`lingualite.encoders.static.StaticEncoder`), or
    ``bf16:FOLDER`` (a sentence-transformers folder in torch bfloat16, float32 vectors out:
    :class:`lingualite.encoders.bf16.Bf16Encoder`).

    :param threads: CPU threads for the encoder; default: all cores available to the process.
    :param device: the :mod:`lingualite.core.device` rule for torch models (``auto``: a CUDA GPU when there is
        one). The ONNX encoders use onnxruntime's CUDA provider where it is installed (onnxruntime-gpu); the
        static encoder and the numpy / C / scikit-learn baselines run on the CPU and say so once.
    :raises lingualite.models.checked_loading.ModelFolderError: neither a baseline name nor an existing folder (the
        message lists the names), or a folder that cannot be loaded (the message says why).
    :raises lingualite.encoders.baselines.MissingBaselineError: the baseline's package is not installed.
    """
    from lingualite.core.errors import check_argument

    check_argument(threads, "threads", int, 1)  # 0, -2 or 1.5 threads: one line, before any loading
    key = str(name_or_path)
    parse_device(device)  # a bad --device is an error whatever the model
    if key in CPU_ONLY:
        cpu_only(key, CPU_ONLY[key], device)
        return BASELINES[key](threads=threads)
    if key in BASELINES:
        return BASELINES[key](threads=threads, device=device)
    packaged = packaged_spec(key)
    runtime, rest = split_runtime(packaged or key)
    if runtime is not None:  # onnx:/onnx-int8:FOLDER (`lingualite export`), static:FOLDER, bf16:FOLDER
        if not Path(rest).exists():
            from lingualite.models.checked_loading import ModelFolderError

            raise ModelFolderError(Path(rest), "does not exist")
        name = key if packaged else None
        if runtime == "static":
            from lingualite.encoders.static import StaticEncoder

            cpu_only(key, "a static model is a table lookup in numpy", device)
            return StaticEncoder(rest, name=name)
        if runtime == "bf16":
            from lingualite.encoders.bf16 import Bf16Encoder

            return Bf16Encoder(rest, threads=threads, device=device)
        from lingualite.encoders.onnx import OnnxEncoder, onnx_graph_of

        graph = onnx_graph_of(rest, int8=runtime == "onnx-int8")
        return OnnxEncoder(rest, graph=graph, threads=threads, device=device, name=name)
    path = Path(name_or_path)
    if not path.exists():
        from lingualite.encoders.packaged import PACKAGED
        from lingualite.models.checked_loading import ModelFolderError

        raise ModelFolderError(
            path,
            f"does not exist (and is not a model name: packaged {', '.join(PACKAGED)}; "
            f"baselines {', '.join(BASELINES)})",
        )
    return SentenceTransformerEncoder(path, threads=threads, device=device)
