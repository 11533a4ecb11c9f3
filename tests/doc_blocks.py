"""Run the code blocks of a Markdown page (README.md, every page under docs/), so the pages stay true.

The convention, for anyone writing a page:

- ` ```bash ` and ` ```python ` blocks run; ` ```console ` blocks (and any other language) are shown, not run:
  use them for what needs the real data, a long run, a GPU or a cluster.
- A page's blocks run in order in one scratch directory of their own, which holds tiny data in the layout of the
  real data (``data/corpora/<source>/en-xx.tsv``, ``data/prepared/en-xx/{train,valid,test}.tsv``) and the user
  file the pages name (``my-pairs.tsv``). Where a page names real data, the tiny data stands in for it.
- A bash block runs line by line (each line one ``bash -c``: no line continuations). Training commands
  (``lingualite quickstart / train / distill``) get ``--smoke --max-steps 3``; a Python ``smoke=True`` gets
  ``max_steps=3`` beside it. Their other options run as written.
- The port 8765 of a page is replaced by a free one, so two test runs on one machine do not collide.
- A ``lingualite serve`` line runs as a user runs it in a terminal: in the foreground (the runner starts it in
  the background, waits until it answers, and stops it when the page is done), or already backgrounded with
  ``&`` as written. Its port is given with ``--port 8765``.
- Every call to a local server (``localhost:PORT``, ``127.0.0.1:PORT``) goes to a port a server example
  starts (``--port``, or the default): in the same block, or, in a block that starts none, in an earlier
  block of the page. :func:`port_problems` checks it on every block, shown ones included.

(This module has a name without ``test_``: test files import it, pytest does not collect it.)
"""

from __future__ import annotations

import json
import os
import random
import re
import shlex
import shutil
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", flags=re.S | re.M)
RUNS = ("bash", "python")
TRAINING = ("quickstart", "train", "distill")
PORT = "8765"
# Pseudo-words: "translations" are word by word (what the text says does not matter here).
# the last words are real ones, which the pages' examples send to a trained model (a text none of whose tokens a
# model knows is refused)
EN = [f"w{j}" for j in range(16)] + ["Hello", "world"]
FR = [f"mot{j}" for j in range(16)] + ["Bonjour", "monde"]
DE = [f"wort{j}" for j in range(16)] + ["Hallo", "Welt"]
SOURCES = ("libreoffice", "bible", "ddtp")
# Every letter as a word and inside one, in the training pairs: the pages send real sentences to the models
# trained here, and a text none of whose tokens a model knows is refused, as a user's would be.
_LETTERS = "abcdefghijklmnopqrstuvwxyzàâçéèêëîïôùûüäöß"
ALPHABET = [
    f"{' '.join(_LETTERS + _LETTERS.upper())} {_LETTERS} {_LETTERS.upper()} . , ! ? ' -\t"
    f"{' '.join(_LETTERS + _LETTERS.upper())} {_LETTERS} {_LETTERS.upper()} . , ! ? ' -\tlo:alphabet-{i}\n"
    for i in range(3)
]
PREFIX = {"libreoffice": "lo", "bible": "bible", "ddtp": "ddtp"}


def blocks(text: str) -> list[tuple[str, str]]:
    """Every fenced block of a Markdown text: (language, body), in order."""
    return BLOCK.findall(text)


def runnable(text: str) -> list[tuple[str, str]]:
    return [(kind, body) for kind, body in blocks(text) if kind in RUNS]


def _pairs(words: list[str], source: str, n_docs: int, rng: random.Random) -> list[str]:
    lines = []
    for d in range(n_docs):
        topic = rng.sample(range(len(EN)), 6)
        for _ in range(rng.randint(3, 6)):
            idx = [rng.choice(topic) for _ in range(rng.randint(3, 8))]
            en, xx = " ".join(EN[j] for j in idx), " ".join(words[j] for j in idx)
            lines.append(f"{en}\t{xx}\t{PREFIX[source]}:{source}-{d}\n")
    return lines


