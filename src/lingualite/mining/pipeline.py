"""``lingualite mine``: bitext mining between two text files of any size, resumable, in bounded memory.

Steps, each leaving files in the work folder that a re-run (or ``--resume`` after a crash) skips:

1. **encode** each side into shards of ``shard_size`` normalised vectors (``src/``, ``tgt/``; in-process,
   ``--workers N`` processes or Ray: :mod:`lingualite.encoding.workers`, :mod:`lingualite.encoding.ray_workers`);
2. **index** (IVF search only): a coarse quantizer and one 8-bit IVF index per shard (``ivf/``);
3. **search** forward (each source shard against all target shards) and backward, saving each query shard's
   neighbour lists (``knn/fwd-00000.npz``): memory is one query shard, one base shard and the lists;
4. **rescore** (two-stage, optional): a second, stronger model re-encodes both sides and recomputes the
   candidates' cosines (``rescore/``), so a fast model proposes and a better one decides;
5. **select** pairs by ratio margin (:mod:`lingualite.mining.margin`) and write
   ``score<TAB>source<TAB>target<TAB>source line<TAB>target line``, best first, atomically.

The work folder records what its files were computed from (model, inputs' sizes and times, shard size, search
settings); a run with other settings is refused rather than mixing files. Mode, threshold and 1:1 only
affect step 5, so re-mining with another threshold reuses everything.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from lingualite.core.device import resolve_device
from lingualite.core.errors import LinguaLiteError, check_finite
from lingualite.core.io_utils import atomic_file, check_not_input, write_json
from lingualite.core.ownership import check_output_suffix, check_separate
from lingualite.core.progress import progress_line
from lingualite.mining.margin import MODES, MinedBitext, Neighbours, best_candidates, check_mode, combine
from lingualite.mining.shards import build_ivf, exact_cosines, resort, search_shards
from lingualite.mining.work_folder import check_work, link_shards, reusable_work

IVF_FROM = 200_000  # "auto" search: exact below this many base sentences, IVF from here
FORMAT_VERSION = 3  # 2: models keyed by content, not by name; 3: rows with no known token zeroed (#41)


@dataclass
class MineSettings:
    """How to mine. ``candidates``: neighbours kept per sentence (>= k; more gives the selection and the
    rescoring more to choose from). ``search``: exact, ivf or auto (IVF from :data:`IVF_FROM` base rows)."""

    k: int = 4
    candidates: int = 8
    mode: str = "max"
    threshold: float | None = None
    one_to_one: bool = True
    shard_size: int = 100_000
    search: str = "auto"
    nprobe: int = 16
    workers: int = 1
    engine: str = "local"
    rescore_model: str | None = None
    device: str = "auto"
    skip_bad: bool = False
    """A line with no token the model knows (:mod:`lingualite.encoders.known_tokens`) is left out of the pairs
    and counted, instead of refused (``FILE:LINE``); selection only, not part of the fingerprint."""
    """Where the encoders run, and the exact search on a GPU (:mod:`lingualite.core.device`); not part of the
    work folder's fingerprint: shards encoded on one device are searched on another."""

    def __post_init__(self) -> None:
        check_finite(self.threshold, "threshold")

    def fingerprint(self, model: str, src: Path, tgt: Path) -> dict[str, object]:
        """What the work folder's files depend on (not mode, threshold or 1:1: those only select): the
        models by content (:func:`~lingualite.encoders.spec.model_content_key`: a model folder changed in
        place is another model), the inputs by path, size and time, the settings that shape the files."""
        from lingualite.encoders.spec import model_content_key

        def stat(p: Path) -> dict[str, object]:
            s = p.stat()
            return {"path": str(p.resolve()), "bytes": s.st_size, "mtime_ns": s.st_mtime_ns}

        rescore = self.rescore_model
        return {
            "format": FORMAT_VERSION,
            "model": model_content_key(model),
            "src": stat(src),
            "tgt": stat(tgt),
            "shard_size": self.shard_size,
            "candidates": max(self.k, self.candidates),
            "search": self.search,
            "nprobe": self.nprobe,
            "rescore_model": None if rescore is None else model_content_key(rescore),
        }


@dataclass
class MineResult:
    output: Path
    pairs: int
    src_sentences: int
    tgt_sentences: int
    seconds: dict[str, float] = field(default_factory=dict)
    search: str = "exact"
    skipped: dict[str, list[int]] = field(
        default_factory=dict
    )  # per side: lines left out (skip_bad), 1-based


