"""The config of the monolingual recipe (paper 001): sentence-context classification, then iterations of
CSLS-mined pseudo-parallel pairs and coherence regression. Shipped: ``monolingual``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

from lingualite.config.encoder import EncoderConfig
from lingualite.config.parsing import Range
from lingualite.config.sections import DataConfig, OptimConfig, RecipeConfig, VocabularyConfig
from lingualite.core.errors import ConfigError
from lingualite.text.languages import PAPER_001_LANGS


@dataclass
class MonolingualDataConfig(DataConfig):
    """Documents of consecutive sentences, one language per document.

    :param train_files: ``en<TAB>xx<TAB>doc_id`` files (folder names like ``en-fr`` give the languages). They
        are translations of each other, so each document id is assigned to ONE language by a hash
        (:mod:`lingualite.recipes.monolingual.documents`) and only that language's side of it is read: the corpus is
        never secretly parallel (``corpus: comparable`` adds second sides on purpose, see ``corpus``).
    :param valid_files: held-out parallel pairs: the gold alignment for mined-pair precision and the
        validation XSR P@1 logged after each stage. Never trained on.
    :param languages: the languages to read; the hash spreads documents over them evenly.
    :param min_sentences: documents with fewer sentences are dropped (a sentence needs a context).
    :param max_sentences_per_language: seeded cap per language (whole documents), for a balanced corpus.
    :param valid_pairs: gold pairs per validation file (the gold precision samples min(m, valid_pairs) of them
        per side, so m beyond it measures the same thing).
    :param corpus: ``disjoint`` (each document in ONE language: paper 001's Book-Wiki ablation, almost nothing
        to mine) or ``comparable`` (paper 001's Wiki-Wiki setting: a share ``shared_documents`` of the
        documents is ALSO read in a second hashed language, each side keeping an independent random share
        ``keep_sentences`` of its sentences; :mod:`lingualite.recipes.monolingual.comparable`).
    :param shared_documents: ``comparable`` only: the share of documents also read in a second language.
    :param keep_sentences: ``comparable`` only: the share of a shared document's sentences each side keeps
        (drawn independently, so no side is a translation of the other).
    """

    RANGES: ClassVar[dict[str, Range]] = {
        "min_sentences": (2, None, False),
        "max_sentences_per_language": (10, None, False),
        "shared_documents": (0, 1, False),
        "keep_sentences": (0, 1, True),
    }

    languages: list[str] = field(default_factory=lambda: list(PAPER_001_LANGS))
    min_sentences: int = 2
    max_sentences_per_language: int | None = 30_000
    valid_pairs: int = 2000
    corpus: Literal["disjoint", "comparable"] = "disjoint"
    shared_documents: float = 0.5
    keep_sentences: float = 0.65

    def validate(self) -> None:
        super().validate()
        if len(set(self.languages)) < 2:
            raise ConfigError(f"data.languages needs at least two languages, got {self.languages}")


@dataclass
class ContextConfig:
    """How (context, sentence) inputs are built (paper 001, Sec. 3.1).

    :param window: k, sentences on each side: C_k(s_i) = {s_j : 0 < |i - j| <= k}.
    :param max_sentence_tokens: each sentence is cut to this many tokens before concatenation, and
        ``model.max_seq_length`` must hold 2k + 1 of them, so no input is ever cut; the input is
        ``[CLS] C_k^- s C_k^+ [SEP]``. A sentence alone (validation, mining, the exported model) is cut at
        the same point: ``max_sentence_tokens + 2`` with [CLS] and [SEP].
    :param negatives: where the random replacement s_p comes from: ``same_language`` (default) or ``any``
        (the paper's "whole corpus"). A replacement in another language is recognisable by its vocabulary
        alone, which teaches language identity instead of meaning and pushes the languages apart.
    """

    RANGES: ClassVar[dict[str, Range]] = {"window": (1, 8, False), "max_sentence_tokens": (4, None, False)}

    window: int = 1
    max_sentence_tokens: int = 40
    negatives: Literal["same_language", "any"] = "same_language"

    @property
    def sentence_length(self) -> int:
        """Tokens of a sentence encoded alone, [CLS] and [SEP] included."""
        return self.max_sentence_tokens + 2


@dataclass
class StageOptimConfig(OptimConfig):
    """One stage's optimiser (paper 001: lr 1e-4, linear decay, 1 epoch). Stages have no epochs: ``max_steps``.

    The stage is validated at its end (``eval_every`` adds validations inside it)."""

    lr: float = 5e-4
    batch_size: int = 64
    max_steps: int | None = 1000
    eval_every: int = 1000
    save_every: int = 250

    def validate(self) -> None:
        super().validate()
        if self.max_steps is None or self.epochs is not None:
            raise ConfigError("a monolingual stage sets max_steps, not epochs")


@dataclass
class MiningConfig:
    """Pseudo-parallel pairs (paper 001, Sec. 3.2).

    ``method: blocks`` is the paper's: each round samples ``sample_size`` (m) sentences in each of two
    languages, scores the m x m candidates with CSLS (k neighbours inside the block), and keeps the top
    min(m * m, ``pairs_per_round``) new pairs; rounds repeat until ``target_pairs`` (paper: m = 10,000, 1,000
    per round, 100,000 pairs). ``method: exhaustive`` (issue #16; beyond the paper, which could not afford it)
    scores the whole pool of each language pair: k nearest neighbours both ways (FAISS, or blocked sparse
    products), ratio margin with ``margin_k`` (Artetxe & Schwenk 2019), mutual nearest neighbours
    (``mutual``), a margin ``threshold`` (``auto``: per language pair, the cut of a two-component Gaussian
    mixture over the candidates' log margins, no gold pairs) and at most ``max_pairs_per_language_pair``
    pairs, best first.

    :param method: ``blocks`` (the paper's CSLS blocks) or ``exhaustive`` (ratio margin over the whole pool).
    :param sample_size: ``blocks``: m, the sentences per language in each round's block.
    :param csls_k: ``blocks``: the neighbours CSLS averages over inside a block (also the gold precision's k).
    :param pairs_per_round: ``blocks``: the best new pairs kept per round (at most m x m).
    :param target_pairs: ``blocks``: rounds repeat until this many pairs are mined.
    :param margin_k: ``exhaustive``: the neighbours the ratio margin averages over.
    :param mutual: ``exhaustive``: keep only pairs that are each other's best candidate.
    :param threshold: ``exhaustive``: the least margin a pair needs (``auto``: the two-Gaussian cut per language
        pair; null: no threshold).
    :param max_pairs_per_language_pair: ``exhaustive``: at most this many pairs per language pair, best first.
    :param pool_size: sentences per language encoded for each iteration's mining (a seeded sample).
    :param language_pairs: ``all`` (every pair of languages, in turn) or ``english`` (en-xx only).
    :param iterations: mining + coherence-regression rounds (paper: 3).
    :param centre: remove each language's mean vector before scoring (model vectors share a large common
        direction, so uncentred cosines of unrelated sentences are high).
    :param lexical_seed: BEYOND the paper (off = the paper): mine the first ``lexical_iterations`` iterations
        with ``lexical_weight`` x character n-gram TF-IDF cosine + (1 - ``lexical_weight``) x the model's
        (centred) cosine; the sentence-level analogue of identical-string seeding in vecmap. No parallel data.
    :param lexical_weight: the TF-IDF cosine's weight in the lexical score (the model's cosine gets the rest).
    :param lexical_iterations: how many iterations, from the first, mine with the lexical score.
    :param lexical_candidates: candidates per sentence found on rare n-grams and then scored exactly.
    :param lexical_search_max_df: lexical mining finds each sentence's ``lexical_candidates`` best candidates
        with only the character n-grams found in at most this share of the sentences, then scores them
        exactly (null: exact products over every n-gram; quadratic in the frequent n-grams, ~1 h per
        iteration for 30k sentences per language on 2 cores).
    :param kept_growth: ``exhaustive`` only: from the second iteration on, each language pair keeps at most
        this multiple of the pairs it kept in the previous iteration, best margin first (null: as many as the
        cut keeps). 1.0 keeps the count fixed after iteration 1's unsupervised cut, as paper 001 keeps a fixed
        number of pairs in every iteration: a better model then trains on better pairs, not on more of them.
    """

    RANGES: ClassVar[dict[str, Range]] = {
        "sample_size": (1, None, False),
        "pool_size": (1, None, False),
        "csls_k": (1, None, False),
        "pairs_per_round": (1, None, False),
        "target_pairs": (1, None, False),
        "margin_k": (1, None, False),
        "max_pairs_per_language_pair": (1, None, False),
        "lexical_weight": (0, 1, False),
        "lexical_search_max_df": (0, 1, True),
        "lexical_candidates": (1, None, False),
        "kept_growth": (0, None, True),
    }

    sample_size: int = 2000
    pool_size: int = 10_000
    csls_k: int = 10
    pairs_per_round: int = 1000
    target_pairs: int = 20_000
    iterations: int = 3
    language_pairs: Literal["all", "english"] = "all"
    method: Literal["blocks", "exhaustive"] = "blocks"
    margin_k: int = 4
    mutual: bool = True
    threshold: float | Literal["auto"] | None = None
    max_pairs_per_language_pair: int = 2000
    centre: bool = False
    lexical_seed: bool = False
    lexical_weight: float = 0.5
    lexical_iterations: int = 1
    lexical_search_max_df: float | None = 0.02
    lexical_candidates: int = 32
    kept_growth: float | None = None


@dataclass
class RegressionConfig(StageOptimConfig):
    """Coherence regression per iteration: each example puts a replacement t into the context of s and
    regresses score = cos(Enc(t), Enc(s)) with a linear head (paper 001, L_cl).

    :param mined_share: share of examples whose t is a mined pseudo-parallel partner; the rest are, half and
        half, t = s itself (score 1) and a random sentence (its cosine): the same definition of the score,
        which keeps the regression from collapsing onto the narrow range of mined-pair scores.
    :param random_score: the target of a random swap: ``cosine`` (the paper's definition of the score) or
        ``zero`` (stage 1's label for a random replacement: keeps the heads discriminating).
    :param alignment_weight: BEYOND paper 001 (0 = the paper): add this weight times an in-batch
        contrastive loss on ``batch_size`` mined pairs encoded as single sentences (paper 000's sentence
        alignment loss, Eq. 5, with scaled cosine), which pulls mined partners together directly instead of
        only through their contexts: self-training on the pseudo-parallel pairs.
    :param alignment_scale: the cosine scale of that loss.
    :param target: the coherence score of a mined swap: ``cosine`` (paper 001: cos(Enc(t), Enc(s)) with the
        encoder that mined it) or ``centred`` (issue #16: the same frozen snapshot, on vectors with each
        language's mean removed, clipped at 0: unrelated pairs score ~0 instead of ~0.9, so the targets are
        not nearly constant and a collapsed encoder cannot meet them).
    :param classification_weight: BEYOND the paper (0 = the paper): keep stage 1's L_ml as an auxiliary loss
        in every iteration (a classification batch per step, this weight), so the encoder keeps
        discriminating sentences while it regresses.
    """

    RANGES: ClassVar[dict[str, Range]] = {
        "mined_share": (0, 1, True),
        "alignment_scale": (0, None, True),
    }

    max_steps: int | None = 500
    eval_every: int = 500
    save_every: int = 125
    mined_share: float = 0.5
    random_score: Literal["cosine", "zero"] = "cosine"
    alignment_weight: float = 0.0
    alignment_scale: float = 20.0
    target: Literal["cosine", "centred"] = "cosine"
    classification_weight: float = 0.0


@dataclass
class StageEvaluationConfig:
    """Paper 001's own measures of the untrained encoder, after stage 1 and after every iteration (issue #16),
    as ``lingualite eval`` runs them: zero-shot document classification (its Table 2; ``eval classify``,
    logistic regression) on each folder of ``classify`` and pair classification (its Table 1, XNLI
    protocol; ``eval pairs``) on each folder of ``pairs``. A folder holds ``train.<train_language>.tsv`` and
    ``test.<lang>.tsv`` files (``lingualite data eval-sets`` writes them); a missing one is skipped with a
    one-line note. Evaluation only: nothing here changes the training. Run when the recipe is given the
    protocols (``lingualite train`` gives them).

    :param enabled: run the measures (off: training only).
    :param classify: classification set folders (``{data_dir}`` allowed).
    :param pairs: pair-classification set folders.
    :param train_language: the language the classifiers are trained on; the others are tested zero-shot.
    :param seeds: classifier runs averaged (seeds 0 .. N-1).
    :param max_docs: seeded subsample of at most N documents per classification file.
    :param max_train_pairs: seeded subsample of the pair-classification training file.
    :param max_test_pairs: seeded subsample of each pair-classification test file.
    :param seed: the seed of those subsamples.
    """

    RANGES: ClassVar[dict[str, Range]] = {
        "seeds": (1, None, False),
        "max_docs": (1, None, False),
        "max_train_pairs": (1, None, False),
        "max_test_pairs": (1, None, False),
    }

    enabled: bool = True
    classify: list[str] = field(
        default_factory=lambda: [
            "{data_dir}/eval/classify/libreoffice-modules",
            "{data_dir}/eval/classify/ddtp-sections",
        ]
    )
    pairs: list[str] = field(default_factory=lambda: ["{data_dir}/eval/pairs/bible-paraphrase"])
    train_language: str = "en"
    seeds: int = 3
    max_docs: int | None = 1000
    max_train_pairs: int | None = 5000
    max_test_pairs: int | None = 1000
    seed: int = 0


@dataclass
class MonolingualModelConfig(EncoderConfig):
    """The shared encoder (paper 001: 3 layers, 8 heads, d 512) and its sentence pooling.

    :param pooling: ``mean_max`` (paper 001: [mean(H); max(H)], sentence-transformers' Pooling with modes
        ("mean", "max")) or ``mean``.
    """

    pooling: Literal["mean_max", "mean"] = "mean_max"
    max_seq_length: int = 128


@dataclass
class MonolingualConfig(RecipeConfig):
    """``mode: monolingual``."""

    mode: Literal["monolingual"] = "monolingual"
    seed: int = 0
    data: MonolingualDataConfig = field(default_factory=MonolingualDataConfig)
    vocabulary: VocabularyConfig = field(default_factory=VocabularyConfig)
    model: MonolingualModelConfig = field(default_factory=MonolingualModelConfig)
    context: ContextConfig = field(default_factory=ContextConfig)
    classification: StageOptimConfig = field(default_factory=StageOptimConfig)
    mining: MiningConfig = field(default_factory=MiningConfig)
    regression: RegressionConfig = field(default_factory=RegressionConfig)
    evaluation: StageEvaluationConfig = field(default_factory=StageEvaluationConfig)

    def validate(self) -> None:
        needed = (2 * self.context.window + 1) * self.context.max_sentence_tokens + 2
        if self.model.max_seq_length < needed:
            raise ConfigError(
                f"model.max_seq_length ({self.model.max_seq_length}) must hold the whole context: "
                f"(2 x context.window + 1) x context.max_sentence_tokens + 2 = {needed}"
            )
        if self.mining.language_pairs == "english" and "en" not in self.data.languages:
            raise ConfigError("mining.language_pairs: english needs 'en' in data.languages")
        if self.mining.sample_size > self.mining.pool_size:
            raise ConfigError(
                f"mining.sample_size ({self.mining.sample_size}) must be <= mining.pool_size ({self.mining.pool_size})"
            )
