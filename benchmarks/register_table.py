"""The register benchmark (issue 40, item 1): XSR P@1 and teacher fidelity per register and language, in one run.

Every register the data holds is found by :func:`lingualite.evaluation.register.discover_registers` (held-out
test pairs of ``DATA/prepared*/en-xx/test.tsv`` by doc-id source, the shipped everyday sentences by
sub-register, ``DATA/corpora/<name>/<lang>.txt`` text, ``--text NAME=GLOB``); the library's docstring has the
protocol. For every model: P@1 per register and pair (en-xx for the 12 languages, the ``--pivots`` non-English
pairs through English where the register is multi-way) with a FIXED pool of ``--pool`` candidates per query
(the gold translation + pool-1 others of the same cell, drawn with the seed, the same draws for every model),
means per register, per pair the mean over the registers the model never saw (``--seen``; the shipped students
saw help, package descriptions, the Bible, UI strings and games) and its gap to each ``--references`` model on the same cells.
For each student (``--fidelity-models``, default: every model that is not a baseline): the teacher fidelity
per register and language, the mean cos(S(x), P T(x)) (P: the run's PCA layer when the folder has one, else
an orthogonal map fitted on training-split sentences; the JSON says which).

Leave one register out: ``--loro REGISTER=MODEL`` (repeatable) names the student trained without REGISTER;
the table gets a ``loro`` row whose score on each register comes from the model that never saw it.
``--write-loro-configs DIR`` writes, for each register, the distillation config of the ``--loro-base`` recipe
without that register's data (and the filtered training files) and prints the ``lingualite distill`` commands
and the ``--loro`` flags that use their outputs; it trains nothing.

    python benchmarks/register_table.py --data-dir data \
        --models lingualite-small lingualite-static use-m e5-small tfidf \
        --max-pairs 100 --pool 50 --cache runs/register-cache --out benchmarks/results/register_table

Writes OUT.json (every number) and OUT.md (the summary) and prints the summary. Vectors are cached by content
(``--cache``, per model), so a rerun with more models or registers only encodes what is new.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from lingualite.encoders.packaged import PACKAGED  # noqa: E402
from lingualite.evaluation.register import (  # noqa: E402
    DEFAULT_POOL,
    DEFAULT_RECIPE_REGISTERS,
    MIN_PAIRS,
    Projection,
    RegisterSet,
    calibration_texts,
    discover_registers,
    exact_projection,
    fidelity_table,
    fit_orthogonal_projection,
    score_retrieval,
    summarise,
)
from lingualite.text.languages import CHECK_PIVOTS, CORE_TRANSLATION_LANGS, ENGLISH  # noqa: E402

BASELINES = ("use-m", "e5-small", "tfidf", "minilm")
# every packaged model reads the same registers (its recipe's text) in the 13 languages this table scores by
# default; lingualite-small-34 reads Firefox's strings and CLDR's phrases in the 21 beyond them too
# (config.distill.SOURCE_LANGS): seen is per model, not per language, so score the 21 in a run of their own
# (--langs) with --seen naming those two
PACKAGED_SEEN = dict.fromkeys(PACKAGED, DEFAULT_RECIPE_REGISTERS)
LORO = "loro"


class CachedVectors:
    """A model's vectors by text content: encoded once per distinct text, kept on disk under ``cache``."""

    def __init__(self, spec: str, threads: int | None, cache: Path | None, batch: int = 256) -> None:
        self.spec, self.threads, self.batch = spec, threads, batch
        self._encoder: Any = None
        self.vectors: dict[str, np.ndarray] = {}
        self.path = None if cache is None else cache / f"{_fingerprint(spec)}.npz"
        self.encoded = 0
        self.seconds = 0.0
        if self.path is not None and self.path.is_file():
            data = np.load(self.path, allow_pickle=False)
            self.vectors = dict(zip(data["texts"].tolist(), data["vectors"], strict=True))

    @property
    def encoder(self) -> Any:
        if self._encoder is None:
            from lingualite.encoders.resolve import load_encoder

            self._encoder = load_encoder(self.spec, threads=self.threads)
        return self._encoder

    @property
    def needs_fit(self) -> bool:
        return callable(getattr(self.encoder, "fit", None))

    def fitted(self, texts: list[str]) -> Callable[[list[str]], np.ndarray]:
        """TF-IDF: fitted on the texts of the cell it ranks (as ``eval xsr`` does); no cache."""
        from lingualite.encoders.base import fit_encoder
        from lingualite.evaluation.base import to_dense

        fit_encoder(self.encoder, texts)
        return lambda items: to_dense(self.encoder.encode(list(items)))

    def __call__(self, texts: list[str]) -> np.ndarray:
        self.ensure(texts)
        return np.stack([self.vectors[t] for t in texts]) if texts else np.zeros((0, 1), np.float32)

    def ensure(self, texts: list[str]) -> None:
        missing = [t for t in dict.fromkeys(texts) if t not in self.vectors]
        if not missing:
            return
        from lingualite.evaluation.base import to_dense

        start = time.time()
        for i in range(0, len(missing), self.batch):
            chunk = missing[i : i + self.batch]
            out = to_dense(self.encoder.encode(chunk))
            self.vectors.update(zip(chunk, out.astype(np.float32), strict=True))
            done = i + len(chunk)
            if done % (self.batch * 8) == 0:
                self.save()  # a long encode that is stopped keeps what it did
            rate = done / max(time.time() - start, 1e-9)
            print(f"  {self.spec}: {done}/{len(missing)} texts ({rate:.0f}/s)", file=sys.stderr, flush=True)
        self.encoded += len(missing)
        self.seconds += time.time() - start
        self.save()

    def save(self) -> None:
        if self.path is None or not self.vectors:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        texts = list(self.vectors)
        tmp = self.path.with_suffix(".tmp.npz")
        np.savez(tmp, texts=np.array(texts), vectors=np.stack([self.vectors[t] for t in texts]))
        tmp.replace(self.path)


