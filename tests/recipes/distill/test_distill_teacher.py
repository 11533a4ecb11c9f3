"""Teacher vectors are encoded once: cached as .npy under a key of teacher + texts, resumable by chunk."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from lingualite.core.errors import LinguaLiteError
from lingualite.recipes.distill import teacher as teacher_module
from lingualite.recipes.distill.teacher import Teacher, cache_key, encode_cached, load_teacher

pytestmark = pytest.mark.slow  # trains a model: left out of the fast tier


class CountingTeacher:
    def __init__(self, fingerprint: str = "fake") -> None:
        self.calls: list[int] = []
        self.teacher = Teacher("fake", self.encode, fingerprint)

    def encode(self, texts: list[str]) -> np.ndarray:
        self.calls.append(len(texts))
        return np.array([[len(t), t.count("a"), 1.0] for t in texts], dtype=np.float32)


def test_second_call_reads_the_cache(tmp_path: Path) -> None:
    fake = CountingTeacher()
    texts = [f"sentence {'a' * i}" for i in range(10)]
    first = encode_cached(fake.teacher, texts, tmp_path)
    second = encode_cached(fake.teacher, texts, tmp_path)
    np.testing.assert_array_equal(first, second)
    assert fake.calls == [10]
    assert len(list(tmp_path.rglob("*.npz"))) == 1


def test_a_swapped_or_damaged_cache_is_encoded_again(tmp_path: Path) -> None:
    fake = CountingTeacher()
    one, two = [f"one {i}" for i in range(4)], [f"two {i}" for i in range(4)]
    first, second = encode_cached(fake.teacher, one, tmp_path), encode_cached(fake.teacher, two, tmp_path)
    a, b = (tmp_path / cache_key(fake.teacher, t) / "vectors.npz" for t in (one, two))
    data_a, data_b = a.read_bytes(), b.read_bytes()
    a.write_bytes(data_b), b.write_bytes(data_a)  # same row count: the old check (rows only) accepted this
    np.testing.assert_array_equal(encode_cached(fake.teacher, one, tmp_path), first)
    a.write_bytes(b"torn")
    np.testing.assert_array_equal(encode_cached(fake.teacher, one, tmp_path), first)
    np.testing.assert_array_equal(encode_cached(fake.teacher, two, tmp_path), second)
    # the swapped file's rows are found by their texts' digests (they came with them), the torn one's not
    assert fake.calls == [4, 4, 4]


def test_a_list_that_overlaps_a_cached_one_encodes_only_its_new_texts(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(teacher_module, "CHUNK", 3)
    fake = CountingTeacher()
    first = [f"s{i} {'a' * i}" for i in range(10)]
    encode_cached(fake.teacher, first, tmp_path)
    second = ["new one", first[7], first[2], "new two", first[2], first[9]]  # another order, a repeat
    vectors = encode_cached(fake.teacher, second, tmp_path)
    assert fake.calls == [3, 3, 3, 1, 2]  # the ten in chunks of three, then only the two new texts
    np.testing.assert_array_equal(vectors, CountingTeacher().encode(second))
    # one file per list: the new texts' own entry was folded into the second list's file
    assert sorted(p.parent.name for p in tmp_path.glob("*/vectors.npz")) == sorted(
        cache_key(fake.teacher, t) for t in (first, second)
    )
    np.testing.assert_array_equal(encode_cached(fake.teacher, second, tmp_path), vectors)
    assert fake.calls == [3, 3, 3, 1, 2]
    other = CountingTeacher("another teacher")
    encode_cached(other.teacher, second, tmp_path)  # another teacher's vectors are never taken
    assert other.calls == [3, 3]


def test_a_cache_written_before_digests_is_given_them_when_read(tmp_path: Path) -> None:
    fake = CountingTeacher()
    first = [f"s{i}" for i in range(5)]
    encode_cached(fake.teacher, first, tmp_path)
    final = tmp_path / cache_key(fake.teacher, first) / "vectors.npz"
    with np.load(final) as data:
        vectors, key = data["vectors"], data["key"]
    np.savez(final, vectors=vectors, key=key)  # the old format: no digests
    encode_cached(fake.teacher, first[1:] + ["new"], tmp_path)
    assert fake.calls == [5, 5]  # nothing to match against
    encode_cached(fake.teacher, first, tmp_path)  # a hit: the file gets its digests
    with np.load(final) as data:
        assert "digests" in data.files
    encode_cached(fake.teacher, ["newer", *first], tmp_path)
    assert fake.calls == [5, 5, 1]


def test_an_interrupted_encoding_of_the_new_texts_resumes(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(teacher_module, "CHUNK", 2)
    first = [f"s{i}" for i in range(4)]
    encode_cached(CountingTeacher().teacher, first, tmp_path)
    second = first + [f"t{i}" for i in range(5)]
    failing = FailingTeacher(ok_calls=2)
    with pytest.raises(KeyboardInterrupt):
        encode_cached(failing.teacher, second, tmp_path)
    again = CountingTeacher()
    vectors = encode_cached(again.teacher, second, tmp_path)
    assert again.calls == [1]  # two chunks of the five new texts were kept
    np.testing.assert_array_equal(vectors, CountingTeacher().encode(second))


def test_key_depends_on_teacher_and_texts() -> None:
    a, b = CountingTeacher("one").teacher, CountingTeacher("two").teacher
    assert cache_key(a, ["x", "y"]) != cache_key(b, ["x", "y"])
    assert cache_key(a, ["x", "y"]) != cache_key(a, ["y", "x"])
    assert cache_key(a, ["xy"]) != cache_key(a, ["x", "y"])


class FailingTeacher(CountingTeacher):
    """Encodes ``ok_calls`` chunks, then is interrupted."""

    def __init__(self, ok_calls: int) -> None:
        super().__init__()
        self.ok_calls = ok_calls

    def encode(self, texts: list[str]) -> np.ndarray:
        if len(self.calls) == self.ok_calls:
            raise KeyboardInterrupt
        return super().encode(texts)


def test_interrupted_encoding_resumes_from_finished_chunks(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(teacher_module, "CHUNK", 4)
    texts = [f"s{i}" for i in range(10)]
    failing = FailingTeacher(ok_calls=2)
    with pytest.raises(KeyboardInterrupt):
        encode_cached(failing.teacher, texts, tmp_path)
    assert failing.calls == [4, 4]  # two chunks finished and kept
    again = CountingTeacher()
    vectors = encode_cached(again.teacher, texts, tmp_path)
    assert again.calls == [2] and vectors.shape == (10, 3)
    np.testing.assert_array_equal(vectors, CountingTeacher().encode(texts))


def test_teacher_from_a_folder_and_unknown_names(tiny_teacher: Path) -> None:
    teacher = load_teacher(str(tiny_teacher), max_seq_length=16)
    assert teacher.st_model is not None and teacher.st_model.max_seq_length == 16
    assert teacher.encode(["the cat"]).shape == (1, 32)
    assert "max_seq_length=16" in teacher.fingerprint
    with pytest.raises(LinguaLiteError, match="teacher.name"):
        load_teacher("no-such-teacher-anywhere")


def test_a_cpu_only_teacher_builds_its_cache_in_worker_processes(tmp_path: Path, monkeypatch) -> None:
    """use-m (numpy) encodes the missing chunks in a pool of one-thread processes (EncoderPool, by name);
    the cache is the same as one process would write."""
    monkeypatch.setattr(teacher_module, "CHUNK", 3)
    pools: list[tuple[str, int]] = []

    class FakePool:  # EncoderPool's interface; the chunks come back in order, like the real one
        def __init__(self, spec: str, workers: int, **options: object) -> None:
            pools.append((spec, workers))

        def __enter__(self) -> FakePool:
            return self

        def __exit__(self, *exc: object) -> None:
            return None

        def encode(self, pieces):
            for first, texts in pieces:
                yield first, CountingTeacher().encode(texts)

    import lingualite.encoding.workers as parallel_encode

    monkeypatch.setattr(parallel_encode, "EncoderPool", FakePool)
    texts = [f"s{i} {'a' * i}" for i in range(8)]
    one = CountingTeacher()
    pooled = Teacher("use-m", one.encode, "fake", workers=4)
    vectors = encode_cached(pooled, texts, tmp_path / "pool")
    assert pools == [("use-m", 3)] and one.calls == []  # 3 chunks of 3: three workers, none idle
    np.testing.assert_array_equal(vectors, CountingTeacher().encode(texts))
    np.testing.assert_array_equal(
        encode_cached(Teacher("x", one.encode, "fake"), texts, tmp_path / "one"), vectors
    )
    assert one.calls == [3, 3, 2]  # workers=1: this process, chunk by chunk, as before
    assert teacher_module.TEACHER_WORKERS["use-m"]() >= 1
