"""The register benchmark: retrieval and teacher fidelity per register and language (issue 40, item 1).

A *register* is a kind of text (software help, package descriptions, scripture, UI strings, game stories,
everyday sentences of daily life / news / formal letters / conversation / instructions, fortunes and man pages,
word lists...). This module finds every register the data holds, in one place (:func:`discover_registers`),
so a new source plugs in without code:

* **parallel registers** come from the held-out test files ``DATA/prepared*/en-xx/test.tsv``; a pair's register
  is its doc id's source prefix (``lo:`` help, ``ddtp:`` package descriptions, ``bible:``, ``loui:`` UI
  strings, ``games:``; :data:`REGISTER_NAMES` gives the known prefixes a name, an unknown prefix is a register
  of its own name). Only test files are read, and a document's split is the same in every language, so a
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

Retrieval (:func:`fixed_pool_p_at_1`): every query (both directions) searches a **fixed pool** of ``pool``
candidates: its own translation and ``pool - 1`` other targets of the same cell drawn with a seed; a hit needs
the gold candidate's cosine strictly above every distractor's (a tie is a miss). A fixed pool makes scores
comparable across registers and languages whatever their test sizes; a cell with fewer than ``pool`` pairs
uses all of them and reports its pool (``pool_used``).

Teacher fidelity (:func:`teacher_fidelity`): the mean cosine between the student's vector ``S(x)`` and the
teacher's vector ``T(x)`` projected into the student's space, ``P T(x)``. That direction is the student's own
training target (``MSE(S(x), P T(x))`` after the recipe's PCA): it measures how well the student reproduces what
it was taught, without charging it for the dimensions the PCA removed (the other direction, lifting ``S``
back to the teacher's 512-d space, multiplies the score by the PCA's own loss, reported apart as
``pca_ceiling``: the mean ``|P T(x)| / |T(x)|``). ``P`` is the run's ``pca/`` layer when the model folder has
it (exact); the identity when student and teacher have the same dimension and no PCA; otherwise (the packaged
models ship without their PCA layer) an orthogonal map fitted by Procrustes, ``argmin ||T P^T - S||`` with
orthonormal rows (the form of the recipe's uncentred PCA), on calibration sentences of the training sources'
*train* split: never on the text it is scored on.
"""

from __future__ import annotations

import glob
import hashlib
import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "DEFAULT_POOL",
    "DEFAULT_RECIPE_REGISTERS",
    "REGISTER_NAMES",
    "ParallelCell",
    "Projection",
    "RegisterSet",
    "discover_registers",
    "everyday_cells",
    "fit_orthogonal_projection",
    "fixed_pool_p_at_1",
    "parallel_cells",
    "register_of_doc",
    "sample_by_document",
    "teacher_fidelity",
    "text_registers",
]

DEFAULT_POOL = 50
"""Candidates per query (the gold translation + 49 others): the issue's 'among 50 candidates'."""

MIN_PAIRS = 20
"""A cell with fewer held-out pairs is left out (and listed): its P@1 would say little (DDTP has 2 en-tr)."""