def _folder_of(spec: str) -> Path | None:
    """The model folder of a spec (``onnx-int8:F``, ``static:F``, ``F``, a packaged name), or None."""
    from lingualite.encoders.packaged import packaged_folder

    if spec in PACKAGED:
        try:
            return packaged_folder(spec)
        except Exception:  # noqa: BLE001 - not installed: no folder
            return None
    path = spec.split(":", 1)[1] if ":" in spec and not Path(spec).exists() else spec
    return Path(path) if Path(path).is_dir() else None


def _fingerprint(spec: str) -> str:
    """A cache key: the spec and its folder's file names, sizes and times (a retrained folder is new)."""
    h = hashlib.sha1(spec.encode())
    folder = _folder_of(spec)
    if folder is not None:
        for p in sorted(folder.rglob("*")):
            if p.is_file() and "checkpoints" not in p.parts and "teacher-cache" not in p.parts:
                st = p.stat()
                h.update(f"{p.relative_to(folder)}:{st.st_size}:{int(st.st_mtime)}".encode())
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in spec)[-60:]
    return f"{safe}-{h.hexdigest()[:10]}"


def _kv(items: list[str], what: str) -> dict[str, str]:
    out = {}
    for item in items:
        if "=" not in item:
            raise SystemExit(f"{what}: expected NAME=VALUE, got {item!r}")
        k, v = item.split("=", 1)
        out[k] = v
    return out


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--models", nargs="+", default=["lingualite-small", "lingualite-static", "use-m", "e5-small", "tfidf"]
    )
    ap.add_argument("--teacher", default="use-m", help="the teacher the students were distilled from")
    ap.add_argument(
        "--references", nargs="+", default=["use-m", "e5-small"], help="gaps are reported to these"
    )
    ap.add_argument("--data-dir", type=Path, default=None, help="default: $LINGUALITE_DATA_DIR or data")
    ap.add_argument(
        "--langs", nargs="+", default=list(CORE_TRANSLATION_LANGS), help="the xx of the en-xx pairs"
    )
    ap.add_argument(
        "--pivots", nargs="*", default=list(CHECK_PIVOTS), help="non-English pairs (multi-way registers)"
    )
    ap.add_argument(
        "--registers", nargs="*", default=None, help="keep only these registers (default: all found)"
    )
    ap.add_argument("--no-everyday", action="store_true", help="leave the shipped everyday sentences out")
    ap.add_argument(
        "--text", action="append", default=[], metavar="NAME=GLOB", help="more text: GLOB of <lang>.txt"
    )
    ap.add_argument(
        "--max-pairs", type=int, default=100, help="pairs per register and pair, sampled by document"
    )
    ap.add_argument("--pool", type=int, default=DEFAULT_POOL, help="candidates per query (fixed)")
    ap.add_argument("--min-pairs", type=int, default=MIN_PAIRS, help="smaller cells are left out (listed)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--seen", action="append", default=[], metavar="MODEL=REG,REG", help="registers a model saw"
    )
    ap.add_argument("--fidelity-models", nargs="*", default=None, help="default: every model not a baseline")
    ap.add_argument(
        "--projection", action="append", default=[], metavar="MODEL=RUN", help="a run folder with pca/"
    )
    ap.add_argument(
        "--calibration-pairs", type=int, default=100, help="per language, for a fitted projection"
    )
    ap.add_argument(
        "--loro", action="append", default=[], metavar="REGISTER=MODEL", help="trained without REGISTER"
    )
    ap.add_argument(
        "--write-loro-configs", type=Path, default=None, metavar="DIR", help="write LORO configs, exit"
    )
    ap.add_argument("--loro-base", default="broad", help="recipe of --write-loro-configs: broad or default")
    ap.add_argument(
        "--loro-steps",
        type=int,
        default=None,
        help="training steps of each LORO config (default: the recipe's)",
    )
    ap.add_argument(
        "--loro-teacher-cache",
        type=Path,
        default=None,
        help="one teacher-vector cache for every LORO run (a run that drops a register re-encodes only the "
        "side it changes)",
    )
    ap.add_argument("--cache", type=Path, default=None, help="vector cache folder (by content, per model)")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/register_table"))
    ap.add_argument("--update-cards", action="store_true", help="write the table into the packaged cards")
    return ap.parse_args(argv)


