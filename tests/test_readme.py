"""The README is the door: the two commands CI runs, one screen of tasks that link to pages whose examples run,
a generated results table, and no number typed by hand.

The install commands are checked against ``.ci/run`` (command 2 is what CI runs; running pytest from a test
would recurse) and command 1's ``lingualite`` call runs on tiny data (:mod:`doc_blocks`). The task examples
are ``console`` blocks: each of their lines is a line of the linked page, whose blocks ``tests/test_docs.py``
runs, so the README's examples run without running twice.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from doc_blocks import ROOT, as_tested, blocks, make_world, run_line, runnable, started_port

README = (ROOT / "README.md").read_text(encoding="utf-8")
LINK = re.compile(r"\[[^\]]*\]\(([^)#\s]+)(#[^)\s]+)?\)")
TASK = re.compile(r"^\*\*\[([^\]]+)\]\((docs/[^)#]+)(#[^)]+)?\)\*\*", flags=re.M)


def _headings_slugs(path: Path) -> set[str]:
    from markdown.extensions.toc import slugify

    text = path.read_text(encoding="utf-8")
    return {slugify(re.sub(r"[`*]", "", h), "-") for h in re.findall(r"^#{1,6} (.+)$", text, flags=re.M)}


def test_the_readme_is_short() -> None:
    assert len(README.splitlines()) <= 250


def test_command_2_is_what_ci_runs() -> None:
    kind, body = blocks(README)[0]
    commands = [line for line in body.splitlines() if line and not line.startswith("#")]
    assert kind == "bash" and len(commands) == 2, "the README starts with exactly two commands"
    ci = (ROOT / ".ci" / "run").read_text().splitlines()[-1]
    assert ci.replace(" -q", "") == commands[1]


@pytest.mark.slow
def test_command_1_runs(tmp_path: Path) -> None:
    """Command 1's ``lingualite`` part, as a user gets it (its own folder; 3 steps on tiny data)."""
    make_world(tmp_path)
    assert [kind for kind, _ in runnable(README)] == ["bash"], "only the two commands run from the README"
    line = [line for line in blocks(README)[0][1].splitlines() if line and not line.startswith("#")][0]
    tail = line.split("&&")[-1].strip().removeprefix(".venv/bin/")
    assert tail == "lingualite quickstart"
    run_line(as_tested(tail, smoke=False), tmp_path)
    assert (tmp_path / "runs" / "quickstart" / "README.md").exists()  # the model card


def test_every_task_example_is_an_example_of_its_page() -> None:
    tasks = list(TASK.finditer(README))
    assert len(tasks) >= 10
    for i, task in enumerate(tasks):
        page = ROOT / task.group(2)
        section = README[
            task.end() : tasks[i + 1].start() if i + 1 < len(tasks) else README.index("## Results")
        ]
        page_lines = {
            line.strip() for _, body in blocks(page.read_text(encoding="utf-8")) for line in body.splitlines()
        }
        for _, body in blocks(section):
            for line in body.splitlines():
                shown = [s for s in page_lines if line in s]
                assert shown, f"{task.group(1)}: {line!r} is not on {page}"
                # a server example starts the port its page's line starts (the page's calls go there)
                assert started_port(line) in {started_port(s) for s in shown}, (
                    f"{task.group(1)}: {line!r} starts another port than {page}'s"
                )


@pytest.mark.parametrize(
    "target", sorted({m.group(1) for m in LINK.finditer(README) if "://" not in m.group(1)})
)
def test_every_link_leads_somewhere(target: str) -> None:
    assert (ROOT / target).exists(), target
    anchors = {m.group(2)[1:] for m in LINK.finditer(README) if m.group(1) == target and m.group(2)}
    assert anchors <= _headings_slugs(ROOT / target), (target, anchors - _headings_slugs(ROOT / target))


def test_no_number_is_typed_by_hand() -> None:
    """Outside the two commands, code and the generated table, the prose has no measured number (decimals,
    ratios, percentages, durations, sizes): those are generated, or live on the pages with their commands."""
    text = re.sub(r"^```.*?^```", "", README, flags=re.S | re.M)
    text = re.sub(r"<!-- generated:(\w+).*?<!-- /generated:\1 -->", "", text, flags=re.S)
    text = re.sub(r"`[^`]*`", "", text)
    text = re.sub(r"\b[A-Z][A-Za-z]*(-[A-Z]+)*-\d+(\.\d+)?\+?", "", text)  # licence names: Apache-2.0, GPL-2+
    text = re.sub(r"\]\([^)]*\)", "]", text)  # link targets
    found = re.findall(r"\d+\.\d+|\d[\d,]*\s?(?:%|x\b|ms\b|MB\b|GB\b|min\b|s\b)|\d{1,3},\d{3}", text)
    assert found == []


CPU_INDEX = "--index-url https://download.pytorch.org/whl/cpu"


@pytest.mark.parametrize("page", ["README.md", "docs/getting-started.md", "docs/gpu.md"])
def test_the_torch_pin_is_described_truthfully(page: str) -> None:
    """On the public index `torch==2.13.0` resolves to the CUDA build (torch, cuDNN, triton and the NVIDIA
    wheels): a page may not call it a CPU build, and the CPU-only install (PyTorch's CPU wheel index) is given."""
    text = (ROOT / page).read_text(encoding="utf-8")
    assert not re.search(r"torch==2\.13\.0`?,? (?:is )?(?:a|the) CPU build", text), page
    assert "CPU build we test on" not in text, page
    if page != "docs/gpu.md":
        assert f"pip install torch==2.13.0 {CPU_INDEX}" in text, page
        assert "CUDA build" in text, page


# what a task's commands need beyond command 1's extras (baselines)
EXTRA_OF = {"lingualite serve": "serve", "--engine ray": "distributed"}


def test_every_task_names_the_extras_its_commands_need() -> None:
    command_1 = [line for line in blocks(README)[0][1].splitlines() if line and not line.startswith("#")][0]
    installed = set(re.search(r'-e "\.\[([^\]]*)\]"', command_1).group(1).split(","))
    tasks = list(TASK.finditer(README))
    for i, task in enumerate(tasks):
        section = README[
            task.start() : tasks[i + 1].start() if i + 1 < len(tasks) else README.index("## Results")
        ]
        prose = re.sub(r"^```.*?^```", "", section, flags=re.S | re.M)
        for command, extra in EXTRA_OF.items():
            if command in section and extra not in installed:
                assert f"`{extra}` extra" in prose, f"{task.group(1)}: say it needs the {extra} extra"