class _Progress:
    """Step lines with elapsed time and ETA on stderr (or through ``report``)."""

    def __init__(self, report: Callable[[str], None] | None) -> None:
        self.report = report or (lambda line: print(line, file=sys.stderr))

    def steps(self, what: str, total: int) -> Callable[[int], None]:
        t0 = time.perf_counter()

        def tick(done: int) -> None:
            self.report(progress_line(f"mine: {what}", done, total, time.perf_counter() - t0))

        return tick


def _encode_side(model: str, text: Path, folder: Path, settings: MineSettings) -> list[Path]:
    if settings.engine == "ray":
        from lingualite.encoding.ray_workers import encode_shards_ray

        return encode_shards_ray(
            model, text, folder, settings.shard_size, normalize=True, workers=settings.workers
        )
    from lingualite.encoding.workers import encode_shards

    return encode_shards(
        model,
        text,
        folder,
        settings.shard_size,
        normalize=True,
        workers=settings.workers,
        device=settings.device,
        progress=True,  # a bar on a terminal, plain lines otherwise: encoding is most of a run's time
        label=f"mine: encode {text.name}",
    )


def _save(nb: Neighbours, out: Path) -> None:
    with atomic_file(out) as tmp, open(tmp, "wb") as fh:
        np.savez(fh, sims=nb.sims, idx=nb.idx)


def _load(path: Path) -> Neighbours:
    with np.load(path, allow_pickle=False) as saved:
        return Neighbours(saved["sims"], saved["idx"])


def _search(
    direction: str,
    queries: list[Path],
    bases: list[Path],
    work: Path,
    settings: MineSettings,
    ivf: Path | None,
    progress: _Progress,
) -> list[Path]:
    """One direction's neighbour lists, one file per query shard (skipped when present); their paths."""
    depth = max(settings.k, settings.candidates)
    gpu = resolve_device(settings.device)
    gpu = gpu if gpu.type == "cuda" else None  # FAISS on a CPU
    tick = progress.steps(f"search {direction}", len(queries))
    paths = []
    for i, path in enumerate(queries):
        out = work / "knn" / f"{direction}-{i:05d}.npz"
        if not out.exists():
            query = np.ascontiguousarray(np.load(path, allow_pickle=False), dtype=np.float32)
            _save(search_shards(query, bases, depth, ivf, settings.nprobe, settings.shard_size, gpu=gpu), out)
        paths.append(out)
        tick(i + 1)
    return paths


def _rescore(
    lists: list[Path], queries: list[Path], bases: list[Path], folder: Path, shard_size: int
) -> list[Path]:
    """The same candidates with cosines from another model's shards, best first again (one file per shard)."""
    paths = []
    for saved, path in zip(lists, queries, strict=True):
        out = folder / f"{saved.stem}.npz"
        if not out.exists():
            idx = _load(saved).idx
            query = np.asarray(np.load(path, allow_pickle=False), np.float32)
            _save(resort(exact_cosines(query, idx, bases, shard_size), idx), out)
        paths.append(out)
    return paths


def _select(forward: list[Path], backward: list[Path], settings: MineSettings) -> MinedBitext:
    """Margin selection shard by shard: every sentence's neighbourhood mean first (one float each), then each
    query shard's best candidates; only a few numbers per sentence are ever held, not the lists."""
    check_mode(settings.mode, settings.k)
    r_src = np.concatenate([_load(p).neighbourhood_mean(settings.k) for p in forward])
    r_tgt = np.concatenate([_load(p).neighbourhood_mean(settings.k) for p in backward])

    def bests(lists: list[Path], r_query: np.ndarray, r_other: np.ndarray) -> tuple[np.ndarray, ...]:
        parts, start = [], 0
        for path in lists:
            nb = _load(path)
            parts.append(best_candidates(nb, r_query[start : start + len(nb)], r_other))
            start += len(nb)
        return tuple(np.concatenate(column) for column in zip(*parts, strict=True))

    fwd, bwd = bests(forward, r_src, r_tgt), bests(backward, r_tgt, r_src)
    return combine(fwd, bwd, settings.mode, settings.threshold, settings.one_to_one)  # type: ignore[arg-type]