def data_dir_of(args: argparse.Namespace) -> Path:
    if args.data_dir is not None:
        return args.data_dir
    from lingualite.config.parsing import default_data_dir

    return Path(default_data_dir())


def seen_of(args: argparse.Namespace, models: list[str]) -> dict[str, list[str]]:
    seen = {m: list(PACKAGED_SEEN.get(m, ())) for m in models}
    for model, regs in _kv(args.seen, "--seen").items():
        seen[model] = [r for r in regs.split(",") if r]
    seen[LORO] = []
    return seen


def projection_for(
    spec: str, vectors: CachedVectors, teacher: CachedVectors, calibration: list[str], run: str | None
) -> Projection | None:
    folder = Path(run) if run else _folder_of(spec)
    exact = exact_projection(folder) if folder is not None else None
    if exact is not None:
        return exact
    if not calibration:
        raise SystemExit(f"{spec}: no pca/ in its folder and no calibration text (DATA/prepared/*/train.tsv)")
    s, t = vectors(calibration), teacher(calibration)
    if s.shape[1] == t.shape[1]:
        return None
    return fit_orthogonal_projection(t, s)


def run(args: argparse.Namespace) -> dict[str, Any]:
    data_dir = data_dir_of(args)
    start = time.time()
    regs: RegisterSet = discover_registers(
        data_dir,
        args.langs,
        args.pivots,
        args.max_pairs,
        args.seed,
        everyday=not args.no_everyday,
        extra_text=_kv(args.text, "--text"),
        only=args.registers,
        min_pairs=args.min_pairs,
    )
    # text alone is a run too: teacher fidelity on a validation register needs no pairs
    if not regs.cells and not regs.texts:
        raise SystemExit(
            f"{data_dir}: no held-out pairs found (prepared*/en-xx/test.tsv), no everyday set and no text"
        )
    print(
        f"{len(regs.cells)} cells in {len(regs.parallel_registers)} parallel registers "
        f"({', '.join(regs.parallel_registers)}); text registers: {', '.join(regs.texts) or 'none'}",
        file=sys.stderr,
        flush=True,
    )
    models = list(dict.fromkeys([*args.models, *args.references]))
    loro = _kv(args.loro, "--loro")
    cache = {
        m: CachedVectors(m, args.threads, args.cache)
        for m in dict.fromkeys([*models, args.teacher, *loro.values()])
    }
    fid_models = args.fidelity_models
    if fid_models is None:
        fid_models = [m for m in models if m not in BASELINES and m != args.teacher]
    p_at_1: dict[str, Any] = {}
    pool_used: dict[str, Any] = {}
    timing: dict[str, float] = {}
    for model in models:
        t0 = time.time()
        vec = cache[model]
        if vec.needs_fit:
            p_at_1[model], small = score_retrieval(None, regs.cells, args.pool, args.seed, fitted=vec.fitted)
        else:
            vec.ensure([t for c in regs.cells for t in (*c.src, *c.tgt)])
            p_at_1[model], small = score_retrieval(vec, regs.cells, args.pool, args.seed)
        pool_used.update(small)
        timing[model] = round(time.time() - t0, 1)
        print(f"{model}: retrieval scored in {timing[model]:.0f}s", file=sys.stderr, flush=True)
    if loro:
        p_at_1[LORO] = {}
        for reg, spec in loro.items():
            cells = [c for c in regs.cells if c.register == reg or c.register.startswith(f"{reg}/")]
            if not cells:
                print(f"--loro {reg}: no such register in the data; skipped", file=sys.stderr)
                continue
            scores, _ = score_retrieval(cache[spec], cells, args.pool, args.seed)
            p_at_1[LORO].update(scores)
    seen = seen_of(args, models)
    pair_order = [f"{ENGLISH}-{lang}" for lang in args.langs] + list(args.pivots)
    summary = summarise(p_at_1, seen, args.references, ENGLISH, pair_order)

    fidelity: dict[str, Any] = {}
    texts = regs.fidelity_texts(args.max_pairs)
    teacher = cache[args.teacher]
    calibration: list[str] = []
    runs = _kv(args.projection, "--projection")
    targets = [(m, m, texts) for m in fid_models]
    for reg, spec in loro.items():
        held = {r: v for r, v in texts.items() if r == reg or r.startswith(f"{reg}/")}
        if held:
            targets.append((f"{LORO}:{reg}", spec, held))
    for label, spec, items in targets:
        vec = cache[spec]
        projection_run = runs.get(spec)
        if (
            not calibration
            and exact_projection(Path(projection_run or _folder_of(spec) or "/nonexistent")) is None
        ):
            calibration = calibration_texts(data_dir, args.langs, args.calibration_pairs, args.seed)
        projection = projection_for(spec, vec, teacher, calibration, projection_run)
        fidelity[label] = fidelity_table(vec, teacher, items, projection)
        fidelity[label]["model"] = spec
        saw = set(seen_of(args, models).get(spec, ()))
        fidelity[label]["by_language_unseen"] = _unseen_means(fidelity[label]["by_register"], saw)
        print(f"{label}: fidelity {fidelity[label]['by_language']}", file=sys.stderr, flush=True)
    if LORO in p_at_1:
        merged: dict[str, Any] = {"by_register": {}, "pca_ceiling": {}, "projection": {}}
        for label, row in list(fidelity.items()):
            if label.startswith(f"{LORO}:"):
                merged["by_register"].update(row["by_register"])
                merged["pca_ceiling"].update(row["pca_ceiling"])
                merged["projection"][label.split(":", 1)[1]] = row["projection"]
                del fidelity[label]
        fidelity[LORO] = merged

    registers: dict[str, Any] = {}
    for cell in regs.cells:
        row = registers.setdefault(cell.register, {"kind": "parallel", "origin": cell.origin, "pairs": {}})
        row["pairs"][cell.pair] = len(cell.src)
    for name, by_lang in regs.texts.items():
        registers.setdefault(name, {"kind": "text", "origin": f"corpora/{name}/<lang>.txt", "texts": {}})
        registers[name].setdefault("texts", {}).update({lang: len(t) for lang, t in by_lang.items()})
    return {
        "command": " ".join(["python", *sys.argv]) if argv_is_cli() else "(library call)",
        "date": time.strftime("%Y-%m-%d"),
        "data_dir": str(data_dir),
        "models": [*models, *([LORO] if LORO in p_at_1 else [])],
        "teacher": args.teacher,
        "references": args.references,
        "pool": args.pool,
        "max_pairs": args.max_pairs,
        "seed": args.seed,
        "protocol": (
            f"XSR P@1, both directions averaged; each query searches a fixed pool of {args.pool} candidates (its "
            f"translation + {args.pool - 1} other targets of the same register and pair, seeded, the same for "
            f"every model; a tie is a miss); at most {args.max_pairs} held-out test pairs per register and pair, "
            "one per document before a second of any"
        ),
        "pairs": [p for p in pair_order if any(c.pair == p for c in regs.cells)],
        "registers": registers,
        "seen": {m: seen.get(m, []) for m in p_at_1},
        "loro": loro,
        "p_at_1": p_at_1,
        "pool_used": pool_used,
        "too_small": regs.too_small,
        "summary": summary,
        "fidelity": fidelity,
        "encoded": {m: {"texts": c.encoded, "seconds": round(c.seconds, 1)} for m, c in cache.items()},
        "seconds": round(time.time() - start, 1),
    }


