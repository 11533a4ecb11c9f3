"""`lingualite serve`'s choice of model: --model, or the model the --index was built with."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from lingualite.cli.main import app as cli
from lingualite.core.errors import LinguaLiteError
from lingualite.search import SearchIndex


class _Encoder:
    name = "fixed"
    dimension = 4

    def encode(self, texts: list[str]) -> np.ndarray:
        return np.asarray([[len(t), 1.0, 0.0, 1.0] for t in texts], dtype=np.float32)


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("serve-cli") / "idx"
    docs = [{"id": "a", "text": "one document"}, {"id": "b", "text": "another one"}]
    SearchIndex.build("use-m", docs, folder, encoder=_Encoder(), progress=False).close()
    return folder


def test_the_index_names_the_model_when_model_is_left_out(index: Path) -> None:
    assert SearchIndex.model_for(index) == "use-m"
    assert SearchIndex.model_for(index, "use-m") == "use-m"
    with pytest.raises(LinguaLiteError, match="was built with model use-m, not minilm"):
        SearchIndex.model_for(index, "minilm")


def test_cli_refuses_in_one_line_before_loading_anything(index: Path, tmp_path: Path) -> None:
    for args, message in [
        ([], "serve: give --model (or --index"),
        (["--model", "minilm", "--index", str(index)], "was built with model use-m, not minilm"),
        (["--index", str(tmp_path)], "not a lingualite search index"),
    ]:
        res = CliRunner().invoke(cli, ["serve", *args])
        assert res.exit_code == 2 and res.output.count("\n") == 1 and message in res.output, res.output


def test_without_the_serve_extra_one_friendly_line(tmp_path: Path) -> None:
    """No fastapi/uvicorn installed: one line naming the extra, not a ModuleNotFoundError traceback."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "for name in ('fastapi', 'starlette', 'uvicorn', 'httpx'):\n"
        "    sys.modules[name] = None  # as if the serve extra were not installed\n"
        "from lingualite.cli.main import app\n"
        "app(['serve', '--model', 'tfidf'])\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stderr.strip().count("\n") == 0, proc.stderr
    assert "pip install 'lingualite[serve]'" in proc.stderr
