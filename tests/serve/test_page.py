"""The search page in a real headless browser (Debian's chromium driven by playwright), offline."""

from __future__ import annotations

import shutil

import pytest
from serve_helpers import DOCS, HashEncoder, running

from lingualite.search import SearchIndex
from lingualite.serve.app import create_app
from lingualite.serve.settings import ServeSettings

playwright = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (dev extra)")
expect = playwright.expect  # waits without eval (the page's CSP forbids it)
CHROMIUM = shutil.which("chromium")
pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH (Debian package: chromium)"),
    pytest.mark.slow,  # a real browser against a real server: left out of the fast tier
]


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> tuple[SearchIndex, HashEncoder]:
    encoder = HashEncoder(dimension=64)
    folder = tmp_path_factory.mktemp("page-index") / "idx"
    return SearchIndex.build("hash-test", DOCS, folder, encoder=encoder, progress=False), encoder


def _offline_page(browser):  # any request that leaves the server fails the test
    page = browser.new_page()
    outside: list[str] = []
    page.on("request", lambda r: None if r.url.startswith("http://127.0.0.1") else outside.append(r.url))
    return page, outside


def test_type_a_query_and_see_ranked_results(browser, index: tuple[SearchIndex, HashEncoder]) -> None:
    idx, encoder = index
    with running(create_app(encoder, idx)) as url:
        page, outside = _offline_page(browser)
        page.goto(url + "/")
        expect(page.locator("#status")).to_contain_text("documents")
        assert "hash-test" in page.text_content("#status") and "8 documents" in page.text_content("#status")
        page.fill("#query", "Die aktuelle Seite drucken")
        page.fill("#k", "3")
        page.click("#go")
        page.wait_for_selector("li.hit >> nth=2")
        hits = page.locator("li.hit")
        assert hits.count() == 3
        assert page.locator(".rank").all_text_contents() == ["#1", "#2", "#3"]
        assert hits.nth(0).locator(".doc-id").text_content() == "de-print"
        assert hits.nth(0).locator(".text").text_content() == DOCS[1]["text"]
        scores = [float(s) for s in page.locator(".score").all_text_contents()]
        assert scores == sorted(scores, reverse=True)
        assert outside == []
        page.close()


def test_the_page_asks_for_the_api_key(browser, index: tuple[SearchIndex, HashEncoder]) -> None:
    idx, encoder = index
    with running(create_app(encoder, idx, ServeSettings(api_key="page-key"))) as url:
        page, _ = _offline_page(browser)
        page.goto(url + "/")
        page.wait_for_selector("#key", state="visible")  # /health said 401
        page.fill("#query", "Le chat dort")
        page.click("#go")
        expect(page.locator("#error")).to_contain_text("API key")
        page.fill("#key", "page-key")
        page.click("#go")
        page.wait_for_selector("li.hit")
        assert page.locator(".doc-id").first.text_content() == "fr-cat"
        page.close()


def test_the_page_says_when_no_index_is_loaded(browser) -> None:
    with running(create_app(HashEncoder())) as url:
        page, _ = _offline_page(browser)
        page.goto(url + "/")
        expect(page.locator("#status")).to_contain_text("no index")
        page.fill("#query", "anything")
        page.click("#go")
        expect(page.locator("#error")).to_contain_text("--index")
        page.close()
