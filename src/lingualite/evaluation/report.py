"""``lingualite eval all``: every task for several encoders on the real data, as JSON, Markdown and plots.

The data are the held-out XSR test splits made by ``lingualite prepare`` (``data/prepared/en-xx/test.tsv``),
the non-English ones made by ``lingualite data pivot`` (``data/prepared-pivot/xx-yy/test.tsv``, where present),
and the evaluation sets extracted by ``lingualite data eval-sets`` (``data/eval``). The run is resumable:
each (encoder, task) result is saved under ``OUT/parts/`` as soon as it is done and reused by the next run,
and dense embeddings are cached under ``OUT/cache/``. Both are keyed by the model's content (a hash of its
weights, module list and tokenizer; a baseline's package version) and cached embeddings also by the exact
texts, checked on read (stored key, shape, finite values), so a changed model or a swapped file is
recomputed, never reported. ``OUT`` is locked while a report writes it. Caps
(sentence pairs, queries, words per document) are the same for every encoder and recorded in
``results.json``. A test pair with a side the model knows no token of (or a malformed line) stops the run
naming ``FILE:LINE``; with ``skip_bad`` (``--skip-bad``) it is skipped and counted, in each task's result
(XSR: ``skipped``, per file and in all; the other tasks: ``skipped_lines``), its progress line and
``results.md``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import platform
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from lingualite.core.io_utils import atomic_path, write_json
from lingualite.encoders.base import Encoder
from lingualite.encoders.resolve import load_encoder
from lingualite.encoders.spec import model_content_key, spec_folder
from lingualite.evaluation.efficiency import cpu_model
from lingualite.evaluation.rendering import headline, write_markdown, write_plots
from lingualite.models.run_folder import open_run
from lingualite.text.languages import CORE_TRANSLATION_LANGS, ENGLISH

logger = logging.getLogger(__name__)

__all__ = ["BASELINES", "TASKS", "ReportSettings", "efficiency_texts", "run_report"]

BASELINES: tuple[str, ...] = ("tfidf", "minilm", "use-m", "e5-small")
TASKS: tuple[str, ...] = ("xsr", "classify", "pairs", "sts", "ir", "efficiency")
CLASSIFY_SETS = ("libreoffice-modules", "bible-genres", "ddtp-sections")


@dataclass
class ReportSettings:
    """Where the data are and the caps every encoder gets (defaults fit a 2-core CPU)."""

    eval_dir: Path = Path("data/eval")
    prepared_dir: Path = Path("data/prepared")
    pivot_dir: Path | None = Path("data/prepared-pivot")  # xx-yy test pairs; None: English-centred only
    langs: tuple[str, ...] = CORE_TRANSLATION_LANGS  # the 12 default ones (add others by name)
    tasks: tuple[str, ...] = TASKS
    # Caps keep the slowest baseline (e5-small, ~20 sentences/s on 2 cores) near half an hour for all tasks.
    xsr_max_pairs: int | None = 1000  # seeded subsample of each test split
    classifiers: tuple[str, ...] = ("logreg", "mlp")
    seeds: int = 5
    max_words: int | None = 64  # documents (classification, IR corpus) cut to their first N words
    max_docs: int | None = 400  # seeded documents per classification file (training file included)
    pairs_max_train: int | None = 2000
    pairs_max_test: int | None = 1000
    ir_max_queries: int | None = 400
    efficiency_sentences: int = 1000
    efficiency_energy: bool = True
    seed: int = 0
    threads: int | None = None  # CPU threads per encoder (default: all available cores)
    device: str = "auto"  # where torch encoders run (lingualite.core.device)
    skip_bad: bool = False  # skip and count bad test lines (no known token, malformed) instead of stopping
    extra: dict[str, Any] = field(default_factory=dict)


class CachedEncoder:
    """Wraps a dense encoder; each ``encode`` call's output is cached on disk by a hash of the texts."""

    def __init__(self, encoder: Encoder, key: str, cache_dir: Path) -> None:
        self.inner = encoder
        self.name = encoder.name
        self.key = key
        self.cache_dir = Path(cache_dir)

    @property
    def dimension(self) -> int:
        return int(getattr(self.inner, "dimension", 0))

    def _cached(self, kind: str, texts: list[str], fn: Callable[[list[str]], np.ndarray]) -> np.ndarray:
        digest = hashlib.blake2b(digest_size=16)
        digest.update(f"{self.key}\0{kind}\0{len(texts)}\0".encode())
        for text in texts:
            digest.update(text.encode("utf-8", "surrogatepass") + b"\0")
        key = digest.hexdigest()
        path = self.cache_dir / f"{key}.npz"
        if path.is_file():
            vectors = self._read(path, key, len(texts))
            if vectors is not None:
                return vectors
        vectors = np.asarray(fn(texts), dtype=np.float32)
        with atomic_path(path) as tmp, open(tmp, "wb") as fh:
            np.savez(fh, vectors=vectors, key=np.array(key))
        return vectors

    def _read(self, path: Path, key: str, rows: int) -> np.ndarray | None:
        """The cached vectors if the file is the one for ``key`` (its content says so, not only its name)
        and has the expected shape; otherwise None (recomputed, with a warning)."""
        try:
            with np.load(path, allow_pickle=False) as data:
                stored, vectors = str(data["key"]), np.asarray(data["vectors"])
        except (OSError, ValueError, KeyError) as exc:
            logger.warning("%s: unreadable embedding cache (%s); recomputing", path, exc)
            return None
        dim = self.dimension
        problem = (
            "belongs to other texts or another model"
            if stored != key
            else f"has shape {vectors.shape}, expected ({rows}, {dim or 'd'})"
            if vectors.ndim != 2 or vectors.shape[0] != rows or (dim and vectors.shape[1] != dim)
            else "holds non-finite values"
            if not np.isfinite(vectors).all()
            else None
        )
        if problem:
            logger.warning("%s: embedding cache %s; recomputing", path, problem)
            return None
        return vectors.astype(np.float32, copy=False)

    def encode(self, texts: list[str]) -> np.ndarray:
        return self._cached("encode", list(texts), self.inner.encode)  # type: ignore[arg-type]

    def __getattr__(self, name: str) -> Any:
        if name == "encode_queries" and hasattr(self.inner, "encode_queries"):
            return lambda texts: self._cached("query", list(texts), self.inner.encode_queries)
        if name == "no_known_token" and hasattr(self.inner, "no_known_token"):
            # the test of lingualite.encoders.known_tokens (XSR refuses or skips such a pair before encoding):
            # hidden, it let eval all score a text the model knows no token of as the [UNK] row
            return self.inner.no_known_token
        raise AttributeError(name)


