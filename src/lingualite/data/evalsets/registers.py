"""The registers the data holds, as held-out test cells for the register benchmark (issue 40, item 1).

A *register* is a kind of text (software help, package descriptions, scripture, UI strings, game stories,
everyday sentences of daily life / news / formal letters / conversation / instructions, fortunes and man pages,
word lists...). :func:`discover_registers` finds every one the data holds, in one place, so a new source plugs
in without code:

* **parallel registers** come from the held-out test files ``DATA/prepared*/en-xx/test.tsv``; a pair's register
  is its doc id's source prefix (``lo:`` help, ``ddtp:`` package descriptions, ``bible:``, ``loui:`` UI
  strings, ``games:``, ``mozui:`` Firefox and Thunderbird strings; :data:`REGISTER_NAMES` gives the known
  prefixes a name, an unknown prefix is a register of its own name). Only test files are read, and a document's split is the same in every language, so a
  non-English pair (``de-fr``) joined through the English sentence of the same document is test data on both
  sides (as :mod:`lingualite.data.pivot` does);
* **everyday registers** are the shipped multi-way sentences (:mod:`lingualite.data.evalsets.everyday`), one
  register per sub-register (``everyday/daily``, ``everyday/news``...) when the set has them;
* **text registers** (monolingual: teacher fidelity only) are ``DATA/corpora/<name>/<lang>.txt`` files (one
  sentence a line: ``monolingual``, ``lexicon`` and any new per-language source) and any ``NAME=GLOB`` the
  caller adds (a man page, a fortune file: the language is the file's stem).

Sampling (the same texts for every model): per cell (register x language pair) at most ``max_pairs`` pairs,
**by document**: pairs are ranked by (their rank inside their document, a seeded hash of the document), so the
sample takes one pair of every document before a second of any; the ranks hash the doc id and the English
sentence, so the same English units are drawn in every language (and a non-English pair reuses them).
"""

from __future__ import annotations

import glob
import hashlib
import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "DEFAULT_RECIPE_REGISTERS",
    "MIN_PAIRS",
    "REGISTER_NAMES",
    "ParallelCell",
    "RegisterSet",
    "calibration_texts",
    "discover_registers",
    "everyday_cells",
    "parallel_cells",
    "register_of_doc",
    "sample_by_document",
    "text_registers",
]

MIN_PAIRS = 20
"""A cell with fewer held-out pairs is left out (and listed): its P@1 would say little (DDTP has 2 en-tr)."""

# doc-id prefix (the source's own short name) -> register name; an unknown prefix is a register of its own name.
REGISTER_NAMES: dict[str, str] = {
    "lo": "help",
    "ddtp": "packages",
    "bible": "bible",
    "loui": "ui",
    "games": "games",
    "mozui": "mozilla-ui",
}
# The pair registers the shipped recipe (configs/distill.yaml: LibreOffice help, DDTP, Bible, LibreOffice UI,
# games) trains on: those the shipped lingualite-small and lingualite-static have seen (the others, everyday
# text and the opt-in text registers, are held out for them).
DEFAULT_RECIPE_REGISTERS: tuple[str, ...] = ("help", "packages", "bible", "ui", "games")
EVERYDAY = "everyday"
NO_DOC = "-"


def register_of_doc(doc_id: str | None) -> str:
    """The register of a prepared pair's doc id (``bible:Gen:6`` -> ``bible``, ``lo:...`` -> ``help``)."""
    if not doc_id or ":" not in doc_id:
        return "other"
    prefix = doc_id.split(":", 1)[0]
    return REGISTER_NAMES.get(prefix, prefix)


