"""``python -m tools.docsgen [--check]``: regenerate the generated documentation, or check that it is current."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tools.docsgen import ROOT, stale_pages, write_pages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.docsgen", description=__doc__)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 naming every stale page")
    parser.add_argument("--root", type=Path, default=ROOT, help="the repository (default: this one)")
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_pages(args.root)
        for path in stale:
            print(f"stale: {path}", file=sys.stderr)
        if stale:
            print(f"{len(stale)} generated page(s) are stale: run `python -m tools.docsgen`", file=sys.stderr)
        return 1 if stale else 0
    for path in write_pages(args.root):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
