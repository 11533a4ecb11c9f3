"""The results pages (``docs/results/*.md``): every JSON file of ``benchmarks/results`` rendered on the page of
its topic, with the command that wrote it. A JSON file no page claims is an error (:func:`unclaimed`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools.docsgen import headline
from tools.docsgen.markdown import banner, source_line
from tools.docsgen.results_languages import (
    MATRYOSHKA,
    any_pair_table,
    everyday_table,
    language_table,
    length_ratios,
    matryoshka_quantization,
    serve_routes,
    teacher_map,
)
from tools.docsgen.results_registers import register_table
from tools.docsgen.results_speed import bf16_profile, encode_speed
from tools.docsgen.results_training import (
    crash_harness,
    leave_one_source_out,
    monolingual_seeds,
    train_throughput,
)
from tools.docsgen.results_use import (
    alignment_eval,
    bulk_encode,
    mine_scale,
    mining_eval,
    search_quantization,
    serve_load,
)

FOLDER = "docs/results"
RESULTS = "benchmarks/results"
Renderer = Callable[[dict[str, Any]], list[str]]
LOSO = "python benchmarks/leave_one_source_out.py --sources bible"
LOSO_BROAD = (
    f"{LOSO} --work runs/loso-broad --full-model runs/distill-usem --monolingual 'data/corpora/monolingual/*.txt' "
    "--monolingual 'data/corpora/lexicon/*.txt' --max-monolingual 400000 --extra-train 'data/prepared-ui/*/train.tsv' "
    "--extra-train 'data/prepared-games/*/train.tsv' --max-train-pairs 400000 --max-steps 8000"
)


LANG34 = "An earlier student of all 34 languages (configs/distill-all.yaml before Kana runs), not shipped"
SMALL34 = "lingualite-small-34, the student of all 34 languages"
LANG34_CORE = (
    "All 34 languages with the 13's vocabulary share fixed (vocabulary.core_share), measured and not shipped"
)
LEVERS = (
    "Leave one register out and the width and vocabulary levers: 3,000-step students of the broad recipe "
    "(research notes: Beyond the training domains)"
)


@dataclass(frozen=True)
class Section:
    pattern: str  # a glob under benchmarks/results
    title: str
    render: Renderer
    command: str | None = None  # for JSON files that do not record their command


@dataclass(frozen=True)
class ResultsPage:
    name: str
    title: str
    intro: str
    sections: tuple[Section, ...]


PAGES = (
    ResultsPage(
        "speed",
        "Speed and accuracy of the encoders",
        "Encoding speed, memory and cross-lingual retrieval of every speed tier and baseline "
        "([Speed tiers and export](../speed-and-export.md) explains the tiers). Compare ratios within one run: "
        "the machines' speed differed between runs.",
        (
            Section("lang34-core/encode_speed.json", f"{LANG34_CORE}: speed beside USE-m", encode_speed),
            Section("lang34/encode_speed.json", f"{LANG34}: speed beside USE-m", encode_speed),
            Section("encode_speed.json", "The speed tiers (en-de/es/fr/it students)", encode_speed),
            Section(
                "encode_speed_13langs.json",
                "The shipped models beside USE-m, in one run (the 13 languages)",
                encode_speed,
            ),
            Section("encode_speed_static.json", "The static students", encode_speed),
            Section("encode_speed_bf16.json", "bfloat16 through torch", encode_speed),
            Section("encode_speed_cold.json", "An earlier run (the previous students)", encode_speed),
            Section("encode_speed_depth2/*.json", "A 2-layer student, timed three times", encode_speed),
            Section("bf16_encode_profile.json", "Where the time of a bf16 encode goes", bf16_profile),
        ),
    ),
    ResultsPage(
        "generalisation",
        "Accuracy beyond the training domains",
        "Leave one source out: a student distilled without one of the three sources, scored on that source's "
        "test pools beside the full student and USE-m ([research notes](../research/out-of-domain.md) has the "
        "reasoning).",
        (
            Section(
                "leave_one_source_out.json",
                "Each source held out (default data)",
                leave_one_source_out,
                "python benchmarks/leave_one_source_out.py",
            ),
            Section(
                "loso_monolingual.json",
                "Bible held out, + untranslated sentences",
                leave_one_source_out,
                f"{LOSO} --work runs/loso-mono --monolingual 'data/corpora/monolingual/*.txt'",
            ),
            Section("loso_broad.json", "Bible held out, the broad recipe", leave_one_source_out, LOSO_BROAD),
            Section(
                "loso_broad_nopca.json",
                "The broad recipe without PCA",
                leave_one_source_out,
                f"{LOSO_BROAD} --config (distill.yaml with pca.enabled: false)",
            ),
            Section(
                "loso_broad_wide.json",
                "The broad recipe, 1 layer x 256",
                leave_one_source_out,
                f"{LOSO_BROAD} --config (distill.yaml with a 1 x 256 student)",
            ),
            Section(
                "loso_broad_games5.json",
                "The broad recipe with FreedroidRPG's dialogue",
                leave_one_source_out,
                f"{LOSO_BROAD} --config (distill.yaml reusing a teacher cache)",
            ),
            Section(
                "loso_broad_16k.json",
                "The broad recipe, 16,000 steps",
                leave_one_source_out,
                f"{LOSO_BROAD.replace('--max-steps 8000', '--max-steps 16000')}",
            ),
            Section(
                "loso_broad_deep.json",
                "The broad recipe, 2 layers x 128",
                leave_one_source_out,
                f"{LOSO_BROAD} --config (distill.yaml with student.num_layers: 2)",
            ),
        ),
    ),
    ResultsPage(
        "registers",
        "Registers",
        "Retrieval and teacher fidelity per register (software help, package descriptions, Bible, UI strings, "
        "games, everyday sentences, untranslated text) and language, for the shipped students beside USE-m, "
        "multilingual-e5-small and TF-IDF, with a fixed pool of candidates per query "
        "([research notes](../research/out-of-domain.md) has the reasoning).",
        (
            Section("register_table.json", "Every register, every language", register_table),
            Section("lang34/register_table.json", f"{LANG34}: every register", register_table),
            Section("lang34-core/register_table.json", f"{LANG34_CORE}: every register", register_table),
            Section("levers/register_loro.json", LEVERS, register_table),
        ),
    ),
    ResultsPage(
        "mining-and-alignment",
        "Mining and alignment",
        "Bitext mining among distractors, mining at scale, and document alignment "
        "([Mining and alignment](../mining-and-alignment.md) shows how to run them).",
        (
            Section(
                "mining_eval.json",
                "Bitext mining, BUCC-style",
                mining_eval,
                "python benchmarks/mining_eval.py --models onnx-int8:DIR static:DIR use-m, then --append --ratios 1 10 --models tfidf",
            ),
            Section(
                "mine_scale.json",
                "Mining 1,000,000 x 1,000,000 lines",
                mine_scale,
                "python benchmarks/mine_scale.py --model static:DIR --lines 1000000",
            ),
            Section(
                "mine_scale_250k.json",
                "Mining 250,000 x 250,000 lines",
                mine_scale,
                "python benchmarks/mine_scale.py --model static:DIR --lines 250000",
            ),
            Section("alignment_eval.json", "Document alignment", alignment_eval),
        ),
    ),
    ResultsPage(
        "languages",
        "Languages",
        "Cross-lingual retrieval per language pair of the shipped models and the baselines, and how long each "
        "language's translations are ([Languages](../languages.md)).",
        (
            Section("language_table.json", "XSR P@1 per language pair", language_table),
            Section(
                "language_table_new.json",
                "The 21 languages beyond the shipped models: which teacher knows them",
                language_table,
            ),
            Section("everyday_table.json", "The everyday sentences, per register", everyday_table),
            Section("small34/language_table.json", f"{SMALL34}: XSR P@1 per language pair", language_table),
            Section("small34/any_pair_table.json", f"{SMALL34}: any two languages", any_pair_table),
            Section(
                "small34/everyday_table.json",
                f"{SMALL34}: the everyday sentences in all 34 languages",
                everyday_table,
            ),
            Section("lang34/language_table.json", f"{LANG34}: XSR P@1 per language pair", language_table),
            Section("lang34/any_pair_table.json", f"{LANG34}: any two languages", any_pair_table),
            Section("lang34/everyday_table.json", f"{LANG34}: the everyday sentences", everyday_table),
            Section(
                "lang34-core/everyday_table.json", f"{LANG34_CORE}: the everyday sentences", everyday_table
            ),
            Section(
                "teacher_map.json",
                "The second teacher: e5-small's vectors mapped into USE-m's space",
                teacher_map,
            ),
            Section(
                "length_ratios.json",
                "How long a translation is",
                length_ratios,
                "python benchmarks/length_ratios.py --data-dir data --out benchmarks/results/length_ratios.json",
            ),
        ),
    ),
    ResultsPage(
        "vectors",
        "Shorter and smaller vectors",
        "What `--dimensions` (Matryoshka truncation) and `--precision` (quantization) cost in XSR P@1 "
        "([Use it from other tools](../other-tools.md)).",
        (
            Section(
                "matryoshka_quantization.json",
                "Dimensions and precisions",
                matryoshka_quantization,
                MATRYOSHKA,
            ),
        ),
    ),
    ResultsPage(
        "search",
        "Search",
        "Quantized and graph indexes: how much of the exact top 10 they keep, at what latency and memory "
        "([Search and the index](../search.md)).",
        (Section("search_quantization.json", "Index kinds and quantization", search_quantization),),
    ),
    ResultsPage(
        "serving",
        "Serving",
        "The HTTP service under load, with micro-batching on (`--max-batch 64`) and off (`--max-batch 1`) "
        "([Serving](../serving.md)).",
        (
            Section("serve_load.json", "The int8 ONNX student", serve_load),
            Section("serve_load_torch.json", "The student through torch", serve_load),
            Section("serve_v1.json", "`/v1/embeddings` beside `/encode`", serve_routes),
            Section("serve_poison.json", "5% poisoned requests", serve_routes),
        ),
    ),
    ResultsPage(
        "bulk-encoding",
        "Bulk encoding",
        "One process, `--workers 2` and `--engine ray` on the same input ([Bulk and distributed encoding]"
        "(../bulk-encoding.md)).",
        (
            Section("bulk_encode.json", "50,000 sentences", bulk_encode),
            Section("bulk_encode_400k.json", "400,000 sentences", bulk_encode),
        ),
    ),
    ResultsPage(
        "training",
        "Training",
        "Training throughput of the one training loop against a plain reference of the same objective, and the "
        "monolingual recipe over three seeds ([Training](../training/index.md)).",
        (
            Section("train_throughput.json", "Quickstart config", train_throughput),
            Section("train_throughput_bf16.json", "Quickstart config, bf16 autocast", train_throughput),
            Section("train_throughput_paper.json", "Paper config", train_throughput),
            Section(
                "monolingual_seeds.json",
                "The monolingual recipe, three seeds",
                monolingual_seeds,
                "python benchmarks/monolingual_seeds.py --config monolingual --seeds 0 1 2 --out /work/models/mono-seeds-v2 --threads 2",
            ),
        ),
    ),
    ResultsPage(
        "robustness",
        "Robustness",
        "The crash harness: `kill -9` at random moments, then `--resume` until done; every trial checked for "
        "bit-identical results ([Guarantees](../guarantees.md)).",
        (
            Section(
                "crash_harness.json",
                "Kills and resumes",
                crash_harness,
                "python benchmarks/crash_harness.py --trials 20 --kills-per-trial 3",
            ),
        ),
    ),
)


def _command(data: dict[str, Any]) -> str | None:
    for holder in (data.get("settings"), data.get("meta"), data):
        if isinstance(holder, dict) and isinstance(holder.get("command"), str):
            command = holder["command"]
            return command if command.startswith(("python", "lingualite")) else f"python {command}"
    return None


def _section(root: Path, section: Section) -> list[str]:
    lines: list[str] = []
    paths = sorted((root / RESULTS).glob(section.pattern))
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        title = section.title if len(paths) == 1 else f"{section.title}: `{path.name}`"
        recorded = _command(data)
        lines += [
            f"## {title}",
            "",
            source_line(
                f"{RESULTS}/{path.relative_to(root / RESULTS).as_posix()}", recorded or section.command
            ),
            "",
        ]
        if recorded and section.command:
            lines += [f"Benchmark: `{section.command}`.", ""]
        lines += [*section.render(data), ""]
    return lines


def _page(root: Path, page: ResultsPage) -> str:
    lines = [banner(f"`{RESULTS}/*.json`"), "", f"# {page.title}", "", page.intro, ""]
    for section in page.sections:
        lines += _section(root, section)
    if len(lines) == 5:
        lines += ["No measurement recorded yet: the benchmarks of this page have not written their JSON.", ""]
    return "\n".join(lines).rstrip() + "\n"


def _index(root: Path) -> str:
    lines = [
        banner(f"`{RESULTS}/*.json` and `docs/reproduction/*.json`"),
        "",
        "# Results",
        "",
        "Every number on these pages is read from the JSON a benchmark wrote, with the command that wrote it; "
        f"`{headline.SOURCE}` gives the headline:",
        "",
        headline.render(root).rstrip("\n"),
        "",
        "## Pages",
        "",
        *(f"- [{p.title}]({p.name}.md)" for p in PAGES),
        "- [Reproducing the papers' tables](../reproduction.md): ours beside the papers' numbers",
        "",
        "Model names in the tables: `distill-usem` is the transformer student of `configs/distill-usem.yaml` "
        "(1 layer x 128, teacher USE-m, the broad data); `static-usem` a static student on the same data and "
        "teacher vectors; `m2v-distill-usem` model2vec's distillation of `distill-usem`; `distill-static` the "
        "static student of `configs/distill-static.yaml`; `onnx:` / `onnx-int8:` / `bf16:` / `static:` name the "
        "runtime ([Speed tiers and export](../speed-and-export.md)). The folders were on the measuring machine; "
        "the commands show them as they were run.",
        "",
    ]
    return "\n".join(lines)


def pages(root: Path) -> dict[str, str]:
    found = {f"{FOLDER}/index.md": _index(root)}
    for page in PAGES:
        found[f"{FOLDER}/{page.name}.md"] = _page(root, page)
    return found


def unclaimed(root: Path) -> list[str]:
    """JSON files under ``benchmarks/results`` that no results page renders."""
    claimed = {p for page in PAGES for s in page.sections for p in (root / RESULTS).glob(s.pattern)}
    return sorted(
        p.relative_to(root).as_posix() for p in (root / RESULTS).rglob("*.json") if p not in claimed
    )
