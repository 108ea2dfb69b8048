"""The resources every asset may ask for, with their embedded defaults."""

from resources.corpus_source import CorpusSourceResource
from resources.embeddings import EmbeddingResource
from resources.lance import LanceResource
from resources.llm import LLMResource
from resources.storage import StorageResource


def default_resources() -> dict:
    """Embedded defaults: shipped corpus, local Parquet + DuckDB + LanceDB, offline LLM
    unless FORESCI_LLM_MODEL is set."""
    return {
        "storage": StorageResource(),
        "corpus_source": CorpusSourceResource(),
        "embeddings": EmbeddingResource(),
        "lance": LanceResource(),
        "llm": LLMResource(),
    }
