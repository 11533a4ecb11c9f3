"""The model card (``README.md``) written into every model folder lingualite exports.

sentence-transformers writes a generic card ("This is a sentence-transformers model trained."); ours says
what a user needs before trusting the model: its languages, the training data and their licences (read from
the ``stats.json`` that ``lingualite prepare`` writes beside each prepared file), the recipe and the exact
config, its size, the results measured during the run, and what it is and is not for. Hugging Face's card
metadata (the YAML header) is kept so hubs and ``huggingface_hub`` read it.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

RECIPES = {
    "parallel": (
        "Paper 000 (Mao et al., ACL 2021, *Lightweight Cross-Lingual Sentence Representation Learning*): a "
        "shared-weight dual transformer trained on translation pairs with a unified generative task, "
        "sentence alignment and sentence similarity losses."
    ),
    "distill": (
        "Paper 002 (Chaulwar et al., *Extreme compression of sentence-transformer ranker models*): a tiny "
        "student distilled from a sentence-transformer teacher (MSE to the teacher's vector for an English "
        "sentence and for its translation), with its own vocabulary and PCA-reduced teacher vectors."
    ),
    "monolingual": (
        "Paper 001 (Wang et al., *Aligning cross-lingual sentence representations with monolingual corpora "
        "only*): sentence-context classification, then coherence regression on pseudo-parallel pairs mined "
        "with CSLS; no parallel data is used for training."
    ),
}

LIMITS = (
    "- Trained on the domains of its data only (see Training data): expect lower quality on other text.\n"
    "- Text in a script or language outside *Languages* is mostly unknown to the vocabulary: such sentences "
    "get near-identical vectors (`lingualite encode` warns when this happens).\n"
    "- Numbers under *Results* are measured on held-out documents of the same sources, not on new domains."
)


@dataclass
class ModelCard:
    """What a card says; :meth:`render` turns it into Markdown."""

    recipe: str  # parallel | distill | monolingual
    config: dict[str, Any]
    train_files: list[Path]
    results: dict[str, Any] = field(default_factory=dict)
    smoke: list[str] | None = None  # the smoke caps applied, when a smoke run
    teacher: str | None = None
    notes: list[str] = field(default_factory=list)
    matryoshka_dims: list[int] | None = None  # the sizes trained with the Matryoshka loss

    def render(self, folder: Path, final: Path | None = None) -> str:
        """The card for the model files in ``folder`` that will live at ``final`` (default ``folder``)."""
        from lingualite.data.pairs import language_coverage

        final = final or folder
        patterns = (self.config.get("data") or {}).get("train_files") or []
        coverage = language_coverage(list(patterns), self.train_files)
        languages = coverage["languages"]  # from pair folders like en-fr
        params, megabytes = _size(folder)
        lines = [
            "---",
            yaml.safe_dump(
                {
                    "library_name": "sentence-transformers",
                    "pipeline_tag": "sentence-similarity",
                    "tags": ["lingualite", "sentence-transformers", f"lingualite-{self.recipe}"],
                    "language": languages or None,
                },
                sort_keys=False,
            ).strip(),
            "---",
            "",
            f"# {final.resolve().name}: a lingualite multilingual sentence encoder",
            "",
        ]
        if self.smoke is not None:
            lines += [
                "> **Smoke run**: trained on capped data for a few minutes to check that everything works. "
                "It is undertrained; its numbers are not the recipe's. Capped: " + "; ".join(self.smoke),
                "",
            ]
        lines += [
            "## Use",
            "",
            "```python",
            "from sentence_transformers import SentenceTransformer",
            "",
            f'model = SentenceTransformer("{final}")',
            'vectors = model.encode(["The cat sleeps.", "Le chat dort."], normalize_embeddings=True)',
            "```",
            "",
            "Or `lingualite encode --model FOLDER --input sentences.txt --output vectors.npy`.",
            "",
            "## Model",
            "",
            f"- Languages: {', '.join(languages) if languages else 'as in the training files'}",
            *(
                [
                    f"- Not trained on: {', '.join(coverage['missing'])} (supported by lingualite, but there "
                    "was no prepared data for them when this model was trained)"
                ]
                if coverage["missing"]
                else []
            ),
            f"- Recipe: {RECIPES.get(self.recipe, self.recipe)}",
        ]
        if self.teacher:
            lines.append(f"- Teacher: {self.teacher}")
        lines += [
            f"- Size: {params:,} parameters, {megabytes:.1f} MB of weights (safetensors)"
            if params
            else "- Size: see model.safetensors",
            *_matryoshka_lines(self.matryoshka_dims),
            "",
            "## Training data",
            "",
            *_data_lines(self.train_files),
            "",
            "## Results measured during training",
            "",
            *_result_lines(self.results),
            "",
            "## Intended use and limits",
            "",
            "Sentence vectors for cross-lingual retrieval, bitext mining, semantic search and classification "
            "features, on CPUs. Compare vectors by cosine similarity.",
            "",
            LIMITS,
            *self.notes,
            "",
            "## Config",
            "",
            "```yaml",
            yaml.safe_dump(self.config, sort_keys=False).strip(),
            "```",
            "",
        ]
        return "\n".join(lines)


def _matryoshka_lines(dims: list[int] | None) -> list[str]:
    if not dims:
        return []
    sizes = ", ".join(map(str, dims))
    return [
        f"- Trained dimensions (Matryoshka, Kusupati et al. 2022): {sizes}. Truncate, then renormalise: "
        f"`lingualite encode --dimensions {dims[-1]}`, or in sentence-transformers "
        f"`SentenceTransformer(folder, truncate_dim={dims[-1]})` with `normalize_embeddings=True`."
    ]


def write_card(card: ModelCard | None, folder: Path, final: Path | None = None) -> None:
    """Replace the generic card in a staged model ``folder`` (called before it is moved to ``final``)."""
    if card is not None:
        (folder / "README.md").write_text(card.render(folder, final), encoding="utf-8")


def _size(folder: Path) -> tuple[int, float]:
    from safetensors import safe_open

    params, size = 0, 0
    for path in folder.rglob("*.safetensors"):
        size += path.stat().st_size
        with safe_open(str(path), framework="numpy") as fh:
            for name in fh.keys():  # noqa: SIM118 - safe_open has no __iter__
                shape = fh.get_slice(name).get_shape()
                count = 1
                for dim in shape:
                    count *= dim
                params += count
    return params, size / 1e6


def _data_lines(files: list[Path]) -> list[str]:
    from lingualite.data.sources import DESCRIPTIONS, LICENCES

    lines, sources, user_files = [], [], []
    for path in files:
        found = _sources_of(path)
        lines.append(f"- `{path}`" + (f" ({', '.join(found)})" if found else " (user data)"))
        sources += [s for s in found if s not in sources]
        user_files += [] if found else [path]
    if sources:
        lines += ["", "| source | what | licence |", "|---|---|---|"]
        lines += [
            f"| {s} | {DESCRIPTIONS.get(s, '')} | {LICENCES.get(s, 'see the source')} |" for s in sources
        ]
    if user_files:
        lines += ["", "User data: its licence is as given by its owner."]
    return lines or ["- (none recorded)"]


def _sources_of(path: Path) -> list[str]:
    """Packaged sources behind a prepared file, from the ``stats.json`` beside it (empty if unknown)."""
    from lingualite.data.sources import SOURCES

    stats = path.parent / "stats.json"
    try:
        inputs = json.loads(stats.read_text(encoding="utf-8")).get("inputs", [])
        if isinstance(inputs, str):  # older stats.json files stored the list as its repr
            inputs = ast.literal_eval(inputs)
    except (OSError, ValueError, SyntaxError):
        return []
    found = []
    for item in inputs if isinstance(inputs, list) else []:
        name = Path(str(item.get("input", "") if isinstance(item, dict) else item)).parent.name
        if name in SOURCES and name not in found:
            found.append(name)
    return found


def _result_lines(results: dict[str, Any]) -> list[str]:
    numbers = {k: v for k, v in results.items() if isinstance(v, int | float) and not isinstance(v, bool)}
    # validation and mining figures; the last training batch's loss and learning rate say little to a user
    shown = {k: v for k, v in numbers.items() if "valid" in k or "precision" in k} or numbers
    if not shown:
        return ["No validation results were recorded."]
    lines = ["| metric | value |", "|---|---:|"]
    for key, value in shown.items():
        lines.append(f"| {key} | {value:.4f} |" if isinstance(value, float) else f"| {key} | {value} |")
    return lines
