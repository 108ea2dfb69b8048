"""One partition run in its own process, as `foresci materialize` does it: initialise the
instance at $DAGSTER_HOME (pipelines.instance), then materialize the graph over a small
corpus. Used by the concurrency tests; prints one JSON line with the outcome.

    python -m tests.ops.worker DOMAIN CUTOFF ROOT CORPUS_DIR
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path


def resources(root: Path, corpus_dir: Path) -> dict:
    from resources.corpus_source import CorpusSourceResource
    from resources.embeddings import EmbeddingResource
    from resources.grobid import GrobidResource
    from resources.lance import LanceResource
    from resources.llm import LLMResource
    from resources.semantic_scholar import SemanticScholarResource
    from resources.storage import StorageResource

    return {
        "storage": StorageResource(root=str(root / "warehouse"), duckdb_path=str(root / "foresci.duckdb")),
        "corpus_source": CorpusSourceResource(shipped_dir=str(corpus_dir)),
        "embeddings": EmbeddingResource(),
        "lance": LanceResource(uri=str(root / "lancedb")),
        "llm": LLMResource(model="", cache_dir=str(root / "llm_cache")),
        "judge_llm": LLMResource(model="", cache_dir=str(root / "llm_cache")),
        "grobid": GrobidResource(),
        "semantic_scholar": SemanticScholarResource(),
    }


def main(domain: str, cutoff: str, root: str, corpus_dir: str) -> dict:
    import dagster as dg

    from assets.partitions import partition_key
    from pipelines.definitions import ALL_ASSETS, ALL_CHECKS
    from pipelines.instance import init_instance

    start = time.time()
    instance, _ = init_instance([cutoff])
    result = dg.materialize(
        ALL_ASSETS + ALL_CHECKS,
        partition_key=partition_key(domain, cutoff),
        instance=instance,
        resources=resources(Path(root), Path(corpus_dir)),
        raise_on_error=False,
        run_config={"loggers": {"console": {"config": {"log_level": "WARNING"}}}},
    )
    failed = [ev.step_key for ev in result.all_events if ev.event_type_value == "STEP_FAILURE"]
    return {
        "domain": domain,
        "cutoff": cutoff,
        "success": result.success,
        "failed_steps": failed,
        "run_id": result.run_id,
        "seconds": round(time.time() - start, 1),
    }


if __name__ == "__main__":
    print(json.dumps(main(*sys.argv[1:5])), flush=True)
