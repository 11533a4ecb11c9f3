"""Corpus preparation: read inputs -> clean -> split by document -> ``train/valid/test.tsv`` + ``stats.json``.

Everything streams; memory holds only the 8-byte dedup hashes, the test-side uniqueness hashes and the
cap heaps. All four outputs are written under temporary names and renamed into place only when the whole
run succeeds, so a failure (e.g. a malformed line without ``skip_bad``) leaves no partial output.
"""

from __future__ import annotations

import contextlib
import hashlib
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TextIO

from lingualite.core.errors import LinguaLiteError
from lingualite.core.io_utils import atomic_path, write_json
from lingualite.core.progress import PlainProgress
from lingualite.data.cleaning import CleaningConfig, CleaningStats, PairCleaner, clean_pairs, normalize_light
from lingualite.data.inputs import InputSpec, describe_spec, open_parallel
from lingualite.data.readers import ParallelPair, ReadStats
from lingualite.data.split import SPLITS, CapSelector, SplitConfig, assign_split, pair_rank, split_key

__all__ = ["PrepareResult", "prepare_corpus"]

# Characters that some line readers treat as line breaks (str.splitlines, universal newlines) or TSV
# separators: replaced by a space in written fields.
_FIELD_SAFE = str.maketrans({c: " " for c in "\t\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"})
_PROGRESS_EVERY = 1000


@dataclass
class PrepareResult:
    """Where the outputs are, and the statistics written to ``stats.json``."""

    out_dir: Path
    paths: dict[str, Path]
    stats_path: Path
    stats: dict[str, Any] = field(repr=False)

    @property
    def kept(self) -> dict[str, int]:
        """Pairs written per split."""
        return dict(self.stats["kept"])


@dataclass
class _InputTally:
    name: str
    read: ReadStats = field(default_factory=ReadStats)
    cleaning: CleaningStats = field(default_factory=CleaningStats)
    kept: Counter[str] = field(default_factory=Counter)
    test_not_unique: int = 0
    cap_dropped: Counter[str] = field(default_factory=Counter)

    def to_dict(self) -> dict[str, Any]:
        return {
            "input": self.name,
            "read": self.read.to_dict(),
            "cleaning": self.cleaning.to_dict(),
            "test_not_unique": self.test_not_unique,
            "cap_dropped": {s: self.cap_dropped[s] for s in ("valid", "test")},
            "kept": {s: self.kept[s] for s in SPLITS},
        }


def _hash8(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest()


def _tsv_line(pair: ParallelPair) -> str:
    fields = (pair.src, pair.tgt, pair.doc_id or "")
    return "\t".join(f.translate(_FIELD_SAFE) for f in fields) + "\n"


@contextlib.contextmanager
def _progress(enabled: bool, label: str) -> Iterator[Any]:
    """A rich spinner + pair counter on a terminal; plain ``label: N/M pairs`` lines on stderr when it is not one
    (nohup, CI logs), as training does; nothing unless ``enabled``."""
    if enabled and not sys.stderr.isatty():
        yield PlainProgress(label, "pairs")
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True)
    show = enabled and sys.stderr.isatty()
    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed:,} pairs read"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=True, disable=not show) as bar:
        yield bar


def _shown(bar: Any) -> bool:
    """Whether anyone sees ``bar`` (then a total is worth a pass over the file)."""
    return isinstance(bar, PlainProgress) or bar.live.is_started


def _line_count(spec: Any) -> int | None:
    """Lines of a plain-text TSV input (a fast byte scan), so the bar can show a remaining time; None for
    compressed, TMX and Moses inputs, whose pair count is not a line count of one file."""
    path = Path(str(spec))
    if path.suffix.lower() not in (".tsv", ".txt") or not path.is_file():
        return None
    count = 0
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            count += chunk.count(b"\n")
    return count


