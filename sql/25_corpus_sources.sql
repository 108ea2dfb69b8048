-- Corpus sources (issue 3): monthly volume, full text, Semantic Scholar metadata, dedup links.
CREATE OR REPLACE VIEW corpus_volume AS SELECT * EXCLUDE (record_json) FROM {{public.corpus_volume}};
CREATE OR REPLACE VIEW paper_fulltext AS SELECT * EXCLUDE (record_json) FROM {{public.paper_fulltext}};
CREATE OR REPLACE VIEW paper_metadata AS SELECT * EXCLUDE (record_json) FROM {{public.paper_metadata}};
CREATE OR REPLACE VIEW corpus_duplicates AS SELECT * EXCLUDE (record_json) FROM {{public.corpus_snapshot_duplicates}};
CREATE OR REPLACE VIEW fulltext_failures AS SELECT * EXCLUDE (record_json) FROM {{public.paper_fulltext_failures}};
CREATE OR REPLACE VIEW paper_metadata_failures AS SELECT * EXCLUDE (record_json) FROM {{public.paper_metadata_failures}};
-- Values observed after a partition's cutoff (hidden: audit / gold only).
CREATE OR REPLACE VIEW hidden_paper_metadata_observed AS SELECT * EXCLUDE (record_json) FROM {{hidden.paper_metadata_observed}};
-- Papers per month normalised by the corpus's own volume, per domain and cutoff.
CREATE OR REPLACE VIEW corpus_volume_share AS
SELECT domain, cutoff, month, total, relevant,
       relevant::DOUBLE / NULLIF(sum(relevant) OVER (PARTITION BY domain, cutoff), 0) AS relevant_share
FROM corpus_volume;
