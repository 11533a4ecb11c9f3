"""The models of the companion package ``lingualite-models``: for each, its recipe, languages and size budget.

One table that ``lingualite models build`` (:mod:`lingualite.reproduce.packaged_build`), the model cards
(:mod:`lingualite.reproduce.packaged_card`) and the CLI read. The name a model loads by and the runtime of its
folder are :data:`lingualite.encoders.packaged.PACKAGED`'s.
"""

from __future__ import annotations

from dataclasses import dataclass

from lingualite.encoders.packaged import PACKAGED
from lingualite.text.languages import ENGLISH, SHIPPED, SUPPORTED

__all__ = ["TIERS", "TIER_TABLE", "Tier"]


@dataclass(frozen=True)
class Tier:
    """One packaged model: the folder ``name`` of the package, built by distilling ``config``."""

    name: str  # its folder in the package and its key for `lingualite models build --only`
    model: str  # the name lingualite loads it by
    config: str  # the built-in distill config it is trained with
    languages: tuple[str, ...]  # what it is distilled on (English and the languages paired with it)
    budget_bytes: int  # the folder's size budget (issue #43: small <= 10 MB, static <= 12 MB)
    teacher_vectors_of: str | None = None  # a tier reading the same text: its teacher vectors are reused

    @property
    def runtime(self) -> str:
        """The runtime of its folder (``onnx-int8``: a transformer graph; ``static``: a token table)."""
        return PACKAGED[self.model]

    @property
    def translation_langs(self) -> tuple[str, ...]:
        return tuple(code for code in self.languages if code != ENGLISH)


TIER_TABLE: dict[str, Tier] = {
    tier.name: tier
    for tier in (
        Tier("small", "lingualite-small", "distill", SHIPPED, 10_000_000),
        Tier(
            "static", "lingualite-static", "distill-static", SHIPPED, 12_000_000, teacher_vectors_of="small"
        ),
        # every supported language; opt-in by name, the 13 keep lingualite-small (docs/languages.md says why)
        Tier("small-34", "lingualite-small-34", "distill-all", SUPPORTED, 10_000_000),
    )
}
# in build order: a tier whose teacher vectors another reuses comes first
TIERS: tuple[str, ...] = tuple(TIER_TABLE)