def _unseen_means(by_register: dict[str, dict[str, float]], seen: set[str]) -> dict[str, float]:
    """Per language, the mean fidelity over the registers the model was not trained on."""
    langs = sorted({lang for row in by_register.values() for lang in row})
    out = {}
    for lang in langs:
        values = [row[lang] for reg, row in by_register.items() if reg not in seen and lang in row]
        if values:
            out[lang] = round(float(np.mean(values)), 4)
    return out


def argv_is_cli() -> bool:
    return Path(sys.argv[0]).name == "register_table.py"


def markdown(result: dict[str, Any]) -> str:
    """The summary: mean P@1 per register and model, per-pair gaps, fidelity per language."""
    models = result["models"]
    regs = list(dict.fromkeys(r for m in models for r in result["p_at_1"].get(m, {})))
    lines = [
        f"Pool: {result['pool']} candidates per query; at most {result['max_pairs']} pairs per register and pair.",
        "",
        "Mean XSR P@1 per register (en-xx pairs / non-English pairs):",
        "",
        "| register | " + " | ".join(models) + " |",
        "|---|" + "---:|" * len(models),
    ]
    for reg in regs:
        cells = []
        for m in models:
            row = result["summary"].get(m, {}).get("by_register", {}).get(reg)
            if not row:
                cells.append("–")
                continue
            seen = "*" if reg in result["seen"].get(m, []) else ""
            a, b = row["en-xx"], row["non-english"]
            cells.append(f"{_n(a)}{seen}" + (f" / {_n(b)}" if b is not None else ""))
        lines.append(f"| {reg} | " + " | ".join(cells) + " |")
    lines += ["", "(* a register the model was trained on)", ""]
    refs = result["references"]
    lines += [
        "Per pair, mean over the registers each model never saw (gap to " + ", ".join(refs) + "):",
        "",
        "| pair | " + " | ".join(models) + " |",
        "|---|" + "---:|" * len(models),
    ]
    pairs = list(dict.fromkeys(p for m in models for p in result["summary"].get(m, {}).get("by_pair", {})))
    for pair in pairs:
        cells = []
        for m in models:
            row = result["summary"].get(m, {}).get("by_pair", {}).get(pair)
            if not row or row["unseen"] is None:
                cells.append("–")
                continue
            gaps = [row.get(f"gap_unseen/{r}") for r in refs if row.get(f"gap_unseen/{r}") is not None]
            cells.append(
                _n(row["unseen"]) + (" (" + ", ".join(f"{g:+.3f}" for g in gaps) + ")" if gaps else "")
            )
        lines.append(f"| {pair} | " + " | ".join(cells) + " |")
    if result["fidelity"]:
        langs = sorted(
            {lang for f in result["fidelity"].values() for r in f["by_register"].values() for lang in r}
        )
        lines += ["", "Teacher fidelity, mean cos(S(x), P T(x)) per language (over registers):", ""]
        lines += ["| model | " + " | ".join(langs) + " |", "|---|" + "---:|" * len(langs)]
        for m, f in result["fidelity"].items():
            by_lang = f.get("by_language") or {
                lang: float(np.mean([r[lang] for r in f["by_register"].values() if lang in r]))
                for lang in langs
            }
            lines.append(f"| {m} | " + " | ".join(_n(by_lang.get(lang)) for lang in langs) + " |")
    return "\n".join(lines) + "\n"