def display_name(model: str) -> str:
    path = Path(model)
    return path.name if path.is_dir() else model


def display_names(models: Sequence[str]) -> dict[str, str]:
    """A distinct row name per model: the folder name, or ``parent/name`` where two folders share a name
    (two runs both called ``model`` are two rows, not one)."""
    plain = [display_name(m) for m in models]
    names = {}
    for model, name in zip(models, plain, strict=True):
        if plain.count(name) > 1 and Path(model).is_dir():
            resolved = Path(model).resolve()
            name = f"{resolved.parent.name}/{resolved.name}"
        names[model] = name
    if len(set(names.values())) < len(names):
        names = {m: (str(Path(m).resolve()) if Path(m).is_dir() else m) for m in models}
    return names


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name)


def _task_runs(settings: ReportSettings) -> dict[str, Callable[[Any], dict[str, Any]]]:
    """Task name -> function(encoder) -> metrics, on the real data, for the tasks whose data exist."""
    from lingualite.evaluation import suite

    s = settings
    ev = Path(s.eval_dir)
    runs: dict[str, Callable[[Any], dict[str, Any]]] = {}
    xsr_files = [p for lang in s.langs if (p := Path(s.prepared_dir) / f"en-{lang}" / "test.tsv").is_file()]
    if s.pivot_dir is not None:
        xsr_files += sorted(
            p for p in Path(s.pivot_dir).glob("*-*/test.tsv") if _both_in(p.parent.name, s.langs)
        )
    if "xsr" in s.tasks and xsr_files:
        runs["xsr"] = lambda enc: suite.xsr_from_files(
            enc, xsr_files, max_pairs=s.xsr_max_pairs, seed=s.seed, skip_bad=s.skip_bad
        )
    for name in CLASSIFY_SETS:
        folder = ev / "classify" / name
        tests = [p for lang in (ENGLISH, *s.langs) if (p := folder / f"test.{lang}.tsv").is_file()]
        if "classify" in s.tasks and (folder / "train.en.tsv").is_file() and tests:
            for clf in s.classifiers:
                runs[f"classify/{name}/{clf}"] = lambda enc, f=folder, t=tests, c=clf: (
                    suite.classification_from_files(
                        enc,
                        f / "train.en.tsv",
                        t,
                        c,
                        s.seeds,
                        s.max_words,
                        max_docs=s.max_docs,
                        seed=s.seed,
                        skip_bad=s.skip_bad,
                    )
                )
    folder = ev / "pairs" / "bible-paraphrase"
    tests = [p for lang in (ENGLISH, *s.langs) if (p := folder / f"test.{lang}.tsv").is_file()]
    if "pairs" in s.tasks and (folder / "train.en.tsv").is_file() and tests:
        runs["pairs/bible-paraphrase"] = lambda enc: suite.pairs_from_files(
            enc,
            folder / "train.en.tsv",
            tests,
            s.seeds,
            s.pairs_max_train,
            max_test=s.pairs_max_test,
            seed=s.seed,
            skip_bad=s.skip_bad,
        )
    lee = ev / "sts" / "lee" / "en.tsv"
    if "sts" in s.tasks and lee.is_file():
        runs["sts/lee"] = lambda enc: suite.sts_from_files(enc, [lee], skip_bad=s.skip_bad)
    ir = ev / "ir" / "libreoffice-index"
    if "ir" in s.tasks and (ir / "en" / "corpus.tsv").is_file():
        others = [ir / lang for lang in s.langs if (ir / lang / "queries.tsv").is_file()]
        runs["ir/libreoffice-index"] = lambda enc: suite.ir_from_files(
            enc, ir / "en", others, s.ir_max_queries, s.max_words, s.seed, skip_bad=s.skip_bad
        )
    return runs


