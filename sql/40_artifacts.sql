-- Xcientist-style answer artifacts (docs/xcientist.md): one view per artifact kind.
-- answer_artifacts: one row per answer (attribution completeness, chain outcome, drift counts).
CREATE OR REPLACE VIEW answer_artifacts AS SELECT * EXCLUDE (record_json) FROM {{public.answer_artifacts}};
-- evidence_tuples: (keywords, summary, insight, quote, paper_id) and whether the quote is verbatim pre-cutoff text.
CREATE OR REPLACE VIEW evidence_tuples AS SELECT * EXCLUDE (record_json) FROM {{public.evidence_tuples}};
-- chain_validations: pass / partial / blocked per claim and stage (evidence, mechanism, decision, claim, chain).
CREATE OR REPLACE VIEW chain_validations AS SELECT * EXCLUDE (record_json) FROM {{public.chain_validations}};
-- claim_drift: one row per detected drift (semantic, experimental, mechanistic) with its closest evidence.
CREATE OR REPLACE VIEW claim_drift AS SELECT * EXCLUDE (record_json) FROM {{public.claim_drift}};
-- The chain of every claim in one row: its stage outcomes side by side.
CREATE OR REPLACE VIEW claim_chains AS
SELECT domain, cutoff, answer_id, family, method, backbone, claim_index, any_value(claim) AS claim,
       max(outcome) FILTER (WHERE stage = 'evidence') AS evidence,
       max(outcome) FILTER (WHERE stage = 'mechanism') AS mechanism,
       max(outcome) FILTER (WHERE stage = 'decision') AS decision,
       max(outcome) FILTER (WHERE stage = 'claim') AS claim_check,
       max(outcome) FILTER (WHERE stage = 'chain') AS chain
FROM chain_validations
GROUP BY ALL;
