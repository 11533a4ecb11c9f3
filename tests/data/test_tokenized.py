from __future__ import annotations

import numpy as np

from lingualite.data.tokenized import BucketedBatches, RaggedIds


def test_ragged_ids_round_trip_and_concat() -> None:
    a = RaggedIds.from_lists([[2, 5, 3], [2, 3]])
    b = RaggedIds.from_lists([[2, 7, 8, 9, 3]])
    both = RaggedIds.concat([a, b])
    assert len(both) == 3 and both.lengths().tolist() == [3, 2, 5]
    assert [both[i].tolist() for i in range(3)] == [[2, 5, 3], [2, 3], [2, 7, 8, 9, 3]]
    assert both.flat.dtype == np.int32


def test_batches_are_deterministic_full_and_within_one_group() -> None:
    lengths = np.arange(100) % 17
    groups = np.repeat([0, 1], 50)
    one = BucketedBatches(lengths, 8, seed=3, bucket_size=2, groups=groups)
    two = BucketedBatches(lengths, 8, seed=3, bucket_size=2, groups=groups)
    for step in range(30):  # crosses epoch boundaries
        batch = one.batch(step)
        assert len(batch) == 8 and len(set(groups[batch])) == 1
        assert np.array_equal(batch, two.batch(step))


def test_a_file_without_pairs_is_named(tmp_path) -> None:
    import pytest as _pytest

    from lingualite.core.errors import LinguaLiteError
    from lingualite.data.pairs import read_pairs

    empty = tmp_path / "en-fr" / "train.tsv"
    empty.parent.mkdir()
    empty.write_text("\n")
    with _pytest.raises(LinguaLiteError, match=r"train\.tsv: no sentence pairs"):
        read_pairs([empty])