# doc-id prefix (the source's own short name) -> register name; an unknown prefix is a register of its own name.
REGISTER_NAMES: dict[str, str] = {
    "lo": "help",
    "ddtp": "packages",
    "bible": "bible",
    "loui": "ui",
    "games": "games",
}
# What the default recipe (configs/distill.yaml: LibreOffice help, Bible, DDTP) trains on: the registers the
# shipped lingualite-small and lingualite-static have seen (the others are held out for them).
DEFAULT_RECIPE_REGISTERS: tuple[str, ...] = ("help", "packages", "bible")
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
    registers = sorted({reg for reg, _ in by_reg})
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
    (``everyday/daily``, ``everyday/news``...), else one ``everyday`` register; en-xx and ``pivots``."""
    from lingualite.data.evalsets import everyday

    subs: tuple[str | None, ...] = tuple(getattr(everyday, "everyday_registers", lambda: ())()) or (None,)
    cells = []
    for sub in subs:
        name = EVERYDAY if sub is None else f"{EVERYDAY}/{sub}"
        for src, tgt in [(english, lang) for lang in langs] + [tuple(p.split("-")) for p in pivots]:
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


def fixed_pool_p_at_1(sim: np.ndarray, pool: int = DEFAULT_POOL, seed: int = 0) -> tuple[float, int]:
    """P@1 of a square similarity matrix (``sim[i, i]`` = query i and its translation), each query searching
    its gold candidate and ``pool - 1`` other candidates drawn with ``seed``, in both directions (the mean).

    A hit needs the gold score strictly above every drawn distractor's (a tie is a miss). With fewer than
    ``pool`` pairs every other candidate is drawn. Returns (P@1, the pool actually used).
    """
    sim = np.asarray(sim, dtype=np.float64)
    n = sim.shape[0]
    if n == 0 or sim.shape != (n, n):
        raise ValueError(f"need a non-empty square matrix, got {sim.shape}")
    used = min(pool, n)
    rng = np.random.default_rng(seed)
    scores = []
    for matrix in (sim, sim.T):
        hits = 0
        for i in range(n):
            others = np.delete(np.arange(n), i)
            drawn = others if used - 1 >= len(others) else rng.choice(others, used - 1, replace=False)
            hits += bool(len(drawn) == 0 or matrix[i, i] > matrix[i, drawn].max())
        scores.append(hits / n)
    return float(np.mean(scores)), used


# ---------------------------------------------------------------- teacher fidelity


@dataclass
class Projection:
    """``y = x @ components.T (+ bias)``: the teacher's vectors in the student's space, and how it was made."""

    components: np.ndarray  # (student_dim, teacher_dim)
    bias: np.ndarray | None
    how: str

    def apply(self, x: np.ndarray) -> np.ndarray:
        y = np.asarray(x, dtype=np.float32) @ self.components.T.astype(np.float32)
        return y if self.bias is None else y + self.bias.astype(np.float32)


def _unit(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)


def fit_orthogonal_projection(teacher: np.ndarray, student: np.ndarray) -> Projection:
    """A map of the recipe's form (uncentred PCA: ``student_dim`` orthonormal rows) fitted without the run's
    PCA layer: the rows span the top ``student_dim`` uncentred principal directions of the teacher's vectors
    (what the recipe's PCA keeps; from the teacher alone), turned by the rotation that best sends the teacher's
    coordinates there onto the student's vectors (square orthogonal Procrustes, exact for a student that is
    that PCA up to a rotation). Needs student_dim <= teacher_dim and more sentences than student_dim."""
    t, s = np.asarray(teacher, dtype=np.float64), np.asarray(student, dtype=np.float64)
    k = s.shape[1]
    if k > t.shape[1]:
        raise ValueError(f"the student ({k}-d) is wider than the teacher ({t.shape[1]}-d)")
    if len(t) <= k:
        raise ValueError(f"{len(t)} sentences cannot fit a {k}-d projection; give more calibration text")
    basis = np.linalg.svd(t, full_matrices=False)[2][:k]  # (k, dt), uncentred PCA of the teacher
    z = _unit(t @ basis.T)
    u, _, vt = np.linalg.svd(_unit(s).T @ z)  # (k, k)
    rotation = u @ vt
    return Projection(
        (rotation @ basis).astype(np.float32),
        None,
        f"fitted: the teacher's top-{k} uncentred principal directions turned onto the student by orthogonal "
        f"Procrustes, on {len(t)} training-split sentences",
    )


def exact_projection(folder: Path) -> Projection | None:
    """The recipe's PCA layer of a run folder (``<folder>/pca``), or None."""
    pca = Path(folder) / "pca"
    if not (pca / "config.json").is_file():
        return None
    from lingualite.distill.pca import load_projection

    p = load_projection(pca)
    return Projection(p.components, p.bias, f"the run's PCA layer ({pca})")


def teacher_fidelity(student: np.ndarray, teacher: np.ndarray, projection: Projection | None) -> np.ndarray:
    """Per text, cos(S(x), P T(x)) (``projection`` None: the identity, same dimensions)."""
    target = np.asarray(teacher, dtype=np.float32) if projection is None else projection.apply(teacher)
    if target.shape != np.asarray(student).shape:
        raise ValueError(f"student {np.asarray(student).shape} vs projected teacher {target.shape}")
    return np.sum(_unit(student) * _unit(target), axis=1)


def pca_ceiling(teacher: np.ndarray, projection: Projection | None) -> np.ndarray:
    """Per text, ``|P T(x)| / |T(x)|`` (orthonormal rows, no bias: the cosine between T(x) and its projection
    lifted back); 1.0 for the identity."""
    t = np.asarray(teacher, dtype=np.float64)
    if projection is None:
        return np.ones(len(t))
    return np.linalg.norm(_unit(t) @ projection.components.T.astype(np.float64), axis=1)


