"""The register benchmark (``benchmarks/register_table.py``): retrieval per register and language for every
model, the gaps to the references, and the students' teacher fidelity."""

from __future__ import annotations

from typing import Any

from tools.docsgen.markdown import MISSING, num, short_spec, table

LORO_COMMANDS = "python benchmarks/register_table.py --data-dir data --write-loro-configs runs/loro"


def _cell(value: float | None, ref: float | None = None, seen: bool = False) -> str:
    if value is None:
        return MISSING
    text = num(value) + ("*" if seen else "")
    return text if ref is None else f"{text} ({value - ref:+.3f})"


def register_table(data: dict[str, Any]) -> list[str]:
    models: list[str] = data["models"]
    p_at_1: dict[str, Any] = data["p_at_1"]
    seen: dict[str, list[str]] = data.get("seen", {})
    summary: dict[str, Any] = data["summary"]
    refs: list[str] = data.get("references", [])
    first_ref = refs[0] if refs else None
    registers = list(dict.fromkeys(r for m in models for r in p_at_1.get(m, {})))
    names = [short_spec(m) for m in models]
    lines = [f"Protocol: {data['protocol']}.", ""]
    described = []
    for reg, row in data.get("registers", {}).items():
        sizes = row.get("pairs") or row.get("texts") or {}
        unit = ("language pairs", "pairs") if row.get("kind") == "parallel" else ("languages", "texts")
        low, high = min(sizes.values(), default=0), max(sizes.values(), default=0)
        span = f"{low}" if low == high else f"{low}–{high}"
        use = "" if row.get("kind") == "parallel" else " (fidelity only)"
        described.append([reg, row.get("origin", ""), f"{len(sizes)} {unit[0]}, {span} {unit[1]} each{use}"])
    lines += [*table(["register", "from", "held-out data"], described, "lll"), ""]
    smaller = {reg: sorted(set(row.values())) for reg, row in data.get("pool_used", {}).items() if row}
    if smaller:
        said = ", ".join(f"{reg} ({'/'.join(map(str, sizes))})" for reg, sizes in smaller.items())
        lines += [
            f"Cells with fewer than {data['pool']} pairs search all of them, a smaller pool: {said}.",
            "",
        ]
    if data.get("too_small"):
        left = ", ".join(f"{k} ({v})" for k, v in data["too_small"].items())
        lines += [f"Left out, too few held-out pairs: {left}.", ""]

    lines += ["### Mean P@1 per register", ""]
    lines += [
        "Mean over the en-xx pairs, then over the non-English pairs (through English where the register is "
        "multi-way). `*`: a register the model was trained on (the shipped students: help, package "
        "descriptions, Bible, UI strings, games).",
        "",
    ]
    body = []
    for reg in registers:
        row = [reg]
        for m in models:
            r = summary.get(m, {}).get("by_register", {}).get(reg)
            if not r:
                row.append(MISSING)
                continue
            mark = "*" if reg in seen.get(m, []) else ""
            text = num(r["en-xx"]) + mark
            row.append(text + (f" / {num(r['non-english'])}" if r.get("non-english") is not None else ""))
        body.append(row)
    lines += [*table(["register", *names], body, "l" + "r" * len(models)), ""]

    lines += ["### Per pair: the registers each model never saw", ""]
    lines += [
        "Mean P@1 over the registers the model was not trained on (every register for the baselines), with "
        f"the gap to {', '.join(short_spec(r) for r in refs)} on the same cells.",
        "",
    ]
    found = list(dict.fromkeys(p for m in models for p in summary.get(m, {}).get("by_pair", {})))
    pairs = [p for p in data.get("pairs", []) if p in found] + [
        p for p in found if p not in data.get("pairs", [])
    ]
    body = []
    for pair in pairs:
        row = [pair]
        for m in models:
            r = summary.get(m, {}).get("by_pair", {}).get(pair)
            if not r or r.get("unseen") is None:
                row.append(MISSING)
                continue
            gaps = [r.get(f"gap_unseen/{ref}") for ref in refs]
            shown = ", ".join(f"{g:+.3f}" for g in gaps if g is not None)
            row.append(num(r["unseen"]) + (f" ({shown})" if shown else ""))
        body.append(row)
    lines += [*table(["pair", *names], body, "l" + "r" * len(models)), ""]

    for m in models:
        scores = p_at_1.get(m, {})
        if not scores:
            continue
        lines += [f"### {short_spec(m)}: P@1 per pair and register", ""]
        if first_ref and m != first_ref:
            lines += [f"In brackets: the gap to {short_spec(first_ref)}.", ""]
        regs = [r for r in registers if r in scores]
        body = []
        for pair in pairs:
            row = [pair]
            for reg in regs:
                ref = (
                    p_at_1.get(first_ref, {}).get(reg, {}).get(pair) if first_ref and m != first_ref else None
                )
                row.append(_cell(scores[reg].get(pair), ref, reg in seen.get(m, [])))
            body.append(row)
        lines += [*table(["pair", *regs], body, "l" + "r" * len(regs)), ""]

    fidelity = data.get("fidelity", {})
    if fidelity:
        lines += ["### Teacher fidelity", ""]
        lines += [
            f"Mean cos(S(x), P T(x)) between the student's vector and the teacher's ({short_spec(data['teacher'])}) "
            "projected into the student's space, the student's own training target; per register and language "
            "(parallel registers: each side in its language; text registers: sentences of that language). "
            "`pca ceiling`: the mean |P T(x)| / |T(x)|, the cosine the projection itself keeps.",
            "",
        ]
        for m, f in fidelity.items():
            how = f["projection"] if isinstance(f["projection"], str) else "; ".join(
                f"{k}: {v}" for k, v in f["projection"].items()
            )  # fmt: skip
            lines += [f"**{short_spec(m)}** (P: {how})", ""]
            by_reg = f["by_register"]
            langs = sorted({lang for row in by_reg.values() for lang in row})
            body = [[reg, *(num(by_reg[reg].get(lang)) for lang in langs)] for reg in by_reg]
            if f.get("by_language"):
                body.append(["mean", *(num(f["by_language"].get(lang)) for lang in langs)])
            if f.get("by_language_unseen"):
                unseen = f["by_language_unseen"]
                body.append(["mean, registers never seen", *(num(unseen.get(lang)) for lang in langs)])
            ceiling = f.get("pca_ceiling", {})
            if ceiling:
                means = {
                    lang: sum(r[lang] for r in ceiling.values() if lang in r)
                    / max(1, sum(lang in r for r in ceiling.values()))
                    for lang in langs
                }
                body.append(["pca ceiling", *(num(means[lang]) for lang in langs)])
            lines += [*table(["register", *langs], body, "l" + "r" * len(langs)), ""]

    loro = data.get("loro") or {}
    lines += ["### Leave one register out", ""]
    if loro:
        lines += [
            "Row `loro`: each register scored by the student trained without it: "
            + ", ".join(f"{k} = `{short_spec(v)}`" for k, v in loro.items())
            + ".",
            "",
        ]
    else:
        lines += [
            "No leave-one-register-out students in this run: for the shipped students the everyday registers "
            "and the text-only sources are already ones they never saw. "
            f"`{LORO_COMMANDS}` writes the broad recipe without each register and prints the `lingualite "
            "distill` commands and the `--loro REGISTER=MODEL` flags that score their outputs.",
            "",
        ]
    return lines