def mine(
    model: str,
    src: str | Path,
    tgt: str | Path,
    output: str | Path,
    work_dir: str | Path | None = None,
    *,
    report: Callable[[str], None] | None = None,
    overwrite: bool = False,
    **settings: Any,
) -> MineResult:
    """``lingualite mine``: translation pairs between the lines of ``src`` and ``tgt`` by ratio margin, into
    ``output`` (``src<TAB>tgt<TAB>score``), resumable in ``work_dir``. ``settings``: the fields of
    :class:`MineSettings` (``k``, ``candidates``, ``mode``, ``threshold``, ``one_to_one``, ``shard_size``,
    ``search``, ``nprobe``, ``workers``, ``engine``, ``rescore_model``, ``device``), checked before any work."""
    chosen = MineSettings(**settings)
    check_output_suffix(Path(output), (".tsv", ".txt", ""), "mine")  # any name, but not another format's
    if chosen.mode not in MODES:
        raise ValueError(f"--mode {chosen.mode!r}: choose from {', '.join(MODES)}")
    if chosen.search not in ("auto", "exact", "ivf") or chosen.engine not in ("local", "ray"):
        raise ValueError("--search takes auto, exact or ivf; --engine takes local or ray")
    return mine_files(model, src, tgt, output, work_dir, chosen, report, overwrite)


