"""Leave-one-source-out: how well does the distilled student do on a corpus it never saw, next to USE-m?

The prepared pairs mix three sources (the doc id prefix: ``bible``, ``lo`` = LibreOffice help, ``ddtp`` =
Debian package descriptions). For each held-out source S:

1. ``WORK/S/data/en-xx/{train,valid}.tsv``: the prepared pairs without S (all 4 language pairs), and
   ``WORK/S/distill.yaml``: the distillation config (``--config``, teacher ``--teacher``) with only its data
   files changed: same pairs cap, steps, vocabulary size as the full student.
2. ``lingualite distill`` into ``WORK/S/model`` in a subprocess under ``flock LOCK`` (skipped when that model
   is complete; ``--resume`` when it holds checkpoints).
3. XSR P@1 (square protocol, mean of both directions, as ``lingualite eval xsr``) on S's test pairs only, per
   language pair (S's whole test pool of that pair), for that LOSO student (never saw S), the full student
   (``--full-model``: saw S's training documents) and USE-m; as a control, the same models on the other
   sources' test pairs (the LOSO student saw those). ``--extra-test NAME=GLOB`` adds other test files
   (``en<TAB>xx[<TAB>doc]``, named NAME/<parent folder>) for every model.

Scores are cached in the JSON (keyed by test set, a digest of its pairs and a fingerprint of the model's
files): reruns only evaluate what is new. Writes OUT.json and OUT.md and prints the table.

    python benchmarks/leave_one_source_out.py --sources bible ddtp lo   # 7-11 min per source on 2 cores
    python benchmarks/leave_one_source_out.py --sources bible --max-steps 20 --smoke \
        --work /tmp/loso-dry --out /tmp/loso-dry/result                       # pipeline check, ~3 min
    python benchmarks/leave_one_source_out.py --extra-test ui=/work/data/ui/en-*/test.tsv

``--monolingual GLOB`` adds untranslated sentences to every LOSO student's distillation
(``data.monolingual_files``; e.g. ``lingualite data fetch --sources monolingual`` output, which holds no Bible
text), each distilled with the MSE to its teacher vector only; the prepared test and validation sentences are
never among them (``data.monolingual_exclude_files``). Use another ``--work`` and ``--out``:

    python benchmarks/leave_one_source_out.py --sources bible --work /work/models/loso-mono \
        --monolingual '/work/data/corpora/monolingual/*.txt' --out benchmarks/results/loso_monolingual
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import glob
import hashlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

LOCK = "/tmp/lingualite-bench.lock"
ALIASES = {"libreoffice": "lo"}  # the doc ids of LibreOffice help pages start with "lo:"
# the only config keys a LOSO run changes (the monolingual ones with --monolingual)
DATA_KEYS = ("data.train_files", "data.valid_files", "data.max_train_pairs") + tuple(
    f"data.{k}" for k in ("monolingual_files", "max_monolingual_sentences", "monolingual_exclude_files")
)


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sources", nargs="+", default=["bible", "ddtp", "lo"], help="sources to hold out")
    p.add_argument("--config", default="distill", help="distillation config (YAML or shipped name)")
    p.add_argument("--teacher", default="use-m", help="teacher.name of the config (empty: keep)")
    p.add_argument("--full-model", default="/work/models/distill-usem", help="student trained on all")
    p.add_argument("--baseline", default="use-m", help="the reference encoder (the teacher)")
    p.add_argument("--work", type=Path, default=Path("/work/models/loso"), help="WORK/<S>/{data,model}")
    p.add_argument("--data-dir", type=Path, default=None, help="default: $LINGUALITE_DATA_DIR")
    p.add_argument("--extra-test", action="append", default=[], metavar="NAME=GLOB", help="more tests")
    p.add_argument("--monolingual", action="append", default=[], metavar="GLOB", help="untranslated text")
    p.add_argument(
        "--extra-train",
        action="append",
        default=[],
        metavar="GLOB",
        help="more training pair files (other sources, e.g. data/prepared-ui/*/train.tsv); never the held-out one",
    )
    p.add_argument("--max-train-pairs", type=int, default=None, help="data.max_train_pairs (default: config)")
    p.add_argument("--max-monolingual", type=int, default=None, help="data.max_monolingual_sentences")
    p.add_argument("--max-steps", type=int, default=None, help="passed to lingualite distill (dry runs)")
    p.add_argument("--smoke", action="store_true", help="passed to lingualite distill (dry runs)")
    p.add_argument("--threads", type=int, default=None, help="passed to lingualite distill")
    p.add_argument("--lock", default=LOCK, help="flock file around each distillation and evaluation")
    p.add_argument("--out", type=Path, default=Path("benchmarks/results/leave_one_source_out"))
    args = p.parse_args()
    args.sources = [ALIASES.get(s, s) for s in args.sources]
    return args


@contextlib.contextmanager
def bench_lock(path: str) -> Iterator[None]:
    """The shared CPU lock (the same ``flock`` that ``flock(1) path`` takes)."""
    with open(path, "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def pair_dirs(data_dir: Path) -> list[Path]:
    return sorted(p for p in (data_dir / "prepared").glob("en-*") if (p / "test.tsv").is_file())


def prepare_data(source: str, data_dir: Path, folder: Path) -> dict[str, Any]:
    """Train/valid files without ``source`` (written once: a resumed run must see the same data)."""
    from lingualite.core.io_utils import write_json
    from lingualite.data.doc_sources import write_without_sources

    record = folder / "data" / "sources.json"
    if record.exists():
        return json.loads(record.read_text(encoding="utf-8"))
    kept: dict[str, Any] = {}
    for pair in pair_dirs(data_dir):
        (folder / "data" / pair.name).mkdir(parents=True, exist_ok=True)
        for split in ("train", "valid"):
            counts = write_without_sources(
                pair / f"{split}.tsv", folder / "data" / pair.name / f"{split}.tsv", {source}
            )
            if not counts:
                raise SystemExit(f"{pair}/{split}.tsv: no pairs left without source {source!r}")
            kept[f"{pair.name}/{split}"] = counts
    write_json(record, kept)
    return kept


def write_config(args: argparse.Namespace, folder: Path) -> tuple[Path, list[str]]:
    """The LOSO config (data files changed only), and the keys where it differs from the full student's
    saved config other than the data files (empty: a fair comparison)."""
    import yaml

    from lingualite.config import load_distill_config
    from lingualite.config.parsing import default_data_dir
    from lingualite.core.io_utils import write_text
    from lingualite.models.run_folder import RunFolder, changed_config_keys

    cfg = load_distill_config(args.config, args.data_dir)
    if args.teacher:
        cfg.teacher.name = args.teacher
    cfg.data.train_files = [str(folder / "data" / "*" / "train.tsv"), *args.extra_train]
    if args.max_train_pairs is not None:
        cfg.data.max_train_pairs = args.max_train_pairs
    cfg.data.valid_files = [str(folder / "data" / "*" / "valid.tsv")]
    if args.monolingual:
        data_dir = args.data_dir or default_data_dir()
        cfg.data.monolingual_files = list(args.monolingual)
        cfg.data.monolingual_exclude_files = [
            str(data_dir / "prepared" / "*" / f"{s}.tsv") for s in ("valid", "test")
        ]
        if args.max_monolingual is not None:
            cfg.data.max_monolingual_sentences = args.max_monolingual
    path = folder / "distill.yaml"
    write_text(path, yaml.safe_dump(cfg.to_dict(), sort_keys=False))
    saved = RunFolder(args.full_model).read_config("distill")
    differs = ["(no saved config)"] if saved is None else changed_config_keys(saved, cfg.to_dict())
    return path, [k for k in differs if k not in DATA_KEYS]


def is_complete(model: Path) -> bool:
    from lingualite.models.export import EXPORT_JOURNAL

    return (model / "modules.json").exists() and not (model / EXPORT_JOURNAL).exists()


def distill(args: argparse.Namespace, config: Path, model: Path) -> dict[str, Any]:
    """Run ``lingualite distill`` under the lock unless ``model`` is complete; its training record."""
    from lingualite.models.run_folder import RunFolder

    if is_complete(model):
        print(f"{model}: complete, not retrained", file=sys.stderr, flush=True)
    else:
        cmd = ["flock", args.lock, sys.executable, "-m", "lingualite", "distill"]
        cmd += ["--config", str(config), "--output", str(model)]
        if RunFolder(model).has_checkpoints():
            cmd.append("--resume")
        if args.max_steps:
            cmd += ["--max-steps", str(args.max_steps)]
        if args.threads:
            cmd += ["--threads", str(args.threads)]
        if args.smoke:
            cmd.append("--smoke")
        print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
        subprocess.run(cmd, check=True)
    return training_record(model)


def training_record(model: Path) -> dict[str, Any]:
    from lingualite.models.run_folder import RunFolder

    summary = RunFolder(model).read_summary() or {}
    seconds = summary.get("seconds", {})
    return {
        "train_seconds": round(sum(seconds.values()), 1) if seconds else None,
        "seconds": seconds,
        "steps": summary.get("total_steps"),
        "train_pairs": summary.get("train_pairs"),
    }


def monolingual_record(model: Path) -> dict[str, Any] | None:
    """What the run read as monolingual text (its summary): sentences kept per file, exclusions."""
    from lingualite.models.run_folder import RunFolder

    return (RunFolder(model).read_summary() or {}).get("monolingual")


def fingerprint(spec: str) -> str:
    """What identifies the model behind a spec: its checksums file (a folder) or the spec (a baseline)."""
    sums = Path(spec) / "lingualite_checksums.json"
    if sums.exists():
        return hashlib.sha256(sums.read_bytes()).hexdigest()[:16]
    return spec


def source_tests(source: str, data_dir: Path) -> dict[str, list[tuple[str, str]]]:
    from lingualite.data.doc_sources import pairs_of_source

    tests = {f"{source}/{p.name}": pairs_of_source(p / "test.tsv", source) for p in pair_dirs(data_dir)}
    return {name: pairs for name, pairs in tests.items() if len(pairs) >= 2}


def data_sources(data_dir: Path) -> list[str]:
    """The sources (doc id prefixes) of the prepared test pairs."""
    from lingualite.data.doc_sources import NO_SOURCE, count_sources

    found = {s for p in pair_dirs(data_dir) for s in count_sources(p / "test.tsv")}
    return sorted(found - {NO_SOURCE})


def extra_tests(specs: list[str]) -> dict[str, list[tuple[str, str]]]:
    """``NAME=GLOB`` -> ``{NAME/<parent folder>: pairs}`` (all pairs of each file, sides unique)."""
    from lingualite.data.pairs import load_xsr_pairs, pair_set_name

    tests: dict[str, list[tuple[str, str]]] = {}
    for spec in specs:
        name, sep, pattern = spec.partition("=")
        files = sorted(glob.glob(pattern))
        if not sep or not name or not files:
            raise SystemExit(f"--extra-test {spec!r}: expected NAME=GLOB matching at least one file")
        for path in files:
            src, tgt = load_xsr_pairs(path)
            tests[f"{name}/{pair_set_name(Path(path))}"] = list(zip(src, tgt, strict=True))
    return tests


def pairs_digest(pairs: list[tuple[str, str]]) -> str:
    return hashlib.sha256("\n".join(f"{s}\t{t}" for s, t in pairs).encode("utf-8")).hexdigest()[:16]


def evaluate(spec: str, tests: dict[str, list[tuple[str, str]]], cache: dict[str, Any], lock: str) -> None:
    """XSR P@1 of ``spec`` on every test not in ``cache[spec]`` yet (same model files, same pairs), under
    the lock."""
    from lingualite.encoders.resolve import load_encoder
    from lingualite.evaluation.xsr import evaluate_xsr

    entry = cache.setdefault(spec, {"fingerprint": fingerprint(spec), "tests": {}})
    if entry["fingerprint"] != fingerprint(spec):  # the model was retrained: its scores are stale
        entry.update(fingerprint=fingerprint(spec), tests={})
    digests = {name: pairs_digest(pairs) for name, pairs in tests.items()}
    todo = [name for name in tests if entry["tests"].get(name, {}).get("pairs_sha256") != digests[name]]
    if not todo:
        return
    with bench_lock(lock):
        encoder = load_encoder(spec)
        for name in todo:
            src, tgt = [s for s, _ in tests[name]], [t for _, t in tests[name]]
            t0 = time.perf_counter()
            result = evaluate_xsr(encoder, src, tgt)
            entry["tests"][name] = {
                "p_at_1": result["p_at_1"],
                "src2tgt_p_at_1": result["src2tgt_p_at_1"],
                "tgt2src_p_at_1": result["tgt2src_p_at_1"],
                "num_pairs": result["num_pairs"],
                "pairs_sha256": digests[name],
                "seconds": round(time.perf_counter() - t0, 2),
            }
            print(f"{spec} {name}: P@1 {result['p_at_1']:.4f}", file=sys.stderr, flush=True)


def main() -> None:
    from lingualite.config.parsing import default_data_dir

    args = parse_args()
    data_dir = args.data_dir or default_data_dir()
    saved = args.out.with_suffix(".json")
    state = json.loads(saved.read_text(encoding="utf-8")) if saved.exists() else {}
    cache: dict[str, Any] = state.get("scores", {})
    held: dict[str, Any] = state.get("held_out", {})
    extra = extra_tests(args.extra_test)
    evaluate(args.full_model, extra, cache, args.lock)
    evaluate(args.baseline, extra, cache, args.lock)
    for source in args.sources:
        folder = args.work / source
        kept = prepare_data(source, data_dir, folder)
        config, differs = write_config(args, folder)
        if differs:
            print(f"warning: config differs from the full student's in {differs}", file=sys.stderr)
        model = folder / "model"
        record = distill(args, config, model)
        tests = source_tests(source, data_dir)
        # control: the same models on the sources the LOSO student did see (is it a domain gap?)
        seen = {
            k: v for s in data_sources(data_dir) if s != source for k, v in source_tests(s, data_dir).items()
        }
        for spec in (str(model), args.full_model, args.baseline):
            evaluate(spec, {**tests, **seen, **extra}, cache, args.lock)
        held[source] = {"model": str(model), "config": str(config), "config_differs": differs}
        held[source]["monolingual"] = monolingual_record(model) if args.monolingual else None
        held[source]["extra_train"] = list(args.extra_train)
        held[source].update(
            training=record, train_valid_pairs_kept=kept, tests=sorted(tests), seen_tests=sorted(seen)
        )
        write(args, held, cache, extra)  # after each source: a long run keeps what it measured
    if not args.sources:
        write(args, held, cache, extra)


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _fmt(x: float | None, signed: bool = False) -> str:
    return "-" if x is None else (f"{x:+.3f}" if signed else f"{x:.3f}")


def write(args: argparse.Namespace, held: dict[str, Any], cache: dict[str, Any], extra: dict) -> None:
    """OUT.json (everything, the score cache included) and OUT.md (the tables); prints the Markdown."""
    from lingualite.core.io_utils import write_json, write_text

    full_record = training_record(Path(args.full_model))
    rows: list[dict[str, Any]] = []
    for source, info in held.items():
        tests = info["tests"]
        base = [cache[args.baseline]["tests"][t]["p_at_1"] for t in tests]
        loso = "LOSO student" + (" + other pairs" if info.get("extra_train") else "")
        loso += " + monolingual" if info.get("monolingual") else ""
        models = [
            (loso, info["model"], info["training"]),
            ("full student", args.full_model, full_record),
        ]
        for label, spec, train in [*models, (args.baseline, args.baseline, None)]:
            scores = {t.split("/", 1)[1]: cache[spec]["tests"][t]["p_at_1"] for t in tests}
            mean = _mean(list(scores.values()))
            gap = None if mean is None or not base else mean - _mean(base)
            seen = [cache[spec]["tests"][t]["p_at_1"] for t in info.get("seen_tests", [])]
            rows.append(
                {
                    "held_out": source,
                    "model": label,
                    "spec": spec,
                    "p_at_1": scores,
                    "mean": mean,
                    "gap_to_baseline": gap,
                    "mean_other_sources": _mean(seen),
                    "train_seconds": train["train_seconds"] if train else None,
                    "test_pairs": {t.split("/", 1)[1]: cache[spec]["tests"][t]["num_pairs"] for t in tests},
                }
            )
    protocol = (
        "Each LOSO student is distilled (teacher USE-m, the shipped config, data files changed only) on the "
        "prepared train/valid pairs without the held-out source; XSR P@1 (cosine, mean of both directions) on "
        "that source's test pairs only, per language pair, each pair's whole test pool of that source; mean "
        "over the language pairs; gap = model mean - USE-m mean (issue #14: within 0.02 of USE-m); 'other "
        "sources': mean P@1 of the same model on the other sources' test pairs (seen in training)."
    )
    if any(info.get("extra_train") for info in held.values()):
        protocol += (
            " '+ other pairs': the LOSO student also trained on pair files of other sources "
            "(held_out.<source>.extra_train in the JSON; never one of the held-out source)."
        )
    if any(info.get("monolingual") for info in held.values()):
        protocol += (
            " '+ monolingual': the LOSO student's distillation also read untranslated sentences "
            "(data.monolingual_files, MSE to the teacher only; no test or validation sentence among them)."
        )
    write_json(
        args.out.with_suffix(".json"), {"protocol": protocol, "rows": rows, "held_out": held, "scores": cache}
    )
    text = markdown(rows, protocol, cache, extra)
    write_text(args.out.with_suffix(".md"), text)
    print(text, flush=True)


def markdown(rows: list[dict[str, Any]], protocol: str, cache: dict[str, Any], extra: dict) -> str:
    pairs = sorted({p for r in rows for p in r["p_at_1"]})
    lines = [
        protocol,
        "",
        "| held out | model | " + " | ".join(pairs) + " | mean | gap to USE-m | other sources | training |",
    ]
    lines.append("|---|---|" + "---:|" * (len(pairs) + 4))
    for r in rows:
        cells = [_fmt(r["p_at_1"].get(p)) for p in pairs]
        train = f"{r['train_seconds'] / 60:.1f} min" if r["train_seconds"] else "-"
        lines.append(
            f"| {r['held_out']} | {r['model']} | "
            + " | ".join(cells)
            + f" | {_fmt(r['mean'])} | {_fmt(r['gap_to_baseline'], True)} | {_fmt(r['mean_other_sources'])}"
            + f" | {train} |"
        )
    if extra:
        names = sorted(extra)
        lines += ["", "Extra test sets (whole files, P@1):", "", "| model | " + " | ".join(names) + " |"]
        lines.append("|---|" + "---:|" * len(names))
        for spec, entry in cache.items():
            if all(n in entry["tests"] for n in names):
                lines.append(
                    f"| {spec} | " + " | ".join(_fmt(entry["tests"][n]["p_at_1"]) for n in names) + " |"
                )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