def _counted(pairs: Iterable[ParallelPair], bar: Any, task: Any) -> Iterator[ParallelPair]:
    n = 0
    for n, pair in enumerate(pairs, 1):
        if n % _PROGRESS_EVERY == 0:
            bar.update(task, advance=_PROGRESS_EVERY)
        yield pair
    bar.update(task, advance=n % _PROGRESS_EVERY)


class _TestUniqueness:
    """Remembers hashes of normalized test sources and targets; a repeat of either is refused."""

    def __init__(self) -> None:
        self._src: set[bytes] = set()
        self._tgt: set[bytes] = set()

    def admit(self, pair: ParallelPair) -> bool:
        s, t = _hash8(normalize_light(pair.src)), _hash8(normalize_light(pair.tgt))
        if s in self._src or t in self._tgt:
            return False
        self._src.add(s)
        self._tgt.add(t)
        return True


def _finish_capped(
    candidates: Path,
    final: TextIO,
    selector: CapSelector,
    name: str,
    tallies: list[_InputTally],
) -> None:
    """Second pass over a split's candidates: the selector's pairs go to ``final``; the surplus is dropped
    (never moved to train: its documents are held out, and near-duplicates would leak)."""
    with open(candidates, encoding="utf-8", newline="\n") as fh:
        for record in fh:
            rank, idx, line = record.split("\t", 2)
            tally = tallies[int(idx)]
            if selector.keep(int(rank)):
                final.write(line)
                tally.kept[name] += 1
            else:
                tally.cap_dropped[name] += 1


def _summary(tallies: list[_InputTally], **extra: Any) -> dict[str, Any]:
    bad: Counter[str] = Counter()
    dropped: Counter[str] = Counter()
    kept: Counter[str] = Counter()
    moved: Counter[str] = Counter()
    for t in tallies:
        bad.update(t.read.bad)
        dropped.update(t.cleaning.dropped)
        kept.update(t.kept)
        moved.update(t.cap_dropped)
    return {
        **extra,
        "read": sum(t.read.pairs for t in tallies),
        "bad_lines": dict(sorted(bad.items())),
        "dropped": dict(sorted(dropped.items())),
        "test_not_unique": sum(t.test_not_unique for t in tallies),
        "cap_dropped": {s: moved[s] for s in ("valid", "test")},
        "kept": {s: kept[s] for s in SPLITS},
        "inputs": [t.to_dict() for t in tallies],
    }


def _check_something_kept(tallies: Sequence[_InputTally]) -> None:
    """An input that produced no pair at all is an error: exit 0 with ``kept: 0`` helped nobody."""
    if any(sum(t.kept.values()) for t in tallies):
        return
    read = sum(t.read.pairs for t in tallies)
    names = ", ".join(t.name for t in tallies)
    if read == 0:
        bad = sum(sum(t.read.bad.values()) for t in tallies)
        why = f"all {bad} lines were malformed (skipped)" if bad else "no pairs in the input (empty file?)"
        raise LinguaLiteError(f"{names}: {why}; nothing written")
    drops = Counter[str]()
    for t in tallies:
        drops.update({k: v for k, v in t.cleaning.to_dict().get("dropped", {}).items() if isinstance(v, int)})
    top = ", ".join(f"{k} {v}" for k, v in drops.most_common(3))
    raise LinguaLiteError(f"{names}: all {read} pairs were dropped by cleaning ({top}); nothing written")