def mine_files(
    model: str,
    src: str | Path,
    tgt: str | Path,
    output: str | Path,
    work_dir: str | Path | None = None,
    settings: MineSettings | None = None,
    report: Callable[[str], None] | None = None,
    overwrite: bool = False,
) -> MineResult:
    """Mine parallel sentences between the lines of ``src`` and ``tgt`` into ``output`` (see module doc).
    The work folder is a lingualite ``mine`` folder (:mod:`lingualite.core.ownership`), continued when its files
    were computed from the same models and inputs; ``overwrite`` empties it first."""
    from lingualite.core.io_utils import clean_leftovers
    from lingualite.encoders.spec import spec_folder
    from lingualite.encoding.to_file import count_lines
    from lingualite.encoding.workers import check_not_fitted
    from lingualite.models.run_folder import open_run

    settings = settings or MineSettings()
    src, tgt, output = Path(src), Path(tgt), Path(output)
    for path in (src, tgt):
        if not path.is_file():
            raise LinguaLiteError(f"{path}: does not exist or is not a file")
    check_not_input(output, [src, tgt])
    work = Path(work_dir) if work_dir is not None else output.with_name(output.name + ".work")
    models = [f for m in (model, settings.rescore_model) if m and (f := spec_folder(m)) is not None]
    check_separate(output, [work], what="the work folder (--work-dir)")  # the pairs file never lands in it
    check_separate(output, models)
    for model_spec in (model, settings.rescore_model):
        if model_spec:
            check_not_fitted(model_spec, "mine encodes each side in shards")
    for path in (src, tgt):  # an empty side, a blank line: refused before the work folder exists
        count_lines(path)
    progress, seconds = _Progress(report), {}
    clean_leftovers(output.parent, target=output.name)  # a killed run's temp file of the output
    fingerprint = settings.fingerprint(model, src, tgt)
    links: list[tuple[str, Path]] = []
    if work_dir is None and not overwrite and not (work / "manifest.json").exists():
        work, links = reusable_work(work, fingerprint, progress.report)
    with open_run(work, "mine", overwrite=overwrite, inputs=[src, tgt, *models]):
        check_work(work, fingerprint)
        link_shards(work, links, progress.report)
        t0 = time.perf_counter()
        src_shards = _encode_side(model, src, work / "src", settings)
        tgt_shards = _encode_side(model, tgt, work / "tgt", settings)
        seconds["encode"] = time.perf_counter() - t0
        src_n, tgt_n = _rows(src_shards), _rows(tgt_shards)
        skipped = {"src": _unknown(src, [src_shards], settings), "tgt": _unknown(tgt, [tgt_shards], settings)}
        if not src_n or not tgt_n:
            raise LinguaLiteError(f"{src if not src_n else tgt}: is empty; nothing to mine")
        use_ivf = settings.search == "ivf" or (settings.search == "auto" and max(src_n, tgt_n) >= IVF_FROM)
        t0 = time.perf_counter()
        ivf_src = build_ivf(src_shards, work / "ivf" / "src") if use_ivf else None
        ivf_tgt = build_ivf(tgt_shards, work / "ivf" / "tgt") if use_ivf else None
        seconds["index"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        forward = _search("fwd", src_shards, tgt_shards, work, settings, ivf_tgt, progress)
        backward = _search("bwd", tgt_shards, src_shards, work, settings, ivf_src, progress)
        seconds["search"] = time.perf_counter() - t0
        if settings.rescore_model:
            t0 = time.perf_counter()
            src_r = _encode_side(settings.rescore_model, src, work / "rescore" / "src", settings)
            tgt_r = _encode_side(settings.rescore_model, tgt, work / "rescore" / "tgt", settings)
            skipped = {
                "src": _unknown(src, [src_shards, src_r], settings),
                "tgt": _unknown(tgt, [tgt_shards, tgt_r], settings),
            }
            forward = _rescore(forward, src_r, tgt_r, work / "rescore" / "knn", settings.shard_size)
            backward = _rescore(backward, tgt_r, src_r, work / "rescore" / "knn", settings.shard_size)
            seconds["rescore"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        mined = _without(_select(forward, backward, settings), skipped, progress.report, src, tgt)
        write_pairs(mined, src, tgt, output)
        seconds["select_and_write"] = time.perf_counter() - t0
        result = MineResult(
            output,
            len(mined),
            src_n,
            tgt_n,
            {k: round(v, 2) for k, v in seconds.items()},
            "ivf" if use_ivf else "exact",
            skipped,
        )
        write_json(
            work / "summary.json", {**asdict(result), "output": str(output), "settings": asdict(settings)}
        )
    return result


def _unknown(path: Path, sides: list[list[Path]], settings: MineSettings) -> list[int]:
    """The 1-based lines of ``path`` whose vector is marked as having no known token in any of ``sides``
    (its shards by each model): the first refused naming ``path:line``, or all listed under ``skip_bad``."""
    from lingualite.encoders.known_tokens import marked, refusal

    lines: set[int] = set()
    for shards in sides:
        start = 0
        for shard in shards:
            vectors = np.load(shard, mmap_mode="r", allow_pickle=False)
            lines.update((start + marked(np.asarray(vectors)) + 1).tolist())
            start += len(vectors)
    if lines and not settings.skip_bad:
        first = min(lines)
        raise refusal(path, first, _lines_at(path, np.array([first - 1])).get(first - 1))
    return sorted(lines)


def _without(
    mined: MinedBitext, skipped: dict[str, list[int]], report: Callable[[str], None], src: Path, tgt: Path
) -> MinedBitext:
    """``mined`` without the pairs of skipped lines (``skip_bad``), which are counted on stderr."""
    if not skipped["src"] and not skipped["tgt"]:
        return mined
    for name, path in (("src", src), ("tgt", tgt)):
        if skipped[name]:
            report(
                f"mine: skipped {len(skipped[name]):,} lines of {path} with no token the model knows (--skip-bad)"
            )
    keep = ~np.isin(mined.src, np.array(skipped["src"], dtype=np.int64) - 1)
    keep &= ~np.isin(mined.tgt, np.array(skipped["tgt"], dtype=np.int64) - 1)
    return MinedBitext(mined.src[keep], mined.tgt[keep], mined.score[keep], mined.cosine[keep])


def _rows(shards: list[Path]) -> int:
    from lingualite.mining.shards import shard_rows

    return sum(shard_rows(shards))


def _lines_at(path: Path, wanted: np.ndarray) -> dict[int, str]:
    """The text of the wanted 0-based lines, reading the file once in chunks."""
    from lingualite.data.lines import iter_line_chunks

    need, found, start = set(wanted.tolist()), {}, 0
    for chunk in iter_line_chunks(path):
        for i in need.intersection(range(start, start + len(chunk))):
            found[i] = chunk[i - start]
        start += len(chunk)
    return found


def write_pairs(mined: MinedBitext, src: Path, tgt: Path, output: Path, block: int = 250_000) -> None:
    """``score<TAB>source<TAB>target<TAB>source line<TAB>target line`` per pair, best first: LASER's three
    columns, then where each sentence is in its input (1-based line numbers, as ``sed -n Np``, editors and
    our file:line errors count; after the texts, so ``cut -f2,3`` still gives the pairs). Tabs inside a
    sentence become spaces so every row has five fields. Texts are fetched ``block`` pairs at a time (one
    pass over each input per block), so memory holds one block's sentences, not every mined pair's."""
    with atomic_file(output, inputs=[src, tgt]) as tmp, open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        for start in range(0, len(mined), block):
            s_ids, t_ids = mined.src[start : start + block], mined.tgt[start : start + block]
            src_text, tgt_text = _lines_at(src, s_ids), _lines_at(tgt, t_ids)
            for s, t, score in zip(
                s_ids.tolist(), t_ids.tolist(), mined.score[start : start + block].tolist(), strict=True
            ):
                a, b = src_text[s].replace("\t", " "), tgt_text[t].replace("\t", " ")
                fh.write(f"{score:.4f}\t{a}\t{b}\t{s + 1}\t{t + 1}\n")
