"""End-to-end tests of corpus preparation."""

from __future__ import annotations

import gzip
import json
from collections import defaultdict
from pathlib import Path

import pytest

from lingualite.core.errors import BadInputError, LinguaLiteError
from lingualite.data.cleaning import CleaningConfig
from lingualite.data.prepare import prepare_corpus
from lingualite.data.split import SplitConfig

NO_LID = CleaningConfig(lang_id=False)


def _rows(path: Path) -> list[list[str]]:
    return [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()]


def _corpus(tmp_path: Path) -> tuple[Path, tuple[Path, Path]]:
    lines = []
    for doc in range(40):
        for sent in range(5):
            lines.append(f"source sentence {doc} {sent} here\tphrase cible {doc} {sent} ici\tdoc{doc}")
    lines.append("source sentence 0 0 here\tphrase cible 0 0 ici\tdoc99")  # duplicate in another doc
    lines.append("tiny\tpetit\tdoc1")  # too short
    tsv = tmp_path / "a.tsv"
    tsv.write_text("\n".join(lines) + "\n", encoding="utf-8")
    en, fr = tmp_path / "m.en", tmp_path / "m.fr"
    en.write_text("moses line number one\nsource sentence 3 3 here\n", encoding="utf-8")
    fr.write_text("ligne moses numéro un\nphrase cible 3 3 ici\n", encoding="utf-8")
    return tsv, (en, fr)


def test_end_to_end(tmp_path: Path) -> None:
    tsv, moses = _corpus(tmp_path)
    out = tmp_path / "out"
    res = prepare_corpus([tsv, moses], "en", "fr", out, NO_LID, SplitConfig(0.2, 0.2, seed=1), progress=False)
    assert sorted(p.name for p in out.iterdir()) == ["stats.json", "test.tsv", "train.tsv", "valid.tsv"]
    rows = {name: _rows(res.paths[name]) for name in ("train", "valid", "test")}
    assert all(len(r) == 3 for split in rows.values() for r in split)
    stats = json.loads(res.stats_path.read_text())
    assert stats == res.stats
    assert stats["read"] == 202 + 2
    assert stats["dropped"] == {"duplicate": 2, "too_short": 1}
    assert sum(stats["kept"].values()) == 201 == sum(len(r) for r in rows.values())
    assert stats["kept"] == {k: len(v) for k, v in rows.items()} == res.kept
    assert min(stats["kept"].values()) > 0
    per_input = stats["inputs"]
    assert [i["read"]["pairs"] for i in per_input] == [202, 2]
    assert per_input[1]["cleaning"]["dropped"] == {"duplicate": 1}  # first input wins
    assert sum(per_input[1]["kept"].values()) == 1
    # documents stay whole; the duplicate from doc99 is gone (first doc wins)
    where = defaultdict(set)
    for name, split in rows.items():
        for _src, _tgt, doc in split:
            where[doc].add(name)
    assert all(len(s) == 1 for s in where.values())
    assert "doc99" not in where
    assert ["moses line number one", "ligne moses numéro un", ""] in [r for v in rows.values() for r in v]
    # deterministic
    res2 = prepare_corpus(
        [tsv, moses], "en", "fr", tmp_path / "o2", NO_LID, SplitConfig(0.2, 0.2, seed=1), False
    )
    for name in ("train", "valid", "test"):
        assert res2.paths[name].read_bytes() == res.paths[name].read_bytes()


def test_caps_drop_surplus_instead_of_leaking_to_train(tmp_path: Path) -> None:
    tsv, _ = _corpus(tmp_path)
    uncapped = prepare_corpus(
        [tsv], "en", "fr", tmp_path / "u", NO_LID, SplitConfig(0.3, 0.3), progress=False
    )
    split = SplitConfig(0.3, 0.3, max_valid_pairs=7, max_test_pairs=0)
    res = prepare_corpus([tsv], "en", "fr", tmp_path / "out", NO_LID, split, progress=False)
    assert res.kept["valid"] == 7 and res.kept["test"] == 0
    dropped = res.stats["cap_dropped"]
    assert dropped["valid"] == uncapped.kept["valid"] - 7 and dropped["test"] == uncapped.kept["test"]
    assert res.paths["train"].read_bytes() == uncapped.paths["train"].read_bytes()


def test_test_set_has_unique_sides(tmp_path: Path) -> None:
    tsv = tmp_path / "t.tsv"
    tsv.write_text(
        "one two three\tun deux trois\n"
        "One  two three\tautre chose ici\n"  # same source (normalized)
        "quatre cinq six\tun deux trois\n"  # same target
        "seven eight nine\tsept huit neuf\n",
        encoding="utf-8",
    )
    res = prepare_corpus([tsv], "en", "fr", tmp_path / "o", NO_LID, SplitConfig(0.0, 1.0), progress=False)
    assert [r[0] for r in _rows(res.paths["test"])] == ["one two three", "seven eight nine"]
    assert res.stats["test_not_unique"] == 2 and res.kept == {"train": 0, "valid": 0, "test": 2}


