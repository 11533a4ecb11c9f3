"""Document alignment F1 on LibreOffice help pages held out from training.

Each help page exists in English and in each target language, with the same paragraph ``id``s
(:func:`lingualite.data.sources.libreoffice.parse_page`): the English and the translated page are two
documents whose shared ids are the gold 1-1 links. Only pages of the prepared *test* split are used (the
split is by document, ``doc_id = "lo:<page>"``, :func:`lingualite.data.split.assign_split` with the
fractions and seed recorded in ``prepared/en-<xx>/stats.json``), and only pages with at least
``min_paragraphs`` shared paragraphs. Documents keep their order; to make the task non-trivial a seeded
share ``drop`` of the paragraphs is removed from *each side independently*, so a gold link survives only
when both of its paragraphs do and the others must be skipped (1-0 / 0-1) by the aligner.

Metric: Vecalign's *strict* precision / recall / F1 (Thompson & Koehn 2019, ``score.py``): a predicted
non-skip block is correct only if it is exactly a gold 1-1 link; precision over predicted non-skip blocks,
recall over gold links; counts are summed over the pages of a language pair (micro). *Lax*: a gold link
counts as found when one predicted block holds both of its paragraphs, and a predicted block is correct
when it holds at least one gold link.
"""

from __future__ import annotations

import json
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from lingualite.alignment.result import Alignment
from lingualite.core.errors import LinguaLiteError

__all__ = [
    "AlignmentCase",
    "build_case",
    "evaluate_aligner",
    "held_out_pages",
    "load_cases",
    "score_alignment",
]

Aligner = Callable[[list[str], list[str]], Alignment]


@dataclass
class AlignmentCase:
    """Two documents and their gold 1-1 links ``(source line, target line)``."""

    name: str
    src: list[str]
    tgt: list[str]
    gold: set[tuple[int, int]] = field(default_factory=set)


def build_case(
    name: str, src_pars: dict[str, str], tgt_pars: dict[str, str], drop: float, seed: int = 0
) -> AlignmentCase:
    """Documents from two pages' ``{paragraph id: text}`` (in page order): each side loses a seeded share
    ``drop`` of its paragraphs independently; gold links join the kept paragraphs with the same id."""
    rng = np.random.default_rng([seed, zlib.crc32(name.encode("utf-8"))])
    keep_src = [k for k, r in zip(src_pars, rng.random(len(src_pars)), strict=True) if r >= drop]
    keep_tgt = [k for k, r in zip(tgt_pars, rng.random(len(tgt_pars)), strict=True) if r >= drop]
    tgt_index = {k: j for j, k in enumerate(keep_tgt)}
    gold = {(i, tgt_index[k]) for i, k in enumerate(keep_src) if k in tgt_index}
    return AlignmentCase(name, [src_pars[k] for k in keep_src], [tgt_pars[k] for k in keep_tgt], gold)


def score_alignment(pred: Alignment, gold: set[tuple[int, int]]) -> dict[str, int]:
    """Counts for strict and lax precision / recall (see the module docstring)."""
    blocks = [(s, t) for s, t, _ in pred if s and t]
    strict = sum(1 for s, t in blocks if len(s) == 1 and len(t) == 1 and (s[0], t[0]) in gold)
    where = {}
    for n, (s, t) in enumerate(blocks):
        for i in s:
            for j in t:
                where[(i, j)] = n
    found = {where[link] for link in gold if link in where}
    return {
        "strict_correct": strict,
        "lax_links_found": sum(1 for link in gold if link in where),
        "lax_blocks_correct": len(found),
        "predicted": len(blocks),
        "gold": len(gold),
    }


def _prf(correct_p: int, predicted: int, correct_r: int, gold: int) -> dict[str, float]:
    p = correct_p / predicted if predicted else 0.0
    r = correct_r / gold if gold else 0.0
    return {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0}


