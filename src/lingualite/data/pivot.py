"""Non-English pairs (``zh-ru``, ``pl-ru``, ``ja-ko``...) from the prepared English-centred ones, through English.

The packaged sources are multi-way: every language's LibreOffice paragraph, Bible verse and DDTP description is
aligned to the same English unit under the same document id (``lo:<page>``, ``bible:<book>:<chapter>``,
``ddtp:<md5>``: language-independent). So two prepared folders ``en-<src>`` and ``en-<tgt>`` are joined on
(doc id, English text): a match gives the ``src<TAB>tgt<TAB>doc_id`` pair of the two translations of one English
unit.

Why no test pair can come from training data: a prepared pair's split is a hash of its doc id
(:func:`~lingualite.data.split.assign_split`, the same fractions and seed on both sides, which is checked), so a
document is in the same split in every language, and only the ``valid`` and ``test`` files are read: a pivot
test pair is a test pair of *both* ``en-<src>`` and ``en-<tgt>``. The train files are never read.

Caps: ``prepare``'s ``max_valid_pairs``/``max_test_pairs`` keep the pairs of smallest hash of (English,
translation), which differs between languages, so a capped split keeps different English units in each
language; the pivot split is their intersection (a pair needs both translations to have survived), smaller than
either. The quickstart settings cap valid only (2,000 pairs), never test, so pivot test sets are complete.

Written: ``<prepared>/<src>-<tgt>/{valid,test}.tsv`` and ``stats.json`` (per split: pairs per side, joined,
dropped as identical or, in test, as a repeated side, kept per source). A test side repeated (NFKC, casefold)
keeps its first pair only, as ``prepare`` does, so retrieval over the pivot test set is well defined.
"""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lingualite.core.errors import LinguaLiteError
from lingualite.core.io_utils import atomic_path, write_json
from lingualite.data.cleaning import normalize_light
from lingualite.data.readers import read_tsv
from lingualite.data.split import SplitName, assign_split
from lingualite.text.languages import ENGLISH, check_languages, pair_name

__all__ = ["PIVOT_DIR", "PIVOT_SPLITS", "pivot_pairs"]

PIVOT_SPLITS: tuple[SplitName, ...] = ("valid", "test")
_SPLIT_KEYS = ("valid_fraction", "test_fraction", "seed")

Key = tuple[str, str]  # (doc id, normalised English)


def _split_config(folder: Path) -> dict[str, Any]:
    path = folder / "stats.json"
    try:
        stats = json.loads(path.read_text(encoding="utf-8"))
        split = stats["config"]["split"]
        return {k: split[k] for k in (*_SPLIT_KEYS, "max_valid_pairs", "max_test_pairs")}
    except FileNotFoundError:
        raise LinguaLiteError(
            f"{path}: not found; run `lingualite prepare` for {folder.name} first"
        ) from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise LinguaLiteError(f"{path}: not a prepare stats file ({exc})") from exc


def _side(path: Path, split: SplitName, config: dict[str, Any]) -> dict[Key, tuple[str, str]]:
    """(doc id, English) -> (translation, doc id) of one prepared split file; the first pair of a key wins.

    Every pair's doc id must hash to ``split`` under the folder's split settings (else the folder was not
    made by ``prepare`` with them, and the leak guarantee would not hold)."""
    if not path.is_file():
        raise LinguaLiteError(f"{path}: not found; run `lingualite prepare` for {path.parent.name} first")
    out: dict[Key, tuple[str, str]] = {}
    fractions = (config["valid_fraction"], config["test_fraction"], config["seed"])
    for pair in read_tsv(path):
        doc = pair.doc_id if pair.doc_id is not None else normalize_light(pair.src)
        if assign_split(doc, *fractions) != split:
            raise LinguaLiteError(
                f"{path}:{pair.line}: document {doc!r} does not hash to {split} under this folder's split "
                "settings; re-run `lingualite prepare` for it"
            )
        out.setdefault((pair.doc_id or "", normalize_light(pair.src)), (pair.tgt, pair.doc_id or ""))
    return out


