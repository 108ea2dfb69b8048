"""The ScholarEval idea-review family (issue 14, part B): ScholarIdeas research plans,
reviewed for soundness and contribution against a knowledge base bound to each idea's
cutoff, scored by expert-rubric coverage and reference validity. See docs/idea_review.md.

A second benchmark with its own small API, not a copy of the release's stages:
`pipeline.py` (`build_idea_tasks`, `answer_idea_tasks`, `score_idea_answers`,
`run_idea_review`) over its own dataset, gold (the expert rubrics) and job (`idea_review_job`,
the `ideas` pseudo-domain). Its family has no builder or gold facet: it enters the family
registry (`family.register`) only while those functions run, so the release's stages never
see it; `assets/plugins.py` lists it (and its agents) with every `foresci families`.
`foresci demo-ideas` / `make demo-ideas` builds it."""
