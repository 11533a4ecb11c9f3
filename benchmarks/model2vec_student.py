"""model2vec's ``distill`` applied to a lingualite transformer student: the peer row of the static-tier table.

model2vec's distill extra pins transformers and tokenizers versions that conflict with lingualite's, so this
script runs in its own environment (torch pinned, so pip does not fetch CUDA wheels)::

    python3 -m venv /tmp/m2v && /tmp/m2v/bin/pip install torch==2.13.0
    echo torch==2.13.0 > /tmp/m2v-pin.txt
    /tmp/m2v/bin/pip install -c /tmp/m2v-pin.txt "model2vec[distill,quantization]>=0.10,<0.11"
    HF_HUB_OFFLINE=1 /tmp/m2v/bin/python benchmarks/model2vec_student.py \\
        --student runs/distill-usem --output runs/m2v-distill-usem

The output folder is a model2vec static model (``model.safetensors`` with one table + ``tokenizer.json``), used
as ``static:runs/m2v-distill-usem`` by lingualite's encode, eval and ``benchmarks/encode_speed.py``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--student", required=True, help="a sentence-transformers folder (the teacher here)")
    parser.add_argument("--output", required=True, help="new folder for the static model")
    parser.add_argument("--pca-dims", type=int, default=None, help="default: keep the student's width")
    args = parser.parse_args()
    out = Path(args.output)
    if out.exists():
        raise SystemExit(f"{out}: exists; choose a new --output")

    import model2vec
    from model2vec.distill import distill

    start = time.perf_counter()
    model = distill(model_name=args.student, pca_dims=args.pca_dims, device="cpu")
    seconds = time.perf_counter() - start
    model.save_pretrained(str(out))
    info = {"model2vec": model2vec.__version__, "student": args.student, "pca_dims": args.pca_dims}
    info |= {"seconds": round(seconds, 1), "rows": int(model.embedding.shape[0]), "dim": int(model.dim)}
    (out / "lingualite_distill_info.json").write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(info))


if __name__ == "__main__":
    main()
