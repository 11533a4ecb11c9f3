"""`lingualite index build|add|delete|info` and `lingualite search`, end to end through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from lingualite.cli.main import app

runner = CliRunner()


def _run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def test_build_search_add_delete_info(static_model: str, tmp_path: Path) -> None:
    src = tmp_path / "docs.tsv"
    src.write_text(
        "id\ttext\tlang\n"
        "cat\tthe big cat sleeps\ten\n"
        "car\ta red car runs quickly\ten\n"
        "help\topen the help window\ten\n",
        encoding="utf-8",
    )
    idx = tmp_path / "idx"
    done = _run("index", "build", "--model", static_model, "--input", src, "--output", idx,
                "--quantization", "int8", "--kind", "hnsw", "--json")  # fmt: skip
    assert done.exit_code == 0, done.output
    built = json.loads(done.stdout)
    assert built["documents"] == 3 and built["kind"] == "hnsw" and built["quantization"] == "int8"
    assert "index: 3 documents encoded (" in done.stderr  # plain progress lines, also in a log (not a tty)

    done = _run("search", "--index", idx, "le grand chat dort", "une voiture rouge", "-k", "2", "--json")
    assert done.exit_code == 0, done.output
    results = json.loads(done.stdout)["results"]
    assert [r["hits"][0]["doc_id"] for r in results] == ["cat", "car"]
    assert results[0]["hits"][0]["metadata"] == {"lang": "en"} and results[0]["hits"][0]["rank"] == 1

    more = tmp_path / "more.jsonl"
    more.write_text(json.dumps({"id": "page", "text": "print the page", "lang": "en"}) + "\n")
    done = _run("index", "add", "--index", idx, "--input", more, "--json")
    assert json.loads(done.stdout)["added"] == 1 and json.loads(done.stdout)["documents"] == 4

    done = _run("index", "delete", "--index", idx, "--id", "car", "--id", "nope", "--json")
    deleted = json.loads(done.stdout)
    assert (deleted["deleted"], deleted["not_found"], deleted["documents"]) == (1, 1, 3)

    done = _run("index", "info", "--index", idx, "--json")
    info = json.loads(done.stdout)
    assert info["documents"] == 3 and info["model_spec"].endswith("tiny")
    assert info["tombstones"] == 0  # 1 deleted of 4 in the HNSW graph: past 20%, so rebuilt

    done = _run("search", "--index", idx, "print the page")  # the table for people
    assert done.exit_code == 0 and "page" in done.output and "rank" in done.output


def test_errors_are_one_line(static_model: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": 1, "text": "the cat"}\n{oops}\n')
    done = _run("index", "build", "--model", static_model, "--input", bad, "--output", tmp_path / "idx")
    assert done.exit_code == 2
    assert done.output.strip().count("\n") == 0 and "bad.jsonl:2: not JSON" in done.output
    assert not (tmp_path / "idx").exists()

    done = _run("index", "build", "--model", static_model, "--input", bad, "--output", tmp_path / "idx",
                "--skip-bad", "--json")  # fmt: skip
    assert done.exit_code == 0 and json.loads(done.stdout)["skipped"] == 1

    done = _run("search", "--index", tmp_path, "the cat")
    assert done.exit_code == 2 and "not a lingualite search index" in done.output
    done = _run("index", "build", "--model", static_model, "--input", bad, "--output", tmp_path / "idx",
                "--quantization", "int4")  # fmt: skip
    assert done.exit_code == 2 and "unknown quantization 'int4'" in done.output


def _strict(text: str) -> object:
    from lingualite.core.strict_json import loads

    return loads(text)  # refuses NaN / Infinity, as a browser's JSON.parse does


def test_the_issue_cases_end_in_one_line(static_model: str, tmp_path: Path) -> None:
    src = tmp_path / "docs.jsonl"
    src.write_text('{"id": "a", "text": "the cat sleeps"}\n{"id": "b", "text": "\\ud800 a dog"}\n')
    done = _run("index", "build", "--model", "tfidf", "--input", src, "--output", tmp_path / "t")
    assert done.exit_code == 2 and done.output.strip().count("\n") == 0, done.output
    assert "tfidf: is fitted on all the texts" in done.output and not (tmp_path / "t").exists()

    done = _run("index", "build", "--model", static_model, "--input", src, "--output", tmp_path / "idx")
    assert done.exit_code == 2 and done.output.strip().count("\n") == 0, done.output
    assert "docs.jsonl:2: contains a lone surrogate (U+D800 at column 1)" in done.output

    done = _run("index", "build", "--model", static_model, "--input", src, "--output", tmp_path / "idx",
                "--skip-bad", "--json")  # fmt: skip
    assert done.exit_code == 0 and _strict(done.stdout)["skipped"] == 1

    done = _run("search", "--index", tmp_path / "idx", "the cat", "--json")
    assert done.exit_code == 0 and _strict(done.stdout)["results"][0]["hits"][0]["doc_id"] == "a"

    assert _run("index", "delete", "--index", tmp_path / "idx", "--id", "a").exit_code == 0
    done = _run("search", "--index", tmp_path / "idx", "the cat", "--json")
    assert done.exit_code == 2 and "holds no documents" in done.output and "index add" in done.output


def test_search_json_is_strict_json_even_for_an_older_index(static_model: str, tmp_path: Path) -> None:
    from lingualite.search.store import DocumentStore

    src = tmp_path / "docs.tsv"
    src.write_text("cat\tthe big cat sleeps\n")
    idx = tmp_path / "idx"
    assert _run("index", "build", "--model", static_model, "--input", src, "--output", idx).exit_code == 0
    store = DocumentStore(idx / "index.sqlite")  # what an older version wrote for {"score": float("nan")}
    store.db.execute("""UPDATE documents SET metadata = '{"score": NaN}'""")
    store.close()
    done = _run("search", "--index", idx, "the cat", "--json")
    assert done.exit_code == 0 and _strict(done.stdout)["results"][0]["hits"][0]["metadata"] == {
        "score": None
    }


def test_index_build_dimensions_is_recorded_and_used_by_search(static_model: str, tmp_path: Path) -> None:
    src = tmp_path / "docs.tsv"
    src.write_text("cat\tthe big cat sleeps\ncar\ta red car runs quickly\n", encoding="utf-8")
    idx = tmp_path / "idx"
    done = _run("index", "build", "--model", static_model, "--input", src, "--output", idx,
                "--dimensions", "16", "--json")  # fmt: skip
    assert done.exit_code == 0, done.output
    assert "warning: " in done.output and "not trained with matryoshka_dims" in done.output
    assert json.loads(done.output.splitlines()[-1])["dimension"] == 16
    done = _run("search", "--index", idx, "le grand chat dort", "-k", "1", "--json")
    assert json.loads(done.stdout)["results"][0]["hits"][0]["doc_id"] == "cat"
    done = _run("index", "info", "--index", idx, "--json")
    assert json.loads(done.stdout)["truncate_dim"] == 16
    done = _run("index", "build", "--model", static_model, "--input", src, "--output", tmp_path / "x",
                "--dimensions", "64")  # fmt: skip
    assert done.exit_code == 2 and "above the model's dimension (32)" in done.output


def test_queries_from_a_file_or_stdin(static_model: str, tmp_path: Path) -> None:
    """`search --queries FILE`: one query a line (blank lines skipped), results per query with its line
    number; `--queries -` reads them from standard input; a bad line is file:line (stdin: <stdin>:line)."""
    src = tmp_path / "docs.txt"
    src.write_text("the big cat sleeps\na red car runs quickly\nopen the help window\n", encoding="utf-8")
    idx = tmp_path / "idx"
    assert _run("index", "build", "--model", static_model, "--input", src, "--output", idx).exit_code == 0
    queries = tmp_path / "q.txt"
    queries.write_text("le grand chat dort\n\nune voiture rouge\n", encoding="utf-8")
    done = _run("search", "--index", idx, "--queries", queries, "-k", "1", "--json")
    assert done.exit_code == 0, done.output
    rows = json.loads(done.stdout)["results"]
    assert [(r["line"], r["query"], r["hits"][0]["doc_id"]) for r in rows] == [
        (1, "le grand chat dort", "1"),
        (3, "une voiture rouge", "2"),
    ]
    piped = runner.invoke(app, ["search", "--index", str(idx), "--queries", "-", "-k", "1", "--json"],
                          input=queries.read_text(encoding="utf-8"))  # fmt: skip
    assert piped.exit_code == 0 and json.loads(piped.output)["results"] == rows
    bad = runner.invoke(app, ["search", "--index", str(idx), "--queries", "-"], input=b"ok\n\xff\n")
    assert (
        bad.exit_code == 2
        and "<stdin>:2: invalid UTF-8" in bad.output
        and "lingualite-stdin" not in bad.output
    )
    done = _run("search", "--index", idx)
    assert done.exit_code == 2 and "give queries as arguments or --queries FILE" in done.output