def fidelity_table(
    student: Callable[[list[str]], np.ndarray],
    teacher: Callable[[list[str]], np.ndarray],
    texts: Mapping[str, Mapping[str, list[str]]],
    projection: Projection | None,
) -> dict[str, Any]:
    """Mean fidelity per register and language (and each's mean), with the projection's ceiling."""
    by_reg: dict[str, dict[str, float]] = {}
    ceiling: dict[str, dict[str, float]] = {}
    for reg, by_lang in texts.items():
        for lang, items in by_lang.items():
            if not items:
                continue
            t = teacher(items)
            by_reg.setdefault(reg, {})[lang] = round(
                float(teacher_fidelity(student(items), t, projection).mean()), 4
            )
            ceiling.setdefault(reg, {})[lang] = round(float(pca_ceiling(t, projection).mean()), 4)
    langs = sorted({lang for row in by_reg.values() for lang in row})
    by_lang = {
        lang: round(float(np.mean([row[lang] for row in by_reg.values() if lang in row])), 4)
        for lang in langs
    }
    return {
        "projection": "identity (same dimensions)" if projection is None else projection.how,
        "by_register": by_reg,
        "by_language": by_lang,
        "pca_ceiling": ceiling,
    }


# ---------------------------------------------------------------- the table


def _cell_seed(seed: int, cell: ParallelCell) -> int:
    return _hash(seed, "pool", cell.register, cell.pair) % (2**32)


def _mean(values: Iterable[float]) -> float | None:
    values = list(values)
    return round(float(np.mean(values)), 4) if values else None


Vectors = Callable[[list[str]], np.ndarray]


def score_retrieval(
    vectors: Vectors | None,
    cells: Sequence[ParallelCell],
    pool: int = DEFAULT_POOL,
    seed: int = 0,
    fitted: Callable[[list[str]], Vectors] | None = None,
) -> tuple[dict[str, dict[str, float]], dict[str, dict[str, int]]]:
    """P@1 per register and pair (:func:`fixed_pool_p_at_1`, the same draws for every model), and the pool
    used where it is below ``pool``. ``vectors`` maps texts to vectors; an encoder that is fitted on the
    texts it ranks (TF-IDF) passes ``fitted(texts)`` instead, called once per cell on its two sides."""
    from lingualite.evaluation.base import cosine_matrix

    scores: dict[str, dict[str, float]] = defaultdict(dict)
    small: dict[str, dict[str, int]] = defaultdict(dict)
    for cell in cells:
        encode = fitted(cell.src + cell.tgt) if fitted is not None else vectors
        assert encode is not None
        sim = cosine_matrix(encode(cell.src), encode(cell.tgt))
        p, used = fixed_pool_p_at_1(sim, pool, _cell_seed(seed, cell))
        scores[cell.register][cell.pair] = round(p, 4)
        if used < pool:
            small[cell.register][cell.pair] = used
    return dict(scores), dict(small)


def summarise(
    p_at_1: Mapping[str, Mapping[str, Mapping[str, float]]],
    seen: Mapping[str, Sequence[str]],
    references: Sequence[str],
    english: str = "en",
) -> dict[str, Any]:
    """Per model: the mean per register (en-xx pairs, non-English pairs), and per pair the mean over all
    registers, over the registers it never saw, and the gap to each reference on those same cells."""
    out: dict[str, Any] = {}
    for model, by_reg in p_at_1.items():
        unseen = [r for r in by_reg if r not in set(seen.get(model, ()))]
        by_register = {
            reg: {
                "en-xx": _mean(v for p, v in row.items() if p.startswith(f"{english}-")),
                "non-english": _mean(v for p, v in row.items() if not p.startswith(f"{english}-")),
            }
            for reg, row in by_reg.items()
        }
        pairs = list(dict.fromkeys(p for row in by_reg.values() for p in row))
        by_pair: dict[str, dict[str, Any]] = {}
        for pair in pairs:
            row: dict[str, Any] = {
                "all": _mean(by_reg[r][pair] for r in by_reg if pair in by_reg[r]),
                "unseen": _mean(by_reg[r][pair] for r in unseen if pair in by_reg[r]),
            }
            for ref in references:
                if ref == model or ref not in p_at_1:
                    continue
                gaps = [
                    by_reg[r][pair] - p_at_1[ref][r][pair]
                    for r in unseen
                    if pair in by_reg[r] and pair in p_at_1[ref].get(r, {})
                ]
                row[f"gap_unseen/{ref}"] = _mean(gaps)
            by_pair[pair] = row
        out[model] = {
            "unseen_registers": unseen,
            "by_register": by_register,
            "by_pair": by_pair,
            "mean_unseen_en_xx": _mean(
                v["unseen"]
                for p, v in by_pair.items()
                if p.startswith(f"{english}-") and v["unseen"] is not None
            ),
            "mean_unseen_non_english": _mean(
                v["unseen"]
                for p, v in by_pair.items()
                if not p.startswith(f"{english}-") and v["unseen"] is not None
            ),
        }
    return out


def calibration_texts(data_dir: Path, langs: Sequence[str], per_lang: int = 60, seed: int = 0) -> list[str]:
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
