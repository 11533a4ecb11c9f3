"""``lingualite quickstart --langs``: a language none of the default sources holds is refused before anything
is downloaded (it used to stop only after fetching every source)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from lingualite.cli.main import app
from lingualite.data import sources
from lingualite.data.sources import libreoffice
from lingualite.reproduce import quickstart

runner = CliRunner()
# What apt-cache knows on Debian 12: every help package but those of DEBIAN_12_NO_HELP.
NO_HELP = {libreoffice.PACKAGES[lang] for lang in libreoffice.DEBIAN_12_NO_HELP}


@pytest.fixture()
def no_download(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every way the quickstart could fetch, replaced by one that records its call."""
    calls: list[str] = []

    def record(name: str):
        return lambda *args, **kwargs: calls.append(name)

    monkeypatch.setattr(quickstart, "fetch_corpora", record("fetch_corpora"))
    monkeypatch.setattr(quickstart, "prepare_default_data", record("prepare_default_data"))
    for name, module in sources.SOURCES.items():
        monkeypatch.setattr(module, "fetch", record(f"{name}.fetch"))
    return calls


@pytest.mark.parametrize(
    "apt",
    [
        pytest.param(lambda packages: None, id="apt-cannot-tell"),  # a fresh container: Debian 12's table
        pytest.param(lambda packages: set(packages) - NO_HELP, id="apt-knows"),
    ],
)
def test_a_language_no_default_source_holds_is_refused_before_any_download(
    apt, no_download: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(libreoffice, "known_packages", apt)
    args = ["quickstart", "--langs", "fr,th", "--data-dir", str(tmp_path), "--output", str(tmp_path / "run")]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert no_download == []
    error = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(error) == 1 and len(result.stderr.splitlines()) == 1, result.stderr  # one line
    message = error[0]
    assert "holds en-th (" in message and "en-fr" not in message
    assert "libreoffice: Debian" in message and "has no libreoffice-help-th" in message  # 12: the table
    assert "bible: the database has no edition in it" in message
    assert "ddtp: Debian 12 publishes no Translation-th file" in message
    assert "lingualite data fetch --sources libreoffice-ui --langs th" in message
    held = message.split("Pick languages they hold (")[1].split(")")[0].split(",")
    assert {"fr", "de", "ja", "ar", "sl", "hi", "sk", "uk"} <= set(held)  # ar: the Bible; sl, hi: the help
    assert not {"th", "he", "bg", "en"} & set(held)
    assert not (tmp_path / "corpora").exists() and not (tmp_path / "run").exists()


def test_the_three_languages_no_default_source_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Debian 12: th, he and bg have no help package, no free Bible and no DDTP file (ro and nb have a few
    DDTP descriptions); what each source lacks is told without a download."""
    monkeypatch.setattr(libreoffice, "known_packages", lambda packages: None)
    nowhere = sources.held_by_none(sources.ALL_LANGS)
    assert list(nowhere) == ["th", "bg", "he"]
    assert set(nowhere["he"]) == set(sources.DEFAULT_SOURCES)
    assert sources.held_by_none(["fr", "sl", "hi", "ar"]) == {}


class _WordEncoder:
    """A bag-of-known-words encoder: a text of emoji alone has no token it knows."""

    def __init__(self, words: list[str]) -> None:
        self.index = {w: i for i, w in enumerate(words)}

    def no_known_token(self, texts: list[str]) -> list[bool]:
        return [not any(w in self.index for w in t.split()) for t in texts]

    def encode(self, texts: list[str], **_: object):
        import numpy as np

        out = np.zeros((len(texts), len(self.index)), np.float32)
        for row, text in enumerate(texts):
            for w in text.split():
                if w in self.index:
                    out[row, self.index[w]] = 1.0
        return out


def test_quickstart_leaves_out_and_counts_test_pairs_the_model_has_no_token_for(tmp_path: Path) -> None:
    """Such a pair would be scored on the one vector every unknown text gets: left out for both models and
    counted in the results, never silently ranked."""
    from rich.console import Console

    folder = tmp_path / "prepared" / "en-fr"
    folder.mkdir(parents=True)
    rows = [f"w{i} x\tw{i} y\tlo:d{i}" for i in range(12)] + ["🙂 🙂\tw1 y\tbible:G:1", "w2 z\t🎉\tlo:d99"]
    (folder / "test.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    model = _WordEncoder([f"w{i}" for i in range(12)] + ["x", "y"])
    out = quickstart._evaluate(model, [folder], None, Console(quiet=True), 0.0)  # type: ignore[arg-type]
    row = out["en-fr"]
    assert row["pairs"] == 12 and row["skipped"] == 2 and row["lingualite_p_at_1"] == 1.0
    assert row["pairs/lo"] == 12 and "pairs/bible" not in row  # the Bible's only pair was left out
