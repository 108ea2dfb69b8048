-- One view per asset over its Parquet partitions (Hive columns `domain` and `cutoff`).
-- `{{public.X}}` / `{{hidden.X}}` are replaced by a read_parquet() over that asset's files.
CREATE OR REPLACE VIEW corpus_snapshot AS SELECT * EXCLUDE (record_json) FROM {{public.corpus_snapshot}};
CREATE OR REPLACE VIEW knowledge_base AS SELECT * FROM {{public.knowledge_base}};
CREATE OR REPLACE VIEW taxonomy AS SELECT * EXCLUDE (record_json) FROM {{public.taxonomy}};
CREATE OR REPLACE VIEW evidence_records AS SELECT * FROM {{public.evidence_records}};
-- `stats` (numbers per signal, e.g. growth) is nested, so only in record_json: exposed as a MAP.
CREATE OR REPLACE VIEW research_signals AS SELECT * EXCLUDE (record_json),
    CAST(json_extract(record_json, '$.stats') AS MAP(VARCHAR, DOUBLE)) AS stats FROM {{public.research_signals}};
CREATE OR REPLACE VIEW tasks AS SELECT * FROM {{public.tasks}};
CREATE OR REPLACE VIEW task_ranking AS SELECT * EXCLUDE (record_json) FROM {{public.task_ranking}};
CREATE OR REPLACE VIEW agent_answers AS SELECT * FROM {{public.agent_answers}};
-- score_values: the other registered scorers' values (Score.values as JSON, e.g. KAE's ksr, ACE's ace)
CREATE OR REPLACE VIEW judge_scores AS SELECT * EXCLUDE (record_json), json_extract(record_json, '$.values') AS score_values FROM {{public.judge_scores}};
CREATE OR REPLACE VIEW leaderboard AS SELECT * FROM {{public.leaderboard}};
CREATE OR REPLACE VIEW release_package AS SELECT * FROM {{public.release_package}};
-- Hidden assets: for evaluation and audit only, never part of a public release.
CREATE OR REPLACE VIEW hidden_future_window AS SELECT * EXCLUDE (record_json) FROM {{hidden.future_window}};
CREATE OR REPLACE VIEW hidden_gold_targets AS SELECT * FROM {{hidden.gold_targets}};
CREATE OR REPLACE VIEW hidden_audit_queue AS SELECT * FROM {{hidden.audit_queue}};
-- Failure rows recorded by any stage.
CREATE OR REPLACE VIEW corpus_failures AS SELECT * EXCLUDE (record_json) FROM {{public.corpus_snapshot_failures}};
CREATE OR REPLACE VIEW agent_failures AS SELECT * EXCLUDE (record_json) FROM {{public.agent_answers_failures}};