def make_world(root: Path) -> Path:
    """Tiny corpora, prepared pairs and the pages' user files under ``root``."""
    rng = random.Random(0)
    # the languages the shipped configs read: the quickstart's fr, de, ru, zh; the monolingual config's zh, fr,
    # es, de; the others' es, it
    for lang, words in (("fr", FR), ("de", DE), ("es", FR), ("it", FR), ("ru", DE), ("zh", FR)):
        prepared = root / "data" / "prepared" / f"en-{lang}"
        prepared.mkdir(parents=True)
        inputs = []
        for source in SOURCES:
            corpus = root / "data" / "corpora" / source / f"en-{lang}.tsv"
            corpus.parent.mkdir(parents=True, exist_ok=True)
            lines = _pairs(words, source, 40, rng)
            corpus.write_text("".join(lines), encoding="utf-8")
            inputs.append({"input": str(corpus)})
            cut = len(lines) * 8 // 10
            with (prepared / "train.tsv").open("a", encoding="utf-8") as fh:
                fh.writelines(lines[:cut])
            with (prepared / "valid.tsv").open("a", encoding="utf-8") as fh:
                fh.writelines(lines[cut : cut + (len(lines) - cut) // 2])
            with (prepared / "test.tsv").open("a", encoding="utf-8") as fh:
                fh.writelines(lines[cut + (len(lines) - cut) // 2 :])
        with (prepared / "train.tsv").open("a", encoding="utf-8") as fh:
            fh.writelines(ALPHABET)
        (prepared / "stats.json").write_text(json.dumps({"inputs": inputs}))
        # what the shipped distill configs read beside (`lingualite data fetch --for distill`): UI strings and
        # game text in their own folders, untranslated text and word lists
        for folder in ("prepared-ui", "prepared-games"):
            shutil.copytree(prepared, root / "data" / folder / f"en-{lang}")
        for source in ("monolingual", "lexicon"):
            text = root / "data" / "corpora" / source / f"{lang}.txt"
            text.parent.mkdir(parents=True, exist_ok=True)
            text.write_text("".join(line.split("\t")[1] + "\n" for line in lines[:40]), encoding="utf-8")
            english = text.with_name("en.txt")
            english.write_text("".join(line.split("\t")[0] + "\n" for line in lines[:40]), encoding="utf-8")
    (root / "my-pairs.tsv").write_text("".join(_pairs(DE, "bible", 120, rng)), encoding="utf-8")
    return root


def env() -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if k != "LINGUALITE_DATA_DIR"}
    return {
        **base,
        "PATH": f"{BIN}{os.pathsep}{base['PATH']}",
        "HF_HUB_OFFLINE": "1",
        "PYTHONPATH": str(ROOT / "src"),
    }


def free_port() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return str(s.getsockname()[1])


def as_tested(line: str, smoke: bool = True) -> str:
    """A command line as the test runs it: training capped to 3 steps (and ``--smoke`` unless ``smoke`` is
    False); anything else unchanged."""
    words = shlex.split(line)
    if words[:1] == ["lingualite"] and len(words) > 1 and words[1] in TRAINING:
        return f"{line} --max-steps 3" + ("" if "--smoke" in words or not smoke else " --smoke")
    return line


def python_as_tested(body: str) -> str:
    return body.replace("smoke=True)", "smoke=True, max_steps=3)")


SERVER = re.compile(r"\b(lingualite|mkdocs) serve\b")
CALL = re.compile(r"(?:localhost|127\.0\.0\.1|\[::1\]):(\d+)")


def _default_port() -> str:
    import inspect

    from lingualite.cli.serve_commands import serve_command

    return str(inspect.signature(serve_command).parameters["port"].default)


def started_port(line: str) -> str | None:
    """The port a server example's line starts (its ``--port``, or the default), or None for another line."""
    found = SERVER.search(line)
    if found is None:
        return None
    given = re.search(r"--port[ =](\d+)", line)
    if given:
        return given.group(1)
    if found.group(1) == "mkdocs":
        given = re.search(r"(?:-a|--dev-addr)[ =]\S*:(\d+)", line)
        return given.group(1) if given else "8000"
    return _default_port()


def port_problems(text: str) -> list[str]:
    """Calls to a local port no server example of the page starts (see the module's convention)."""
    problems: list[str] = []
    earlier: set[str] = set()
    for _, body in blocks(text):
        lines = body.splitlines()
        here = {p for line in lines if (p := started_port(line)) is not None}
        reachable = here or earlier
        for line in lines:
            if started_port(line) is not None:
                continue
            for port in CALL.findall(line):
                if port not in reachable:
                    served = ", ".join(sorted(reachable)) or "none"
                    problems.append(
                        f"calls port {port}, but the server example starts {served}: {line.strip()}"
                    )
        earlier |= here
    return problems


def start_server(command: str, cwd: Path, port: str) -> subprocess.Popen:
    """A foreground ``lingualite serve`` line, started in the background until it answers on ``port``."""
    log = (cwd / f"serve-{port}.log").open("w")
    proc = subprocess.Popen(
        ["bash", "-c", f"exec {command}"], cwd=cwd, env=env(), stdout=log, stderr=subprocess.STDOUT
    )
    for _ in range(600):
        if proc.poll() is not None:
            break
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", int(port))) == 0:
                return proc
        import time

        time.sleep(0.2)
    proc.kill()
    proc.wait()
    raise AssertionError(
        f"{command}: the server did not start\n{(cwd / f'serve-{port}.log').read_text()[-3000:]}"
    )


def run_line(command: str, cwd: Path) -> None:
    proc = subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=env(), capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, f"{command}\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"


def run_python(body: str, cwd: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", python_as_tested(body)],
        cwd=cwd,
        env=env(),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, f"{body}\n{proc.stderr[-3000:]}"


def run_blocks(text: str, cwd: Path) -> int:
    """Run the page's bash and python blocks in order in ``cwd``; returns how many ran."""
    problems = port_problems(text)
    assert problems == [], "\n".join(problems)
    port = free_port() if PORT in text else PORT
    ran = 0
    servers: list[subprocess.Popen] = []
    try:
        for kind, body in runnable(text.replace(PORT, port)):
            ran += 1
            if kind == "python":
                run_python(body, cwd)
                continue
            for line in body.splitlines():
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                if SERVER.search(line) and not re.search(r"&(?!&)", line):  # foreground, as in a terminal
                    served = started_port(line)
                    assert served == port, f"give a server example --port {PORT}: {line}"
                    servers.append(start_server(line, cwd, served))
                else:
                    run_line(as_tested(line), cwd)
    finally:
        for proc in servers:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    return ran
