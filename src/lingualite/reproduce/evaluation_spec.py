"""The ``evaluation`` section of a reproduction table: what every cell is scored on.

A table's section may be changed per scale and per cell by dotted keys (``scales.cpu.evaluation:
{pooled.pool: 20000}``, ``cells[i].evaluation: {test_files: [...], classify_languages: [fr]}``), applied
in that order to the table's section and validated like it (:func:`merged_evaluation`)::

    evaluation:
      test_files: ["{data_dir}/prepared/*/test.tsv"]   # square XSR ([]: none)
      classify: ["{data_dir}/eval/classify/libreoffice-modules"]
      classify_directions: [en2xx, xx2en]              # paper 000 Table 3: → and ←
      pooled:                                          # paper 000 Table 4: queries among a large pool
        test_files: ["{data_dir}/prepared/*/test.tsv"]
        queries: 2000
        pool: 200000
        distractors: ["{data_dir}/prepared/{pair}/train.tsv"]
      efficiency: {texts: "{data_dir}/prepared/en-fr/test.tsv", single_runs: 1000}   # paper 002 Table 3
      ir:                                              # paper 002 Table 2: query -> passage retrieval
        data: "{data_dir}/eval/ir/libreoffice-index/en"
        queries: ["{data_dir}/eval/ir/libreoffice-index/fr"]
        max_queries: 1000
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, ClassVar

from lingualite.config.parsing import Range, from_dict
from lingualite.core.errors import ConfigError, LinguaLiteError
from lingualite.data.eval_files import CLASSIFY_DIRECTIONS, XSR_DIRECTIONS, check_directions
from lingualite.vectors.retrieval import METHODS

__all__ = ["EfficiencySpec", "EvaluationSpec", "IrSpec", "PooledXsrSpec", "merged_evaluation", "set_dotted"]


def _directions(directions: list[str], allowed: tuple[str, ...], key: str) -> None:
    try:
        check_directions(directions, allowed)
    except LinguaLiteError as exc:
        raise ConfigError(f"{key}: {exc}") from exc


@dataclass
class PooledXsrSpec:
    """Pooled XSR (paper 000, Sec. 4.4 and Table 4: 2,000 queries among 200k target sentences, scored by
    ratio margin as in Artetxe & Schwenk 2019): per test file and direction, ``queries`` seeded queries
    against a pool of ``pool`` sentences (their translations, the file's other sentences, then
    ``distractors``). Off while ``test_files`` is empty.

    :param pool: pool size per direction; null: every candidate there is.
    :param distractors: files (globs); ``{pair}`` is the test file's folder (``en-fr``), ``{lang}`` the pool's
        language; a ``src<TAB>tgt`` file gives its side in the pool's language.
    :param k: the margin's neighbourhood (default 4).
    """

    RANGES: ClassVar[dict[str, Range]] = {"queries": (0, None, True), "pool": (0, None, True)}

    test_files: list[str] = field(default_factory=list)
    queries: int = 2000
    pool: int | None = None
    distractors: list[str] = field(default_factory=list)
    directions: list[str] = field(default_factory=lambda: list(XSR_DIRECTIONS))
    method: str = "margin"
    k: int | None = None

    def validate(self) -> None:
        _directions(self.directions, XSR_DIRECTIONS, "directions")
        if self.method not in METHODS:
            raise ConfigError(f"method: {self.method!r} is not one of {', '.join(METHODS)}")
        if self.pool is not None and self.pool < self.queries:
            raise ConfigError(f"pool ({self.pool}) must be at least queries ({self.queries})")


@dataclass
class EfficiencySpec:
    """Size, throughput and batch-1 measures (paper 002, Sec. 6.2 and Table 3: median and quartiles of 1,000
    runs) of each cell's model in a fresh process (:func:`lingualite.evaluation.efficiency.
    measure_efficiency`, energy by RAPL where readable, never estimated). Off while ``texts`` is empty.

    :param texts: a text file, one sentence a line, or a pair file (its first column).
    :param max_texts: the first N sentences are encoded (batched, then ``single_runs`` one at a time).
    :param threads: CPU threads of the encoder (null: every core).
    """

    RANGES: ClassVar[dict[str, Range]] = {
        "max_texts": (0, None, True),
        "single_runs": (0, None, True),
        "batch_size": (0, None, True),
        "threads": (0, None, True),
    }

    texts: str = ""
    max_texts: int = 1000
    single_runs: int = 1000
    batch_size: int = 64
    threads: int | None = None


@dataclass
class IrSpec:
    """Query -> passage retrieval (paper 002, Table 2: MRR@10, NDCG@10, MAP@100), as ``lingualite eval ir``
    computes it. Off while ``data`` is empty.

    :param data: an IR folder (``corpus.tsv``, ``queries.tsv``, ``qrels.tsv``): its queries against its corpus.
    :param queries: more query folders (``queries.tsv`` + ``qrels.tsv``, e.g. other languages) against the
        same corpus: cross-lingual retrieval.
    :param max_queries: seeded subsample of each folder's judged queries (null: all).
    :param max_words: cut every corpus document to its first N words before encoding (null: whole).
    """

    RANGES: ClassVar[dict[str, Range]] = {"max_queries": (1, None, False), "max_words": (1, None, False)}

    data: str = ""
    queries: list[str] = field(default_factory=list)
    max_queries: int | None = 1000
    max_words: int | None = None

    def validate(self) -> None:
        if self.queries and not self.data:
            raise ConfigError("ir.queries: needs ir.data, the folder whose corpus the queries search")


@dataclass
class EvaluationSpec:
    """How every cell is evaluated (``{data_dir}`` in a path is the data directory).

    :param test_files: XSR P@1 (square protocol, both directions) on these pair files (globs); [] for none.
    :param classify: zero-shot cross-lingual document classification (paper 000's MLDoc protocol: a
        logistic regression on one language's documents, scored on another; mean of 5 seeds) on these set
        folders (``lingualite data eval-sets`` writes them).
    :param classify_directions: ``en2xx`` (fit on ``train.en.tsv``, score each ``test.<lang>.tsv``) and/or
        ``xx2en`` (fit on each ``train.<lang>.tsv``, score ``test.en.tsv``): Table 3's → and ←.
    :param classify_languages: the other languages to classify (null: every one the set has).
    :param classify_max_docs: seeded subsample of at most N documents per classification file.
    :param sts: semantic textual similarity (Spearman of cosine vs gold) on these ``s1<TAB>s2<TAB>score``
        files, e.g. ``{data_dir}/eval/sts/lee/en.tsv`` (paper 002's Table 1 measure).
    :param pooled: pooled XSR (:class:`PooledXsrSpec`). :param efficiency: :class:`EfficiencySpec`.
    :param ir: query -> passage retrieval (:class:`IrSpec`).
    :param seed: seed of the subsamples.
    """

    RANGES: ClassVar[dict[str, Range]] = {"classify_max_docs": (0, None, True)}

    test_files: list[str] = field(default_factory=lambda: ["{data_dir}/prepared/*/test.tsv"])
    classify: list[str] = field(default_factory=list)
    classify_max_docs: int | None = None
    classify_directions: list[str] = field(default_factory=lambda: ["en2xx"])
    classify_languages: list[str] | None = None
    sts: list[str] = field(default_factory=list)
    pooled: PooledXsrSpec = field(default_factory=PooledXsrSpec)
    efficiency: EfficiencySpec = field(default_factory=EfficiencySpec)
    ir: IrSpec = field(default_factory=IrSpec)
    seed: int = 0

    def validate(self) -> None:
        _directions(self.classify_directions, CLASSIFY_DIRECTIONS, "classify_directions")


def set_dotted(data: dict[str, Any], dotted: str, value: Any, where: str) -> None:
    """Set ``a.b.c`` in a nested mapping (creating missing sections); a non-mapping on the way is an error."""
    *parents, key = dotted.split(".")
    node = data
    for part in parents:
        node = node.setdefault(part, {})
        if not isinstance(node, dict):
            raise ConfigError(f"{where}: {dotted}: {part} is not a config section")
    node[key] = value


def merged_evaluation(
    base: dict[str, Any] | None, layers: list[dict[str, Any]], where: str
) -> EvaluationSpec:
    """The table's ``evaluation`` mapping with each layer's dotted keys set in turn (scale, then cell),
    validated; errors name ``where`` and the key."""
    data = copy.deepcopy(base or {})
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: must be a mapping")
    for layer in layers:
        for dotted, value in layer.items():
            set_dotted(data, dotted, copy.deepcopy(value), where)
    return from_dict(EvaluationSpec, data, where)