def _join(
    src_side: dict[Key, tuple[str, str]], tgt_side: dict[Key, tuple[str, str]], unique: bool
) -> tuple[list[tuple[str, str, str]], Counter[str]]:
    """The (src, tgt, doc id) pairs of the keys both sides have, in the source side's order."""
    counts: Counter[str] = Counter()
    seen_src: set[str] = set()
    seen_tgt: set[str] = set()
    rows: list[tuple[str, str, str]] = []
    for key, (src, doc) in src_side.items():
        found = tgt_side.get(key)
        if found is None:
            continue
        tgt = found[0]
        counts["joined"] += 1
        if normalize_light(src) == normalize_light(tgt):
            counts["identical"] += 1
            continue
        if unique and (normalize_light(src) in seen_src or normalize_light(tgt) in seen_tgt):
            counts["not_unique"] += 1
            continue
        seen_src.add(normalize_light(src))
        seen_tgt.add(normalize_light(tgt))
        rows.append((src, tgt, doc))
        counts[f"kept/{doc.split(':', 1)[0] if ':' in doc else 'other'}"] += 1
    counts["kept"] = len(rows)
    return rows, counts


def _write_tsv(path: Path, rows: list[tuple[str, str, str]]) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.writelines(f"{s}\t{t}\t{d}\n" for s, t, d in rows)


PIVOT_DIR = "prepared-pivot"
"""Where ``lingualite data pivot`` writes under the data folder: beside ``prepared/``, not in it, so the shipped
configs' ``prepared/*/`` globs (English-centred training and validation) do not pick the pivots up."""


def pivot_pairs(
    prepared_dir: str | Path,
    src: str,
    tgt: str,
    splits: Sequence[str] = PIVOT_SPLITS,
    out_dir: str | Path | None = None,
) -> dict[str, Any]:
    """Build ``src-tgt`` pairs from ``prepared_dir/en-<src>`` and ``prepared_dir/en-<tgt>`` (see the module
    docstring); write ``out_dir`` (default ``prepared_dir/<src>-<tgt>``) ``/{split}.tsv`` and ``stats.json``,
    all or nothing; return the stats.

    Only held-out splits can be pivoted: ``splits`` must be among ``valid`` and ``test``.
    """
    src, tgt = check_languages([src, tgt], "pivot language(s)")
    if src == tgt or ENGLISH in (src, tgt):
        raise LinguaLiteError(
            f"pivot {src}-{tgt}: give two different non-English languages (en-xx is prepared)"
        )
    bad = [s for s in splits if s not in PIVOT_SPLITS]
    if bad or not splits:
        raise LinguaLiteError(
            f"pivot splits {bad or '(none)'}: only held-out splits (valid, test) are pivoted"
        )
    prepared_dir = Path(prepared_dir)
    folders = {lang: prepared_dir / pair_name(ENGLISH, lang) for lang in (src, tgt)}
    configs = {lang: _split_config(folder) for lang, folder in folders.items()}
    if any(configs[src][k] != configs[tgt][k] for k in _SPLIT_KEYS):
        raise LinguaLiteError(
            f"{folders[src]} and {folders[tgt]} were split with different settings "
            f"({configs[src]} vs {configs[tgt]}); prepare both the same way"
        )
    out = Path(out_dir) if out_dir is not None else prepared_dir / pair_name(src, tgt)
    stats: dict[str, Any] = {
        "src_lang": src,
        "tgt_lang": tgt,
        "via": ENGLISH,
        "split": configs[src],
        "splits": {},
    }
    stats["inputs"] = {lang: str(folder) for lang, folder in folders.items()}
    rows: dict[str, list[tuple[str, str, str]]] = {}
    for split in (s for s in PIVOT_SPLITS if s in splits):
        sides = [_side(folders[lang] / f"{split}.tsv", split, configs[lang]) for lang in (src, tgt)]
        rows[split], counts = _join(sides[0], sides[1], unique=split == "test")
        stats["splits"][split] = {
            f"en-{src} pairs": len(sides[0]),
            f"en-{tgt} pairs": len(sides[1]),
            **dict(sorted(counts.items())),
        }
    if not any(rows.values()):
        raise LinguaLiteError(f"pivot {src}-{tgt}: no English unit is held out in both; nothing written")
    with contextlib.ExitStack() as stack:
        tmp = {split: stack.enter_context(atomic_path(out / f"{split}.tsv")) for split in rows}
        stats_tmp = stack.enter_context(atomic_path(out / "stats.json"))
        for split, path in tmp.items():
            _write_tsv(path, rows[split])
        write_json(stats_tmp, stats)
    return stats
