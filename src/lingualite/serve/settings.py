"""What a server accepts: request limits, micro-batching knobs, where it binds, the host names it answers to,
read timeouts and its optional API key."""

from __future__ import annotations

from dataclasses import dataclass

from lingualite.core.errors import LinguaLiteError

__all__ = ["ServeSettings"]


@dataclass(frozen=True)
class ServeSettings:
    """Settings of :func:`lingualite.serve.app.create_app` (and of ``lingualite serve``).

    :param host: the address uvicorn binds; anything but a loopback address needs ``api_key``.
    :param port: the TCP port.
    :param api_key: when set, every endpoint but the page (``GET /``) needs it in ``X-API-Key`` or
        ``Authorization: Bearer``.
    :param model_spec: the spec the encoder was loaded from (shown by ``/health``; an index built with another
        spec is refused). ``None``: the encoder's name is shown and only the index's dimension is checked.
    :param max_batch: texts per encoder call when requests are batched together (1: one request per call).
    :param max_wait_ms: how long the first queued request waits for others to join its batch.
    :param max_texts: texts per ``/encode`` call (queries per ``/search`` call).
    :param max_chars: characters per text or query.
    :param max_body_bytes: request body size; larger bodies get 413 before they are parsed.
    :param max_k: the largest ``k`` of ``/search``.
    :param allowed_hosts: ``Host`` names answered besides the defaults (localhost names and ``host``; see
        :mod:`lingualite.serve.hosts`); ``("*",)`` turns the check off.
    :param read_timeout: seconds a client has to send a request's headers, and again its body (else 408).
    :param served_model_names: names ``/v1/embeddings`` accepts as ``model`` besides the spec and the folder's
        name (vLLM's and TEI's ``--served-model-name``); the first is the name the server shows everywhere.
    """

    host: str = "127.0.0.1"
    port: int = 8000
    api_key: str | None = None
    model_spec: str | None = None
    max_batch: int = 64
    max_wait_ms: float = 5.0
    max_texts: int = 256
    max_chars: int = 2000
    max_body_bytes: int = 1_000_000
    max_k: int = 100
    allowed_hosts: tuple[str, ...] = ()
    read_timeout: float = 10.0
    served_model_names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("max_batch", "max_texts", "max_chars", "max_body_bytes", "max_k"):
            if getattr(self, name) < 1:
                raise LinguaLiteError(f"serve: {name} must be at least 1, got {getattr(self, name)}")
        if not 0 < self.read_timeout < float("inf"):
            raise LinguaLiteError(f"serve: read_timeout must be > 0 seconds, got {self.read_timeout}")
        if self.max_wait_ms < 0:
            raise LinguaLiteError(f"serve: max_wait_ms must be >= 0, got {self.max_wait_ms}")
        if not 0 <= self.port <= 65535:
            raise LinguaLiteError(f"serve: port must be in 0..65535, got {self.port}")
        if self.api_key is not None and not self.api_key.strip():
            raise LinguaLiteError("serve: the API key is empty")
        if self.api_key is not None and not (self.api_key.isascii() and self.api_key.isprintable()):
            raise LinguaLiteError("serve: the API key must be printable ASCII (it travels in an HTTP header)")
        if self.api_key is not None and " " in self.api_key:
            raise LinguaLiteError("serve: the API key must not contain spaces")
        for name in self.served_model_names:
            if not name.strip() or not name.isprintable():
                raise LinguaLiteError(
                    f"serve: a served model name must be printable and not empty, got {name!r}"
                )