def _hash(*parts: object) -> int:
    digest = hashlib.blake2b("\x1f".join(map(str, parts)).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def sample_by_document(
    rows: Sequence[tuple[str, ...]],
    max_pairs: int | None,
    seed: int = 0,
    unit: Callable[[tuple[str, ...]], str] = lambda row: row[0],
) -> list[tuple[str, ...]]:
    """At most ``max_pairs`` of ``(a, b, doc, ...)`` rows, one of every document before a second of any.

    Rows are ranked by (rank inside their document, seeded hash of the document); the rank inside a document
    orders its rows by a seeded hash of ``unit(row)`` (the English side), so every language draws the same
    English units. The result keeps that order (deterministic, independent of file order).
    """
    by_doc: dict[str, list[tuple[str, ...]]] = defaultdict(list)
    for row in rows:
        by_doc[row[2]].append(row)
    ranked = []
    for doc, items in by_doc.items():
        doc_rank = _hash(seed, "doc", doc)
        items = sorted(items, key=lambda r: (_hash(seed, "row", doc, unit(r)), r))
        ranked += [((i, doc_rank), r) for i, r in enumerate(items)]
    ranked.sort(key=lambda x: x[0])
    out = [r for _, r in ranked]
    return out if max_pairs is None else out[:max_pairs]


def _unique_sides4(rows: Iterable[tuple[str, str, str, str]]) -> list[tuple[str, str, str, str]]:
    """:func:`_unique_sides` of ``(a, b, doc, english)`` rows."""
    seen_a: set[str] = set()
    seen_b: set[str] = set()
    out = []
    for row in rows:
        a, b = row[0], row[1]
        if a and b and a != b and a not in seen_a and b not in seen_b:
            seen_a.add(a)
            seen_b.add(b)
            out.append(row)
    return out


def _unique_sides(rows: Iterable[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """Rows whose both sides are unique and different (a query needs exactly one right answer)."""
    seen_a: set[str] = set()
    seen_b: set[str] = set()
    out = []
    for a, b, doc in rows:
        if not a or not b or a == b or a in seen_a or b in seen_b:
            continue
        seen_a.add(a)
        seen_b.add(b)
        out.append((a, b, doc))
    return out


@dataclass
class ParallelCell:
    """Held-out parallel pairs of one register and one language pair: ``src[i]`` translates ``tgt[i]``."""

    register: str
    pair: str  # "en-fr", "de-fr"
    src: list[str]
    tgt: list[str]
    origin: str = ""  # where the pairs came from (for the record)

    @property
    def langs(self) -> tuple[str, str]:
        a, b = self.pair.split("-")
        return a, b


def _read_test(path: Path) -> list[tuple[str, str, str]]:
    rows = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            parts = line.rstrip("\r\n").split("\t")
            if len(parts) >= 2 and parts[0].strip() and parts[1].strip():
                rows.append((parts[0].strip(), parts[1].strip(), parts[2] if len(parts) > 2 else NO_DOC))
    return rows


def _test_files(data_dir: Path) -> dict[str, list[Path]]:
    """``en-xx`` -> its test files in ``DATA/prepared*/en-xx/test.tsv`` (every prepared folder)."""
    files: dict[str, list[Path]] = defaultdict(list)
    for path in sorted(data_dir.glob("prepared*/en-*/test.tsv")):
        files[path.parent.name].append(path)
    return dict(files)


def parallel_cells(
    data_dir: Path,
    langs: Sequence[str],
    pivots: Sequence[str] = (),
    max_pairs: int | None = 200,
    seed: int = 0,
) -> list[ParallelCell]:
    """The held-out parallel pairs of every register the prepared test files hold: ``en-xx`` for each of
    ``langs`` and each non-English pair of ``pivots`` (``"de-fr"``) joined through the English sentence of the
    same document; at most ``max_pairs`` per cell, sampled by document (:func:`sample_by_document`)."""
    files = _test_files(Path(data_dir))
    # (register, lang) -> {(doc, english): translation}
    by_reg: dict[tuple[str, str], dict[tuple[str, str], str]] = defaultdict(dict)
    origin: dict[str, set[str]] = defaultdict(set)
    wanted = set(langs) | {x for p in pivots for x in p.split("-")}
    for pair, paths in files.items():
        lang = pair.split("-", 1)[1]
        if lang not in wanted:
            continue
        for path in paths:
            for en, xx, doc in _read_test(path):
                reg = register_of_doc(doc)
                by_reg[(reg, lang)].setdefault((doc, en), xx)
                origin[reg].add(path.parent.parent.name)
    cells = []
    known = list(REGISTER_NAMES.values())
    registers = sorted(
        {reg for reg, _ in by_reg}, key=lambda r: (known.index(r) if r in known else len(known), r)
    )
    for reg in registers:
        where = ", ".join(f"{o}/*/test.tsv" for o in sorted(origin[reg]))
        for lang in langs:
            units = by_reg.get((reg, lang))
            if not units:
                continue
            rows = _unique_sides((en, xx, doc) for (doc, en), xx in units.items())
            rows = sample_by_document(rows, max_pairs, seed)
            if rows:
                cells.append(
                    ParallelCell(reg, f"en-{lang}", [r[0] for r in rows], [r[1] for r in rows], where)
                )
        for pivot in pivots:
            a, b = pivot.split("-")
            left, right = by_reg.get((reg, a), {}), by_reg.get((reg, b), {})
            joined = sorted((left[k], right[k], k[0], k[1]) for k in left.keys() & right.keys())
            joined = _unique_sides4(joined)
            rows = sample_by_document(joined, max_pairs, seed, unit=lambda r: r[3])
            if rows:
                cells.append(
                    ParallelCell(
                        reg, pivot, [r[0] for r in rows], [r[1] for r in rows], f"{where} (via English)"
                    )
                )
    return cells


def everyday_cells(
    langs: Sequence[str], pivots: Sequence[str] = (), english: str = "en", max_pairs: int | None = None
) -> list[ParallelCell]:
    """The shipped everyday sentences as cells: one register per sub-register when the set has them
    (``everyday/daily``, ``everyday/news``...), else one ``everyday`` register; en-xx and ``pivots``, those
    of languages the set is not translated into left out."""
    from lingualite.data.evalsets import everyday

    subs: tuple[str | None, ...] = tuple(getattr(everyday, "everyday_registers", lambda: ())()) or (None,)
    held = set(everyday.everyday_languages())
    pairs = [(english, lang) for lang in langs] + [tuple(p.split("-")) for p in pivots]
    cells = []
    for sub in subs:
        name = EVERYDAY if sub is None else f"{EVERYDAY}/{sub}"
        for src, tgt in (pair for pair in pairs if set(pair) <= held):
            a, b = (
                everyday.everyday_pairs(src, tgt)
                if sub is None
                else everyday.everyday_pairs(src, tgt, register=sub)
            )
            rows = _unique_sides((x, y, NO_DOC) for x, y in zip(a, b, strict=True))[:max_pairs]
            cells.append(
                ParallelCell(
                    name,
                    f"{src}-{tgt}",
                    [r[0] for r in rows],
                    [r[1] for r in rows],
                    "lingualite.data.evalsets.everyday",
                )
            )
    return cells


def text_registers(
    data_dir: Path | None,
    langs: Sequence[str],
    extra: Mapping[str, str] = {},
    max_texts: int | None = 200,
    seed: int = 0,
) -> dict[str, dict[str, list[str]]]:
    """Monolingual text per register and language, for teacher fidelity: ``DATA/corpora/<name>/<lang>.txt``
    (every corpus folder with per-language text files) and ``extra`` (``{name: glob}``, a file's language is
    its stem, e.g. ``man/de.txt``); at most ``max_texts`` distinct lines of each file, drawn with ``seed``."""
    found: dict[str, dict[str, list[Path]]] = defaultdict(lambda: defaultdict(list))
    if data_dir is not None:
        for path in sorted(Path(data_dir).glob("corpora/*/*.txt")):
            if path.stem in langs:
                found[path.parent.name][path.stem].append(path)
    for name, pattern in extra.items():
        for p in sorted(glob.glob(pattern)):
            if Path(p).stem in langs:
                found[name][Path(p).stem].append(Path(p))
    out: dict[str, dict[str, list[str]]] = {}
    for name in sorted(found):
        for lang in [lang for lang in langs if lang in found[name]]:
            lines: dict[str, None] = {}
            for path in found[name][lang]:
                with open(path, encoding="utf-8", errors="replace") as fh:
                    lines.update((s, None) for s in (line.strip() for line in fh) if s)
            texts = sorted(lines)
            rng = random.Random(_hash(seed, name, lang))
            if max_texts is not None and len(texts) > max_texts:
                texts = rng.sample(texts, max_texts)
            if texts:
                out.setdefault(name, {})[lang] = texts
    return out


@dataclass
class RegisterSet:
    """Everything the benchmark scores: parallel cells (retrieval and fidelity) and text (fidelity only)."""

    cells: list[ParallelCell]
    texts: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    too_small: dict[str, int] = field(default_factory=dict)  # "register pair" -> pairs: cells left out

    @property
    def parallel_registers(self) -> list[str]:
        return list(dict.fromkeys(c.register for c in self.cells))

    def fidelity_texts(self, max_texts: int | None = None) -> dict[str, dict[str, list[str]]]:
        """``{register: {lang: texts}}``: both sides of every parallel cell by language, and the text registers."""
        out: dict[str, dict[str, dict[str, None]]] = defaultdict(lambda: defaultdict(dict))
        for cell in self.cells:
            a, b = cell.langs
            out[cell.register][a].update(dict.fromkeys(cell.src))
            out[cell.register][b].update(dict.fromkeys(cell.tgt))
        for name, by_lang in self.texts.items():
            for lang, texts in by_lang.items():
                out[name][lang].update(dict.fromkeys(texts))
        return {
            reg: {lang: list(t)[:max_texts] for lang, t in by_lang.items()} for reg, by_lang in out.items()
        }

    def all_texts(self) -> list[str]:
        seen: dict[str, None] = {}
        for cell in self.cells:
            seen.update(dict.fromkeys(cell.src))
            seen.update(dict.fromkeys(cell.tgt))
        for by_lang in self.texts.values():
            for texts in by_lang.values():
                seen.update(dict.fromkeys(texts))
        return list(seen)


def discover_registers(
    data_dir: Path | None,
    langs: Sequence[str],
    pivots: Sequence[str] = (),
    max_pairs: int | None = 200,
    seed: int = 0,
    everyday: bool = True,
    extra_text: Mapping[str, str] = {},
    only: Sequence[str] | None = None,
    min_pairs: int = MIN_PAIRS,
    english: str = "en",
) -> RegisterSet:
    """Every register the data holds (see the module docstring); ``only`` keeps the named registers (a name
    also matches its sub-registers: ``everyday`` keeps ``everyday/news``); cells with fewer than ``min_pairs``
    pairs are left out and listed in ``too_small``. Text registers cover English too."""
    cells = parallel_cells(data_dir, langs, pivots, max_pairs, seed) if data_dir is not None else []
    if everyday:
        cells += everyday_cells(langs, pivots, english, max_pairs=max_pairs)
    too_small = {f"{c.register} {c.pair}": len(c.src) for c in cells if len(c.src) < min_pairs}
    cells = [c for c in cells if len(c.src) >= min_pairs]
    text_langs = list(dict.fromkeys([english, *langs, *(x for p in pivots for x in p.split("-"))]))
    texts = text_registers(data_dir, text_langs, extra_text, max_pairs, seed)
    if only:
        keep = lambda reg: any(reg == o or reg.startswith(f"{o}/") for o in only)  # noqa: E731
        cells = [c for c in cells if keep(c.register)]
        texts = {k: v for k, v in texts.items() if keep(k)}
    return RegisterSet(cells, texts, too_small)


def calibration_texts(data_dir: Path, langs: Sequence[str], per_lang: int = 100, seed: int = 0) -> list[str]:
    """Sentences to fit a projection on: ``per_lang`` pairs (both sides) of each ``DATA/prepared/en-xx/train.tsv``
    (the default sources' *training* split, never test text), drawn with ``seed``."""
    out: dict[str, None] = {}
    for lang in langs:
        path = Path(data_dir) / "prepared" / f"en-{lang}" / "train.tsv"
        if not path.is_file():
            continue
        rows = [r for r in _read_test(path)]
        rng = random.Random(_hash(seed, "calibration", lang))
        for en, xx, _ in rng.sample(rows, min(per_lang, len(rows))):
            out.update({en: None, xx: None})
    return list(out)
