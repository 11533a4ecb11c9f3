"""Paper 001's measures over several seeds (issue #16): runs the monolingual recipe once per seed (``lingualite
train``'s machinery, with the same per-stage evaluation protocols the CLI passes: zero-shot ``eval classify``
and ``eval pairs``), then aggregates the runs' ``stages.jsonl`` stage by stage: mean, sample std, range and the
per-seed values, plus each iteration's change from stage 1 taken seed by seed
(:func:`lingualite.recipes.monolingual.seeds.aggregate_stages`).

    python benchmarks/monolingual_seeds.py --config monolingual --seeds 0 1 2 --out runs/mono-seeds --threads 2
    python benchmarks/monolingual_seeds.py --out runs/mono-seeds --aggregate-only   # the runs already there

Each seed runs in OUT/seed-S (``seed`` of the config replaced); a seed whose run is complete is not run again,
one that was interrupted is resumed. Writes OUT/seeds.json, OUT/seeds.md and OUT/seeds.png (paper 001's Fig. 3
shape: each measure over the stages), atomically.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def run_seed(config: str, data_dir: str | None, seed: int, folder: Path, args: argparse.Namespace) -> None:
    from lingualite.config import load_monolingual_config
    from lingualite.recipes.monolingual.train_monolingual import train_monolingual
    from lingualite.reproduce.protocols import paper_set_evaluator

    if (folder / "modules.json").exists():
        print(f"seed {seed}: {folder} is complete, not run again", flush=True)
        return
    cfg = dataclasses.replace(load_monolingual_config(config, data_dir), seed=seed)
    resume = (folder / "checkpoints").is_dir()
    print(f"seed {seed}: {'resuming' if resume else 'training'} in {folder}", flush=True)
    train_monolingual(
        cfg,
        folder,
        stage_tasks=paper_set_evaluator(),
        resume=resume,
        progress=sys.stderr.isatty(),
        threads=args.threads,
        step_scale=args.step_scale,
        stop_after=args.stop_after,
    )


def read_rows(folder: Path) -> list[dict[str, Any]]:
    path = folder / "stages.jsonl"
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--config", default="monolingual", help="a shipped config name or a YAML file")
    parser.add_argument("--data-dir", default=None, help="{data_dir} (default $LINGUALITE_DATA_DIR or data)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--step-scale", type=float, default=1.0, help="multiply every stage's steps")
    parser.add_argument(
        "--stop-after", type=int, default=None, help="steps per seed in this call (resumable)"
    )
    parser.add_argument("--aggregate-only", action="store_true", help="only aggregate the runs in OUT")
    args = parser.parse_args()

    from lingualite.core.io_utils import write_json, write_text
    from lingualite.recipes.monolingual.seeds import aggregate_stages, seeds_markdown, seeds_plot

    args.out.mkdir(parents=True, exist_ok=True)
    if not args.aggregate_only:
        for seed in args.seeds:
            run_seed(args.config, args.data_dir, seed, args.out / f"seed-{seed}", args)
    runs = {seed: rows for seed in args.seeds if (rows := read_rows(args.out / f"seed-{seed}"))}
    if not runs:
        sys.exit(f"{args.out}: no seed-S/stages.jsonl to aggregate")
    result = aggregate_stages(runs)
    result["config"] = args.config
    result["complete"] = {seed: (args.out / f"seed-{seed}" / "modules.json").exists() for seed in runs}
    write_json(args.out / "seeds.json", result)
    title = f"Monolingual recipe ({args.config}) over seeds"
    write_text(args.out / "seeds.md", seeds_markdown(result, title))
    seeds_plot(result, title, args.out / "seeds.png")
    print((args.out / "seeds.md").read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