def test_failure_leaves_no_partial_output(tmp_path: Path) -> None:
    tsv, _ = _corpus(tmp_path)
    bad = tmp_path / "bad.tsv"
    bad.write_text("fine line here\tligne correcte ici\nthis line has no tab\n", encoding="utf-8")
    out = tmp_path / "out"
    with pytest.raises(BadInputError, match=r"bad\.tsv:2: no tab"):
        prepare_corpus([tsv, bad], "en", "fr", out, NO_LID, progress=False)
    assert list(out.iterdir()) == []  # no train.tsv, no temporary leftovers
    # an earlier good run survives a failed re-run untouched
    prepare_corpus([tsv], "en", "fr", out, NO_LID, progress=False)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    with pytest.raises(BadInputError):
        prepare_corpus([tsv, bad], "en", "fr", out, NO_LID, progress=False)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_an_input_named_like_an_output_is_refused_not_replaced(tmp_path: Path) -> None:
    tsv, _ = _corpus(tmp_path)
    out = tmp_path / "prepared"
    out.mkdir()
    raw = out / "train.tsv"  # the user's raw file, in the folder the prepared files go to
    raw.write_bytes(tsv.read_bytes())
    with pytest.raises(LinguaLiteError, match="also an input"):
        prepare_corpus([raw], "en", "fr", out, NO_LID, progress=False)
    assert raw.read_bytes() == tsv.read_bytes() and [p.name for p in out.iterdir()] == ["train.tsv"]


def test_skip_bad_counts_in_stats(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tsv.gz"
    bad.write_bytes(gzip.compress(b"fine line here\tligne correcte ici\nno tab\n\xff\tx\n"))
    res = prepare_corpus([bad], "en", "fr", tmp_path / "o", NO_LID, skip_bad=True, progress=True)
    assert res.stats["bad_lines"] == {"invalid_utf8": 1, "no_tab": 1}
    assert res.stats["read"] == 1 and sum(res.kept.values()) == 1


def test_fields_are_tsv_safe(tmp_path: Path) -> None:
    en, fr = tmp_path / "c.en", tmp_path / "c.fr"
    en.write_text("a\tb c d\n", encoding="utf-8")
    fr.write_text("e f\u2028g h\n", encoding="utf-8")
    res = prepare_corpus(
        [str(tmp_path / "c")], "en", "fr", tmp_path / "o", NO_LID, SplitConfig(0, 0), progress=False
    )
    assert _rows(res.paths["train"]) == [["a b c d", "e f g h", ""]]


def _prepare(tmp_path: Path, name: str, data: bytes, **kw):
    path = tmp_path / name
    path.write_bytes(data)
    return prepare_corpus([path], "en", "fr", tmp_path / "out", NO_LID, progress=False, **kw)


def test_nul_bytes_never_reach_train_tsv(tmp_path: Path) -> None:
    data = b"the cat sleeps here\tle chat dort ici\nthe dog\x00 runs away\tle chien court loin\n"
    with pytest.raises(BadInputError, match=r"c\.tsv:2: contains a NUL byte"):
        _prepare(tmp_path, "c.tsv", data)
    res = _prepare(tmp_path, "c.tsv", data, skip_bad=True)
    assert res.stats["inputs"][0]["read"]["bad"] == {"nul_byte": 1}
    assert b"\x00" not in b"".join(p.read_bytes() for p in res.paths.values())


@pytest.mark.parametrize(
    "name, data, match",
    [
        ("empty.tsv", b"", "no pairs in the input"),
        ("blank.tsv", b"\n\n", "no pairs in the input"),
        ("nobody.tmx", b'<?xml version="1.0"?><tmx version="1.4"><header/></tmx>', "no <body> element"),
    ],
)
def test_nothing_kept_is_an_error_and_writes_nothing(
    tmp_path: Path, name: str, data: bytes, match: str
) -> None:
    from lingualite.core.errors import LinguaLiteError

    with pytest.raises(LinguaLiteError, match=match):
        _prepare(tmp_path, name, data)
    assert not (tmp_path / "out").exists() or list((tmp_path / "out").iterdir()) == []


def test_everything_dropped_by_cleaning_is_an_error(tmp_path: Path) -> None:
    from lingualite.core.errors import LinguaLiteError

    with pytest.raises(LinguaLiteError, match="all 2 pairs were dropped by cleaning"):
        _prepare(tmp_path, "same.tsv", b"hello\thello\nsame text\tsame text\n")


def test_progress_in_a_log_is_plain_lines(tmp_path: Path, capsys) -> None:
    tsv, _ = _corpus(tmp_path)
    prepare_corpus([tsv], "en", "fr", tmp_path / "out", NO_LID, SplitConfig(0.2, 0.2, seed=1), progress=True)
    err = capsys.readouterr().err  # pytest's stderr is not a terminal, as under nohup or CI
    assert "prepare en-fr:" in err and "pairs" in err
    assert "\r" not in err and "\x1b" not in err