def prepare_corpus(
    inputs: Sequence[InputSpec],
    src_lang: str,
    tgt_lang: str,
    out_dir: str | Path,
    cleaning: CleaningConfig | None = None,
    split: SplitConfig | None = None,
    skip_bad: bool = False,
    progress: bool = True,
) -> PrepareResult:
    """Build ``out_dir/{train,valid,test}.tsv`` (``src<TAB>tgt<TAB>doc_id``) and ``out_dir/stats.json``.

    * Inputs are any :func:`~lingualite.data.readers.open_parallel` spec, read in order.
    * Dedup is global and happens before the split: a pair repeated across inputs or documents is kept
      once, in the first document where it appears ("first doc wins"), so it cannot leak from train to test.
    * The split is by document (:func:`~lingualite.data.split.assign_split`).
    * Test sources and targets must be unique (after NFKC/casefold/whitespace normalization) so retrieval
      is well defined: later test pairs repeating either side are dropped and counted (``test_not_unique``).
    * ``max_valid_pairs``/``max_test_pairs`` keep the pairs of smallest hash rank; the surplus is dropped
      (counted in ``cap_dropped``), so no held-out document reaches train.
    """
    if not inputs:
        raise LinguaLiteError("prepare_corpus: no inputs given")
    cleaning = cleaning or CleaningConfig()
    split = split or SplitConfig()
    out_dir = Path(out_dir)
    cleaner = PairCleaner(src_lang, tgt_lang, cleaning)
    tallies = [_InputTally(describe_spec(spec)) for spec in inputs]
    selectors = {name: CapSelector(split.cap(name)) for name in ("valid", "test")}
    unique_test = _TestUniqueness()
    paths = {name: out_dir / f"{name}.tsv" for name in SPLITS}
    stats_path = out_dir / "stats.json"
    read = [Path(p) for spec in inputs for p in (spec if isinstance(spec, tuple | list) else [spec])]
    with contextlib.ExitStack() as stack:  # an input named like an output is refused, never replaced
        tmp = {name: stack.enter_context(atomic_path(path, read)) for name, path in paths.items()}
        stats_tmp = stack.enter_context(atomic_path(stats_path, read))
        # hidden, with a pid, beside the outputs: a killed run's leftovers are recognised and removed later
        candidates = {
            name: tmp[name].with_name(f"{tmp[name].name}.{name}.tmp-candidates") for name in selectors
        }
        for path in candidates.values():  # removed on success and on failure alike
            stack.callback(path.unlink, missing_ok=True)
        bar = stack.enter_context(_progress(progress, f"prepare {src_lang}-{tgt_lang}"))
        train = stack.enter_context(open(tmp["train"], "w", encoding="utf-8", newline="\n"))
        with contextlib.ExitStack() as cand_stack:
            cand = {
                n: cand_stack.enter_context(open(p, "w", encoding="utf-8", newline="\n"))
                for n, p in candidates.items()
            }
            for idx, (spec, tally) in enumerate(zip(inputs, tallies, strict=True)):
                task = bar.add_task(tally.name, total=_line_count(spec) if _shown(bar) else None)
                read = open_parallel(spec, src_lang, tgt_lang, skip_bad=skip_bad, stats=tally.read)
                for pair in clean_pairs(
                    _counted(read, bar, task), src_lang, tgt_lang, stats=tally.cleaning, cleaner=cleaner
                ):
                    name = assign_split(
                        split_key(pair), split.valid_fraction, split.test_fraction, split.seed
                    )
                    if name == "train":
                        train.write(_tsv_line(pair))
                        tally.kept["train"] += 1
                    elif name == "test" and not unique_test.admit(pair):
                        tally.test_not_unique += 1
                    else:
                        rank = pair_rank(pair, split.seed)
                        selectors[name].offer(rank)
                        cand[name].write(f"{rank}\t{idx}\t{_tsv_line(pair)}")
        for name, selector in selectors.items():
            with open(tmp[name], "w", encoding="utf-8", newline="\n") as final:
                _finish_capped(candidates[name], final, selector, name, tallies)
        train.close()
        config = {
            "src_lang": src_lang,
            "tgt_lang": tgt_lang,
            "cleaning": asdict(cleaning),
            "split": asdict(split),
        }
        stats = _summary(tallies, config=config)
        _check_something_kept(tallies)  # raising here publishes none of the outputs
        write_json(stats_tmp, stats)
    return PrepareResult(out_dir, paths, stats_path, stats)