def _both_in(pair: str, langs: Sequence[str]) -> bool:
    return all(lang in langs for lang in pair.split("-"))


def efficiency_texts(settings: ReportSettings) -> list[str]:
    for lang in settings.langs:
        path = Path(settings.prepared_dir) / f"en-{lang}" / "test.tsv"
        if path.is_file():
            with open(path, encoding="utf-8") as fh:
                texts = [
                    line.split("\t", 1)[0]
                    for _, line in zip(range(settings.efficiency_sentences), fh, strict=False)
                ]
            if texts:
                return texts
    raise FileNotFoundError(f"no test split under {settings.prepared_dir} for the efficiency texts")


def run_report(
    models: Sequence[str],
    out: Path,
    settings: ReportSettings | None = None,
    progress: Callable[[str], None] = print,
    force: bool = False,
) -> dict[str, Any]:
    """Evaluate every model on every task whose data exist; write ``results.json``, ``results.md``, plots.

    :param models: model folders and/or baseline names (``tfidf``, ``minilm``, ``use-m``, ``e5-small``).
    :param out: report folder (``parts/`` and ``cache/`` make a re-run resume).
    :param force: recompute results already in ``out/parts`` (embedding caches are still used).
    """
    settings = settings or ReportSettings()
    out = Path(out)
    runs = _task_runs(settings)
    if not runs and "efficiency" not in settings.tasks:
        raise FileNotFoundError(
            f"no evaluation data under {settings.eval_dir} or {settings.prepared_dir}: run "
            "`lingualite data eval-sets` and `lingualite prepare` (or `lingualite quickstart`) first"
        )
    folders = [f for m in models if (f := spec_folder(m)) is not None]
    with open_run(out, "report", inputs=folders):  # never a folder holding (or inside) a model it evaluates
        return _run_report(models, out, settings, runs, progress, force)


