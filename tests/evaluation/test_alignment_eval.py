"""Alignment F1 on help pages: gold links from paragraph ids, the seeded drop, held-out pages, scoring."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lingualite.core.errors import LinguaLiteError
from lingualite.data.split import assign_split
from lingualite.evaluation.document_alignment import (
    build_case,
    evaluate_aligner,
    held_out_pages,
    load_cases,
    score_alignment,
)


def test_gold_links_join_kept_paragraphs_with_the_same_id() -> None:
    en = {f"p{i}": f"english {i}" for i in range(40)}
    fr = {f"p{i}": f"francais {i}" for i in range(40) if i != 7}
    fr["extra"] = "seulement en francais"
    whole = build_case("fr:x.html", en, fr, drop=0.0)
    assert len(whole.src) == 40 and len(whole.tgt) == 40 and len(whole.gold) == 39
    assert all(whole.src[i].split()[1] == whole.tgt[j].split()[1] for i, j in whole.gold)

    case = build_case("fr:x.html", en, fr, drop=0.25, seed=3)
    assert case == build_case("fr:x.html", en, fr, drop=0.25, seed=3)  # seeded
    assert case != build_case("fr:x.html", en, fr, drop=0.25, seed=4)
    assert 20 <= len(case.src) < 40 and 20 <= len(case.tgt) < 40  # each side loses its own share
    assert all(case.src[i].split()[1] == case.tgt[j].split()[1] for i, j in case.gold)
    kept_both = {t.split()[1] for t in case.src} & {t.split()[1] for t in case.tgt}
    assert len(case.gold) == len(kept_both)
    # document order is kept on both sides: the gold links are monotone
    links = sorted(case.gold)
    assert [j for _, j in links] == sorted(j for _, j in links)


def test_strict_and_lax_counts() -> None:
    gold = {(0, 0), (1, 1), (2, 2), (3, 3)}
    pred = [((0,), (0,), 1.0), ((1, 2), (1,), 0.5), ((), (2,), 0.0), ((3,), (3,), 0.9), ((4,), (), 0.0)]
    counts = score_alignment(pred, gold)
    assert counts == {
        "strict_correct": 2,
        "lax_links_found": 3,
        "lax_blocks_correct": 3,
        "predicted": 3,
        "gold": 4,
    }


def test_evaluate_aligner_micro_averages(tmp_path: Path) -> None:
    en = {f"p{i}": f"e{i}" for i in range(10)}
    case = build_case("fr:a.html", en, dict(en), drop=0.0)

    def diagonal(src: list[str], tgt: list[str]):
        return [((i,), (i,), 1.0) for i in range(len(src))]

    result = evaluate_aligner(diagonal, [case, case])
    assert result["f1"] == 1.0 and result["documents"] == 2 and result["gold_links"] == 20
    assert result["seconds_per_document"] >= 0.0


def _page(paragraphs: dict[str, str]) -> str:
    body = "".join(f'<p id="{pid}" class="paragraph">{text}</p>\n' for pid, text in paragraphs.items())
    return f'<html><body><div id="DisplayArea">\n{body}</div></body></html>'


def _help_tree(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "help"
    for i in range(12):
        n = 5 if i % 3 == 0 else 25
        en = {f"par_id{i}_{k}": f"English paragraph {k} of page {i}" for k in range(n)}
        fr = {pid: text.replace("English", "Francais") for pid, text in en.items()}
        for lang, pars in (("en-US", en), ("fr", fr)):
            path = root / lang / "text" / "swriter" / f"page{i}.html"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(_page(pars), encoding="utf-8")
    prepared = tmp_path / "prepared"
    (prepared / "en-fr").mkdir(parents=True)
    split = {"valid_fraction": 0.25, "test_fraction": 0.5, "seed": 7}
    (prepared / "en-fr" / "stats.json").write_text(json.dumps({"config": {"split": split}}))
    return root, prepared


def test_only_held_out_pages_with_enough_paragraphs(tmp_path: Path) -> None:
    root, prepared = _help_tree(tmp_path)
    test_pages = held_out_pages(root, prepared, "fr", "test")
    expected = [
        f"swriter/page{i}.html"
        for i in range(12)
        if assign_split(f"lo:swriter/page{i}.html", 0.25, 0.5, 7) == "test"
    ]
    assert test_pages == sorted(expected) and 0 < len(test_pages) < 12
    cases = load_cases(root, prepared, "fr", min_paragraphs=20, drop=0.0)
    long_tests = [p for p in test_pages if int(p.split("page")[1].split(".")[0]) % 3 != 0]
    assert sorted(c.name for c in cases) == sorted(f"fr:{p}" for p in long_tests)
    assert all(len(c.gold) == 25 for c in cases)


def test_missing_split_or_language_is_a_clear_error(tmp_path: Path) -> None:
    root, prepared = _help_tree(tmp_path)
    with pytest.raises(LinguaLiteError, match="stats.json"):
        load_cases(root, tmp_path / "nowhere", "fr")
    with pytest.raises(LinguaLiteError, match="no help pages for 'de'"):
        load_cases(root, prepared, "de")
    with pytest.raises(LinguaLiteError, match=">= 500 paragraphs"):
        load_cases(root, prepared, "fr", min_paragraphs=500)


def test_any_two_languages_pair_on_pages_held_out_for_both(tmp_path: Path) -> None:
    root, prepared = _help_tree(tmp_path)
    for i in range(12):  # the same pages in Chinese and Russian
        n = 5 if i % 3 == 0 else 25
        for lang, word in (("zh-CN", "中文段落"), ("ru", "Абзац")):
            pars = {f"par_id{i}_{k}": f"{word} {k} {i}" for k in range(n)}
            path = root / lang / "text" / "swriter" / f"page{i}.html"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(_page(pars), encoding="utf-8")
    split = {"valid_fraction": 0.25, "test_fraction": 0.5, "seed": 7}
    for pair in ("en-zh", "en-ru"):
        (prepared / pair).mkdir()
        (prepared / pair / "stats.json").write_text(json.dumps({"config": {"split": split}}))
    cases = load_cases(root, prepared, "ru", min_paragraphs=20, drop=0.0, src="zh")
    english = load_cases(root, prepared, "fr", min_paragraphs=20, drop=0.0)
    assert [c.name.split(":")[1] for c in cases] == [c.name.split(":")[1] for c in english]
    assert all(c.name.startswith("zh-ru:") and c.src[0].startswith("中文段落") for c in cases)
    assert all(c.tgt[0].startswith("Абзац") and len(c.gold) == 25 for c in cases)
