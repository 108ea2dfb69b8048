-- Taxonomy stage (issue 4): failure side tables and node growth per dimension and slice.
CREATE OR REPLACE VIEW taxonomy_failures AS SELECT * EXCLUDE (record_json) FROM {{public.taxonomy_failures}};
CREATE OR REPLACE VIEW evidence_failures AS SELECT * EXCLUDE (record_json) FROM {{public.evidence_records_failures}};
CREATE OR REPLACE VIEW signal_failures AS SELECT * EXCLUDE (record_json) FROM {{public.research_signals_failures}};
CREATE OR REPLACE VIEW taxonomy_growth AS
SELECT domain, cutoff, dimension, created_slice,
       CASE WHEN created_slice LIKE '%-Q%'
            THEN make_date(CAST(left(created_slice, 4) AS INTEGER), 3 * CAST(right(created_slice, 1) AS INTEGER) - 2, 1)
            ELSE CAST(created_slice || '-01' AS DATE) END AS slice_start,
       created_by, count(*) AS nodes
FROM {{public.taxonomy}}
GROUP BY ALL
ORDER BY domain, cutoff, dimension, slice_start, created_by;
