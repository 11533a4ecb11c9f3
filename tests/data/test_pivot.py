"""pivot_pairs: xx-yy held-out pairs from prepared en-xx and en-yy, joined on (doc id, English); a document is
in the same split on both sides, training splits are never read, caps intersect, failures write nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lingualite.core.errors import LinguaLiteError
from lingualite.data.cleaning import CleaningConfig
from lingualite.data.pivot import pivot_pairs
from lingualite.data.prepare import prepare_corpus
from lingualite.data.readers import read_tsv
from lingualite.data.split import SplitConfig, assign_split

SPLIT = SplitConfig(valid_fraction=0.3, test_fraction=0.3, seed=0)
NO_LANG_ID = CleaningConfig(lang_id=False)


def _english(doc: int, i: int) -> str:
    return f"Open the document number {doc} and check item {i} carefully."


def _corpus(path: Path, lang: str, docs: range, skip: set[tuple[int, int]] = frozenset()) -> Path:
    """Every English unit of ``docs`` with its (made-up) translation; ``skip`` leaves some untranslated."""
    word = {"zh": "文档", "ru": "документ"}[lang]
    lines = [
        f"{_english(d, i)}\t{word} {d} {word} {i} {word} {'完' if lang == 'zh' else 'конец'} {d * 7 + i}\tlo:p{d}.html\n"
        for d in docs
        for i in range(3)
        if (d, i) not in skip
    ]
    path.write_text("".join(lines), encoding="utf-8")
    return path


@pytest.fixture()
def prepared(tmp_path: Path) -> Path:
    out = tmp_path / "prepared"
    zh = _corpus(tmp_path / "zh.tsv", "zh", range(40))
    ru = _corpus(tmp_path / "ru.tsv", "ru", range(40), skip={(d, 0) for d in range(0, 40, 2)})
    for lang, path in (("zh", zh), ("ru", ru)):
        prepare_corpus([path], "en", lang, out / f"en-{lang}", NO_LANG_ID, SPLIT, progress=False)
    return out


def test_pairs_join_the_two_translations_of_one_held_out_english_unit(prepared: Path) -> None:
    stats = pivot_pairs(prepared, "zh", "ru")
    assert stats["src_lang"] == "zh" and stats["tgt_lang"] == "ru" and stats["via"] == "en"
    assert (prepared / "zh-ru" / "stats.json").is_file()
    english = {
        split: {(p.doc_id, p.tgt): p.src for p in read_tsv(prepared / f"en-{lang}" / f"{split}.tsv")}
        for split in ("valid", "test")
        for lang in ("zh",)
    }
    for split in ("valid", "test"):
        pairs = list(read_tsv(prepared / "zh-ru" / f"{split}.tsv"))
        assert pairs and stats["splits"][split]["kept"] == len(pairs)
        ru_test = {(p.doc_id, p.tgt) for p in read_tsv(prepared / "en-ru" / f"{split}.tsv")}
        for pair in pairs:
            # the document is held out in this split on both sides: never a training document
            assert assign_split(pair.doc_id, 0.3, 0.3, 0) == split
            # both sides translate the same English unit of the same document
            en = english[split][(pair.doc_id, pair.src)]
            assert (pair.doc_id, pair.tgt) in ru_test
            doc, item = pair.src.split()[1], pair.src.split()[3]
            assert en == _english(int(doc), int(item)) and pair.tgt.split()[1:4:2] == [doc, item]
    # units without a Russian translation are not paired
    assert all(
        p.src.split()[3] != "0" or int(p.src.split()[1]) % 2 for p in read_tsv(prepared / "zh-ru/test.tsv")
    )
    train = {p.doc_id for p in read_tsv(prepared / "en-zh" / "train.tsv")}
    assert not train & {p.doc_id for p in read_tsv(prepared / "zh-ru" / "test.tsv")}


def test_the_join_needs_the_same_document_and_the_same_english(prepared: Path, tmp_path: Path) -> None:
    # Move one Russian test unit to another document id (same English): it no longer joins.
    test = prepared / "en-ru" / "test.tsv"
    lines = test.read_text(encoding="utf-8").splitlines(keepends=True)
    en, ru, doc = lines[0].rstrip("\n").split("\t")
    moved = next(
        f"lo:other{n}.html" for n in range(1000) if assign_split(f"lo:other{n}.html", 0.3, 0.3) == "test"
    )
    test.write_text("".join([f"{en}\t{ru}\t{moved}\n", *lines[1:]]), encoding="utf-8")
    before = {p.src for p in read_tsv(prepared / "en-zh" / "test.tsv") if p.doc_id == doc}
    stats = pivot_pairs(prepared, "zh", "ru", splits=("test",), out_dir=tmp_path / "out")
    assert not (tmp_path / "out" / "valid.tsv").exists()
    joined = {(p.doc_id, p.tgt) for p in read_tsv(tmp_path / "out" / "test.tsv")}
    assert (doc, ru) not in joined and before  # the zh side of that English is still there, unpaired
    assert stats["splits"]["test"]["joined"] == stats["splits"]["test"]["kept"]


def test_a_pair_outside_its_split_or_other_split_settings_is_refused(prepared: Path, tmp_path: Path) -> None:
    train_line = (prepared / "en-ru" / "train.tsv").read_text(encoding="utf-8").splitlines(keepends=True)[0]
    test = prepared / "en-ru" / "test.tsv"
    test.write_text(test.read_text(encoding="utf-8") + train_line, encoding="utf-8")
    with pytest.raises(
        LinguaLiteError, match=r"test\.tsv:\d+: document 'lo:p\d+\.html' does not hash to test"
    ):
        pivot_pairs(prepared, "zh", "ru", out_dir=tmp_path / "out")
    assert not (tmp_path / "out").exists()  # nothing written

    stats_path = prepared / "en-ru" / "stats.json"
    stats = json.loads(stats_path.read_text())
    stats["config"]["split"]["seed"] = 1
    stats_path.write_text(json.dumps(stats))
    with pytest.raises(LinguaLiteError, match="split with different settings"):
        pivot_pairs(prepared, "zh", "ru")


def test_capped_splits_intersect(tmp_path: Path) -> None:
    out = tmp_path / "prepared"
    capped = SplitConfig(valid_fraction=0.3, test_fraction=0.3, max_valid_pairs=10, seed=0)
    for lang in ("zh", "ru"):
        corpus = _corpus(tmp_path / f"{lang}.tsv", lang, range(40))
        prepare_corpus([corpus], "en", lang, out / f"en-{lang}", NO_LANG_ID, capped, progress=False)
    stats = pivot_pairs(out, "zh", "ru")["splits"]
    # each side keeps 10 valid pairs chosen by a hash of its own text: only the shared ones pair
    assert stats["valid"]["en-zh pairs"] == stats["valid"]["en-ru pairs"] == 10
    assert 0 < stats["valid"]["kept"] < 10  # (3 here)
    assert stats["test"]["kept"] == stats["test"]["en-zh pairs"]  # uncapped: every test unit pairs


def test_bad_requests_are_one_line_errors(prepared: Path) -> None:
    with pytest.raises(LinguaLiteError, match="two different non-English languages"):
        pivot_pairs(prepared, "en", "ru")
    with pytest.raises(LinguaLiteError, match="only held-out splits"):
        pivot_pairs(prepared, "zh", "ru", splits=("train",))
    with pytest.raises(LinguaLiteError, match="en-ja/stats.json: not found; run `lingualite prepare`"):
        pivot_pairs(prepared, "zh", "ja")
    with pytest.raises(LinguaLiteError, match="unsupported pivot language"):
        pivot_pairs(prepared, "zh", "xx")
