"""Lee document similarity (from a zip standing in for the gensim wheel) and DDTP sections (tiny apt lists)."""

from __future__ import annotations

from pathlib import Path

import pytest
from evalset_fixtures import DDTP_PACKAGES, make_apt_lists, make_gensim_wheel, read_tsv

from lingualite.core.errors import LinguaLiteError
from lingualite.data.evalsets import ddtp_sections, lee
from lingualite.data.evalsets.common import in_test
from lingualite.data.sources.common import SourceUnavailableError


def test_lee_upper_triangle_3x3(tmp_path: Path) -> None:
    wheel = make_gensim_wheel(tmp_path / "cache")
    info = lee.extract(wheel, tmp_path / "out", [])
    d0, d1, d2 = "First document about the budget.", "Second document costs \xa35.", "Third document."
    # strict upper triangle, row-major: (0,1), (0,2), (1,2); diagonal and lower zeros unused
    assert read_tsv(tmp_path / "out" / "en.tsv", 3) == [[d0, d1, "0.5"], [d0, d2, "0.25"], [d1, d2, "0.75"]]
    assert info["files"] == {"en.tsv": {"lines": 3}}
    assert info["documents"] == 3


def test_upper_pairs_order_matches_triu_indices() -> None:
    docs = ["a", "b", "c", "d"]
    matrix = [[str(10 * i + j) for j in range(4)] for i in range(4)]
    assert [s for *_, s in lee.upper_pairs(docs, matrix)] == ["1", "2", "3", "12", "13", "23"]


@pytest.mark.parametrize(
    ("matrix", "message"),
    [
        ("1\t0.5\n0\t1\n", "3 documents but a 2x2"),
        ("1\t0.5\t0.2\n0\t1\n0\t0\t1\n", "2 values, expected 3"),
        ("1\tx\t0.2\n0\t1\t0\n0\t0\t1\n", "'x' is not a number"),
    ],
)
def test_lee_bad_matrix(tmp_path: Path, matrix: str, message: str) -> None:
    wheel = make_gensim_wheel(tmp_path, matrix=matrix)
    with pytest.raises(LinguaLiteError, match=message):
        lee.extract(wheel, tmp_path / "out", [])


def test_lee_fetch_uses_cached_wheel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    wheel = make_gensim_wheel(tmp_path)

    def no_pip(*args, **kwargs):
        raise AssertionError("pip must not run when a wheel is cached")

    monkeypatch.setattr(lee, "run_tool", no_pip)
    assert lee.fetch(tmp_path) == wheel


def test_lee_fetch_without_pip_is_unavailable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def failing(cmd, what, cwd=None):
        raise SourceUnavailableError(f"{what} failed (exit 1): no network")

    monkeypatch.setattr(lee, "run_tool", failing)
    with pytest.raises(SourceUnavailableError, match="pip download gensim"):
        lee.fetch(tmp_path / "empty")


def test_ddtp_sections(tmp_path: Path) -> None:
    lists = make_apt_lists(tmp_path / "apt")
    info = ddtp_sections.extract(lists, tmp_path / "out", ["fr"])
    train = read_tsv(tmp_path / "out" / "train.en.tsv", 2)
    test_en = read_tsv(tmp_path / "out" / "test.en.tsv", 2)
    test_fr = read_tsv(tmp_path / "out" / "test.fr.tsv", 2)
    packages = {pkg: (src, section) for pkg, src, section, _ in DDTP_PACKAGES}

    def pkg_of(text: str) -> str:
        return next(w for w in text.replace(".", " ").split() if w in packages)

    seen = {}
    for name, rows in (("train", train), ("test", test_en), ("fr", test_fr)):
        for label, text in rows:
            pkg = pkg_of(text)
            src, section = packages[pkg]
            assert label == section  # "contrib/games" counts as games
            assert in_test("ddtp-sections", src) == (name != "train")  # split by source package
            seen.setdefault(name, set()).add(pkg)
    assert seen["train"] and seen["test"] and not seen["train"] & seen["test"]
    assert seen["fr"] == seen["test"]
    assert set(seen["train"] | seen["test"]) == set(packages)  # libs and the ambiguous md5 are dropped
    assert all(t.startswith("outil ") and "More" not in t for _, t in test_fr)  # untranslated item dropped
    assert any(t.startswith("games tool game") and "game" in t for _, t in train + test_en)
    assert all(". This" in t for _, t in train)  # short line ended with a period
    assert info["files"]["test.fr.tsv"]["lines"] == len(test_fr)


def test_ddtp_sections_documents_end_their_short_line_in_their_script() -> None:
    """The short line gets the full stop of its script when it has none; no space follows a full-width stop;
    units without a stop keep their space (unpunctuated bullet items stay apart)."""
    text = ddtp_sections._text
    assert text(["A tool for text", "It edits files."]) == "A tool for text. It edits files."
    assert text(["文本编辑工具", "它可以编辑文件。"]) == "文本编辑工具。它可以编辑文件。"
    assert (
        text(["テキストエディタ！", "ファイルを編集します。"]) == "テキストエディタ！ファイルを編集します。"
    )
    assert text(["텍스트 편집기", "파일을 편집합니다."]) == "텍스트 편집기. 파일을 편집합니다."
    assert text(["GNU 文本工具"]) == "GNU 文本工具"
    # Debian's zh_CN Translation file (dbus): a closing bracket after the last letter
    assert text(["简单的进程间消息系统（参考消息总线）", "D-Bus 是一个消息总线。"]) == (
        "简单的进程间消息系统（参考消息总线）。D-Bus 是一个消息总线。"
    )
    assert text(["图像工具", "查看图像", "编辑图像"]) == "图像工具。查看图像 编辑图像"
    assert text(["Εργαλείο εικόνων;", "Προβολή εικόνων."]) == "Εργαλείο εικόνων; Προβολή εικόνων."


def test_ddtp_fetch_skips_when_done(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_apt_lists(tmp_path, langs=("en", "fr"))
    calls = []
    monkeypatch.setattr(ddtp_sections, "apt_update", lambda *a, **k: calls.append(k))
    assert ddtp_sections.fetch(tmp_path, ["fr"]) == tmp_path / "lists"
    assert calls == []
    with pytest.raises(LinguaLiteError):  # a new language: apt runs (here a stub that fetches nothing)
        (tmp_path / "lists" / "deb_dists_main_binary-amd64_Packages").unlink()
        ddtp_sections.fetch(tmp_path, ["fr", "de"])
    assert calls == [{"languages": ["de", "en", "fr"], "packages": True}]
