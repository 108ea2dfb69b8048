"""Building venue tasks: offered families, projects, their support packets and questions."""

from __future__ import annotations

import numpy as np

from assets.corpus.logic import paper_text
from assets.toolbox.building import TaskBuilder
from core.text import word_set

SUPPORT_NEIGHBOURS = 20  # support packet: the project's nearest pre-cutoff papers (embedding cosine)


def _support_finder(builder: TaskBuilder, papers: list, embed):
    """paper -> its SUPPORT_NEIGHBOURS nearest pre-cutoff papers: by embedding cosine over title and
    abstract, or without an embedder by the Jaccard of their content words (ties by arXiv id)."""
    pool = [p for p in papers if getattr(p, "label", "") != "excluded"]
    if embed is not None and pool:
        vecs = np.asarray(embed([paper_text(p) for p in pool]), dtype=np.float32)
        row = {p.arxiv_id: i for i, p in enumerate(pool)}

        def nearest(paper) -> list[str]:
            v = vecs[row[paper.arxiv_id]] if paper.arxiv_id in row else np.asarray(embed([paper_text(paper)]))[0]
            order = np.argsort(-(vecs @ v), kind="stable")
            return [pool[j].arxiv_id for j in order if pool[j].arxiv_id != paper.arxiv_id][:SUPPORT_NEIGHBOURS]

        return nearest
    words = {p.arxiv_id: word_set(paper_text(p)) for p in pool}

    def lexical(paper) -> list[str]:
        mine = word_set(paper_text(paper))
        score = {i: len(mine & w) / len(mine | w) for i, w in words.items() if i != paper.arxiv_id and mine | w}
        return [i for i in sorted(score, key=lambda i: (-score[i], i)) if score[i] > 0][:SUPPORT_NEIGHBOURS]

    return lexical
