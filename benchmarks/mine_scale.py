"""Bitext mining at scale in bounded memory: ``lingualite mine`` on N x N lines, timed, peak RSS recorded.

The two inputs are drawn from every sentence (both columns) of the packaged corpora under
``DATA_DIR/corpora`` (LibreOffice, Bible, Debian descriptions; ~1.06M lines, five languages), shuffled with
two seeds: a scale and memory test, not a quality one (quality: ``benchmarks/mining_eval.py``).

    python benchmarks/mine_scale.py --model static:/work/models/static-usem --lines 1000000

Runs the command in a child process and reads its peak RSS from the kernel (``RUSAGE_CHILDREN``); writes
``mine_scale.json`` (``--out``) with the command, the times of each step (from the work folder's summary)
and the peak RSS.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

from lingualite.config.parsing import default_data_dir


def build_inputs(corpora: Path, lines: int, work: Path) -> tuple[Path, Path]:
    pool = []
    for tsv in sorted(corpora.glob("*/*.tsv")):
        with tsv.open(encoding="utf-8") as fh:
            for line in fh:
                cols = line.rstrip("\n").split("\t")
                pool.extend(c for c in cols[:2] if c)
    out = []
    for seed, name in ((0, "src.txt"), (1, "tgt.txt")):
        random.Random(seed).shuffle(pool)
        path = work / name
        path.write_text("\n".join((pool * (lines // len(pool) + 1))[:lines]) + "\n", encoding="utf-8")
        out.append(path)
    return out[0], out[1]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--model", required=True)
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--work", type=Path, default=Path("/tmp/mine-scale"))
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--extra", nargs="*", default=[], help="more `lingualite mine` options")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/mine_scale.json"))
    args = parser.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    args.work.mkdir(parents=True)
    src, tgt = build_inputs((args.data_dir or default_data_dir()) / "corpora", args.lines, args.work)
    output = args.work / "pairs.tsv"
    command = [
        sys.executable,
        "-m",
        "lingualite",
        "mine",
        "--model",
        args.model,
        "--src",
        str(src),
        "--tgt",
        str(tgt),
        "--output",
        str(output),
        "--json",
        *args.extra,
    ]
    print(" ".join(command), file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    row = {
        "model": args.model,
        "lines": args.lines,
        "wall_s": round(wall, 1),
        "peak_rss_mb": round(peak_mb, 1),
        "pairs": summary["pairs"],
        "search": summary["search"],
        "seconds": summary["seconds"],
        "command": "lingualite mine --model MODEL --src src.txt --tgt tgt.txt --output pairs.tsv "
        + " ".join(args.extra),
    }
    from lingualite.core.io_utils import write_json

    write_json(args.out, row)
    print(json.dumps(row, indent=2))


if __name__ == "__main__":
    main()
