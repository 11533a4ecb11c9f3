"""Model specs as the commands take them: a baseline name, a model folder, or ``RUNTIME:FOLDER``.

``RUNTIME:FOLDER`` (``onnx``, ``onnx-int8``, ``static``, ``bf16``) names a folder run by onnxruntime or numpy
instead of torch, or by torch in bfloat16 (``bf16``); :func:`split_runtime` takes it apart,
:func:`lingualite.encoders.loading.load_encoder` loads it.
"""

from __future__ import annotations

__all__ = ["RUNTIMES", "split_runtime"]

RUNTIMES = ("onnx", "onnx-int8", "static", "bf16")


def split_runtime(spec: str) -> tuple[str | None, str]:
    """``"onnx-int8:runs/x"`` -> ``("onnx-int8", "runs/x")``; anything else -> ``(None, spec)``."""
    runtime, _, rest = spec.partition(":")
    return (runtime, rest) if runtime in RUNTIMES and rest else (None, spec)