def _n(x: float | None) -> str:
    return "–" if x is None else f"{x:.3f}"


def write_loro_configs(args: argparse.Namespace) -> None:
    """For each register: the base recipe without it (configs and filtered train files), and the commands."""
    import glob as globmod

    import yaml

    from lingualite.config import load_distill_config
    from lingualite.data.doc_sources import write_without_sources
    from lingualite.evaluation.register import REGISTER_NAMES
    from lingualite.text.languages import ENGLISH, SHIPPED

    data_dir = data_dir_of(args)
    out: Path = args.write_loro_configs
    prefix_of = {v: k for k, v in REGISTER_NAMES.items()}
    broad = args.loro_base == "broad"
    pair_globs = [str(data_dir / "prepared" / "*" / "train.tsv")]
    mono = []
    if broad:
        pair_globs += [str(data_dir / d / "*" / "train.tsv") for d in ("prepared-ui", "prepared-games")]
        mono = [str(data_dir / "corpora" / n / "*.txt") for n in ("monolingual", "lexicon")]
    # the shipped languages only: a data dir may hold more (`data fetch --langs all`)
    shipped_pairs = {f"{ENGLISH}-{lang}" for lang in SHIPPED if lang != ENGLISH}
    registers = ["help", "packages", "bible"] + (["ui", "games", "monolingual", "lexicon"] if broad else [])
    commands, flags = [], []
    for reg in registers:
        folder = out / reg
        folder.mkdir(parents=True, exist_ok=True)
        cfg = load_distill_config("distill", data_dir)
        files: dict[str, list[str]] = {"train": [], "valid": []}
        for split, patterns in (
            ("train", pair_globs),
            ("valid", [str(data_dir / "prepared" / "*" / "valid.tsv")]),
        ):
            for pattern in patterns:
                for path in sorted(globmod.glob(pattern)):
                    src = Path(path)
                    kind = src.parent.parent.name
                    if src.parent.name not in shipped_pairs:
                        continue
                    if (reg, kind) in (("ui", "prepared-ui"), ("games", "prepared-games")):
                        continue
                    if kind == "prepared" and reg in DEFAULT_RECIPE_REGISTERS:  # a source of the mixed files
                        dst = folder / "data" / src.parent.name / f"{split}.tsv"
                        if not dst.is_file():
                            dst.parent.mkdir(parents=True, exist_ok=True)
                            write_without_sources(src, dst, {prefix_of[reg]})
                        files[split].append(str(dst))
                    else:
                        files[split].append(path)
        cfg.data.train_files, cfg.data.valid_files = files["train"], files["valid"]
        if broad:
            cfg.data.max_train_pairs = 700_000
            cfg.data.monolingual_files = [
                path
                for m in mono
                if Path(m).parent.name != reg
                for path in sorted(globmod.glob(m))
                if Path(path).stem in SHIPPED
            ]
            cfg.data.max_monolingual_sentences = 300_000
            cfg.data.monolingual_exclude_files = [
                str(data_dir / d / "*" / "test.tsv") for d in ("prepared", "prepared-ui", "prepared-games")
            ]
        if args.loro_steps is not None:
            cfg.optim.max_steps = args.loro_steps
        if args.loro_teacher_cache is not None:
            cfg.teacher.cache_dir = str(args.loro_teacher_cache)
        path = folder / "distill.yaml"
        path.write_text(
            f"# {args.loro_base} recipe without register {reg!r} (benchmarks/register_table.py)\n"
            + yaml.safe_dump(cfg.to_dict(), sort_keys=False),
            encoding="utf-8",
        )
        commands.append(f"lingualite distill --config {path} --output {folder / 'model'}")
        flags.append(f"--loro {reg}={folder / 'model'}")
    print("\n".join(commands))
    print("python benchmarks/register_table.py ... " + " ".join(flags))


