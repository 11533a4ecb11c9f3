"""Cross-lingual search with a real store: documents in SQLite, vectors in FAISS (float, int8 or binary
with exact rescoring), queries in any language through a lingualite encoder.

    from lingualite.search import SearchIndex
    idx = SearchIndex.build("use-m", Path("docs.jsonl"), Path("idx"), quantization="int8")
    idx.search(["comment imprimer une page"], k=5)
"""

from lingualite.search.index import Hit, SearchIndex

__all__ = ["Hit", "SearchIndex"]