def _finished_part(part: Path, key: str, force: bool) -> dict[str, Any] | None:
    """A saved result, if it was computed for this exact model (same content key) and is readable."""
    if force or not part.is_file():
        return None
    try:
        metrics = json.loads(part.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return metrics if isinstance(metrics, dict) and metrics.get("model_key") == key else None


def _run_report(
    models: Sequence[str],
    out: Path,
    settings: ReportSettings,
    runs: dict[str, Callable[[Any], dict[str, Any]]],
    progress: Callable[[str], None],
    force: bool,
) -> dict[str, Any]:
    from lingualite.evaluation.suite import skipped_count

    results: dict[str, dict[str, Any]] = {}
    names = display_names(models)
    for model in models:
        name = names[model]
        key = model_content_key(model)
        results[name] = {}
        encoder: Any = None
        for task, run in runs.items():
            part = out / "parts" / _safe(name) / f"{_safe(task)}.json"
            done = _finished_part(part, key, force)
            if done is not None:
                results[name][task] = done
                progress(f"{name} {task}: done before (in {part})")
                continue
            if encoder is None:
                loaded = load_encoder(model, threads=settings.threads, device=settings.device)
                dense = not callable(getattr(loaded, "fit", None))
                encoder = CachedEncoder(loaded, key, out / "cache") if dense else loaded
            t0 = time.perf_counter()
            progress(f"{name} {task}: running ...")
            metrics = run(encoder)
            metrics["seconds"] = round(time.perf_counter() - t0, 1)
            metrics["model_key"] = key
            write_json(part, metrics)
            results[name][task] = metrics
            skipped = skipped_count(metrics)  # bad test lines skipped under skip_bad: never silent
            shown = f", {skipped:,} bad test line(s) skipped" if skipped else ""
            progress(f"{name} {task}: {headline(task, metrics)} ({metrics['seconds']} s{shown})")
        encoder = None
        if "efficiency" in settings.tasks:
            part = out / "parts" / _safe(name) / "efficiency.json"
            done = _finished_part(part, key, force)
            if done is not None:
                results[name]["efficiency"] = done
            else:
                from lingualite.evaluation.efficiency import measure_efficiency
                from lingualite.evaluation.training_time import training_time_per_10k_steps

                progress(f"{name} efficiency: measuring in a fresh process ...")
                eff = measure_efficiency(
                    model,
                    efficiency_texts(settings),
                    energy=settings.efficiency_energy,
                    threads=settings.threads,
                    device=settings.device,
                )
                if Path(model).is_dir():
                    eff["training"] = training_time_per_10k_steps(model)
                eff["model_key"] = key
                write_json(part, eff)
                results[name]["efficiency"] = eff
            progress(f"{name} efficiency: {headline('efficiency', results[name]['efficiency'])}")
    report = {
        "models": results,
        "settings": {k: (str(v) if isinstance(v, Path) else v) for k, v in asdict(settings).items()},
        "environment": {
            "machine": platform.machine(),
            "processor": cpu_model() or "unknown",
            "python": platform.python_version(),
        },
        "created": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    write_json(out / "results.json", report)
    write_markdown(report, out / "results.md")
    write_plots(report, out)
    return report