CARDS = Path(__file__).resolve().parents[1] / "packages" / "lingualite-models" / "src" / "lingualite_models"


def update_cards(result: dict[str, Any], cards: Path = CARDS) -> list[Path]:
    """Put the register table of each packaged model (with the gap to the teacher) into its model card in the
    repository's package, replacing an earlier one (#40 item 5)."""
    from lingualite.reproduce.packaged_card import register_section
    from lingualite.reproduce.packaged_tiers import TIER_TABLE

    written = []
    for tier in TIER_TABLE.values():
        name, card = tier.model, cards / tier.name / "README.md"
        if name not in result["p_at_1"] or not card.is_file():
            continue
        table = {"pool": result["pool"], "max_pairs": result["max_pairs"], "p_at_1": result["p_at_1"][name]}
        teacher = result["teacher"]
        section = register_section(
            table, tuple(result["seen"].get(name, ())), result["p_at_1"].get(teacher), teacher
        )
        text = card.read_text(encoding="utf-8")
        head, sep, tail = text.partition("## Registers: XSR P@1 per language")
        if sep:  # replace the earlier section: up to the next line that starts a section or the usage line
            rest = tail.split("\n")
            end = next(
                (i for i, line in enumerate(rest) if i > 0 and line.startswith(("## ", "Use: "))), len(rest)
            )
            text = head + "\n".join(rest[end:])
        marker = "Use: `lingualite encode"
        head, sep, tail = text.partition(marker)
        text = (
            head + "\n".join(section) + "\n\n" + sep + tail
            if sep
            else text + "\n" + "\n".join(section) + "\n"
        )
        card.write_text(text, encoding="utf-8")
        written.append(card)
    return written


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args.write_loro_configs is not None:
        write_loro_configs(args)
        return
    result = run(args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".json").write_text(
        json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    text = markdown(result)
    args.out.with_suffix(".md").write_text(text, encoding="utf-8")
    print(text)
    if args.update_cards:
        for card in update_cards(result):
            print(f"updated {card}", file=sys.stderr)


if __name__ == "__main__":
    main()
