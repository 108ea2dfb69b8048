"""The ScholarEval idea-review family (issue 14, part B): ScholarIdeas research plans,
reviewed for soundness and contribution against a knowledge base bound to each idea's
cutoff, scored by expert-rubric coverage and reference validity. See docs/idea_review.md.

Opt-in: importing `assets.idea_review.family` registers the family; the default build
(`make demo`) never imports it. `foresci demo-ideas` / `make demo-ideas` builds it."""