def evaluate_aligner(aligner: Aligner, cases: Sequence[AlignmentCase]) -> dict[str, float]:
    """Strict and lax P/R/F1 of ``aligner`` over ``cases`` (micro), and its seconds per document pair."""
    totals = dict.fromkeys(
        ("strict_correct", "lax_links_found", "lax_blocks_correct", "predicted", "gold"), 0
    )
    start = time.perf_counter()
    for case in cases:
        counts = score_alignment(aligner(case.src, case.tgt), case.gold)
        for key, value in counts.items():
            totals[key] += value
    seconds = time.perf_counter() - start
    strict = _prf(totals["strict_correct"], totals["predicted"], totals["strict_correct"], totals["gold"])
    lax = _prf(totals["lax_blocks_correct"], totals["predicted"], totals["lax_links_found"], totals["gold"])
    return {
        **strict,
        "lax_f1": lax["f1"],
        "documents": len(cases),
        "gold_links": totals["gold"],
        "seconds_per_document": seconds / max(len(cases), 1),
    }


def _split_config(prepared: Path, lang: str) -> tuple[float, float, int]:
    stats = prepared / f"en-{lang}" / "stats.json"
    try:
        split = json.loads(stats.read_text(encoding="utf-8"))["config"]["split"]
        return float(split["valid_fraction"]), float(split["test_fraction"]), int(split.get("seed", 0))
    except FileNotFoundError as exc:
        raise LinguaLiteError(f"{stats}: not found; run `lingualite prepare` for en-{lang} first") from exc
    except (KeyError, TypeError, ValueError) as exc:
        raise LinguaLiteError(f"{stats}: no config.split with valid/test fractions") from exc


def held_out_pages(help_root: Path, prepared: Path, lang: str, split: str = "test") -> list[str]:
    """Help pages (paths under ``en-US/text``) that ``lingualite prepare`` put in ``split`` for en-``lang``."""
    from lingualite.data.sources.libreoffice import HELP_DIRS
    from lingualite.data.split import assign_split

    valid, test, seed = _split_config(prepared, lang)
    en_dir = help_root / HELP_DIRS["en"] / "text"
    pages = sorted(p.relative_to(en_dir).as_posix() for p in en_dir.rglob("*.html"))
    return [p for p in pages if assign_split(f"lo:{p}", valid, test, seed) == split]


def load_cases(
    raw: Path,
    prepared: Path,
    lang: str,
    min_paragraphs: int = 20,
    drop: float = 0.15,
    seed: int = 0,
    split: str = "test",
    src: str = "en",
) -> list[AlignmentCase]:
    """The evaluation documents of ``src``-``lang``: pages held out (in ``split``) for every non-English side
    of the pair, with >= ``min_paragraphs`` paragraph ids on both pages. ``src`` is English by default; any
    two supported languages pair, since every help page has the same paragraph ids in every language."""
    from lingualite.data.sources.libreoffice import HELP_DIRS, find_help_root, parse_page

    root = find_help_root(Path(raw))
    for side in (src, lang):
        if side not in HELP_DIRS or not (root / HELP_DIRS[side] / "text").is_dir():
            raise LinguaLiteError(f"{root}: no help pages for {side!r}; fetch them first")
    sides = [x for x in (src, lang) if x != "en"]
    held = [set(held_out_pages(root, Path(prepared), x, split)) for x in sides]
    pages = sorted(set.intersection(*held))
    cases = []
    for page in pages:
        a, b = (root / HELP_DIRS[x] / "text" / page for x in (src, lang))
        if not (a.is_file() and b.is_file()):
            continue
        src_pars, tgt_pars = parse_page(a), parse_page(b)
        if sum(1 for k in src_pars if k in tgt_pars) >= min_paragraphs:
            name = f"{lang}:{page}" if src == "en" else f"{src}-{lang}:{page}"
            cases.append(build_case(name, src_pars, tgt_pars, drop, seed))
    if not cases:
        raise LinguaLiteError(f"{root}: no {split} page for {src}-{lang} has >= {min_paragraphs} paragraphs")
    return cases
