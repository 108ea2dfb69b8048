"""The resources every asset may ask for, with their embedded defaults."""

import os

from resources.corpus_source import CorpusSourceResource
from resources.embeddings import EmbeddingResource
from resources.grobid import GrobidResource
from resources.lance import LanceResource
from resources.llm import LLMResource
from resources.semantic_scholar import SemanticScholarResource
from resources.storage import StorageResource


def default_resources() -> dict:
    """Embedded defaults: shipped corpus, local Parquet + DuckDB + LanceDB, offline LLM
    unless FORESCI_LLM_MODEL is set, offline judge unless FORESCI_JUDGE_MODEL is set."""
    return {
        "storage": StorageResource(),
        "corpus_source": CorpusSourceResource(),
        "embeddings": EmbeddingResource(),
        "lance": LanceResource(),
        "llm": LLMResource(),
        "grobid": GrobidResource(),
        "semantic_scholar": SemanticScholarResource(),
        # The judge is configured apart from the agents, so no model grades itself by accident.
        "judge_llm": LLMResource(
            model=os.environ.get("FORESCI_JUDGE_MODEL", ""), api_base=os.environ.get("FORESCI_JUDGE_API_BASE") or None
        ),
    }
