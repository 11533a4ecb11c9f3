"""The serve tests need the serve extra (fastapi, uvicorn, httpx, prometheus-client); without it they are not
collected."""

from __future__ import annotations

import importlib.util

_MISSING = [
    m for m in ("fastapi", "uvicorn", "httpx", "prometheus_client") if importlib.util.find_spec(m) is None
]
collect_ignore_glob = ["test_*.py"] if _MISSING else []
