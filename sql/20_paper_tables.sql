-- Paper-shaped tables over the leaderboard asset and its side tables (ForeSci Table 2, A7, A10,
-- §5.2 drift effects) and method ratings. Means and bootstrap 95% intervals are computed in
-- Python (assets/release/report.py: tasks resampled 1,000 times, seed 0; seeds averaged per task
-- first) and stored in the leaderboard Parquet; these views select and shape them.
-- NULL = not computed (LLM-only metrics without a judge model) or not applicable (Trace of a
-- method without a support artifact).

-- Table 2 shape: method x backbone x metric, over all task families.
CREATE OR REPLACE VIEW paper_table2 AS
SELECT domain, cutoff, method, backbone, n_answers, n_tasks,
       fact, fact_lo, fact_hi, fta, fta_lo, fta_hi, trace, trace_lo, trace_hi, pers, pers_lo, pers_hi,
       fact_precision, fact_recall, trace_linkage, mean_pers_std, mean_trace_std, repeats, judge_model, prompt_version
FROM leaderboard WHERE family = 'all'
ORDER BY domain, cutoff, backbone, method;

-- Table A7 shape: family x method x backbone x metric.
CREATE OR REPLACE VIEW paper_table_a7 AS
SELECT domain, cutoff, family, method, backbone, n_answers, n_tasks,
       fact, fact_lo, fact_hi, fta, fta_lo, fta_hi, trace, trace_lo, trace_hi, pers, pers_lo, pers_hi,
       trace_linkage, repeats, judge_model
FROM leaderboard WHERE family <> 'all'
ORDER BY domain, cutoff, family, backbone, method;

-- Table 2 as printed: one cell per metric, "mean [lo, hi]", '–' where null.
CREATE OR REPLACE VIEW paper_table2_text AS
SELECT domain, cutoff, method, backbone,
       coalesce(printf('%.3f [%.2f, %.2f]', fact, fact_lo, fact_hi), '–') AS "Fact",
       coalesce(printf('%.3f [%.2f, %.2f]', fta, fta_lo, fta_hi), '–') AS "FTA",
       coalesce(printf('%.3f [%.2f, %.2f]', trace, trace_lo, trace_hi), '–') AS "Trace",
       coalesce(printf('%.3f [%.2f, %.2f]', pers, pers_lo, pers_hi), '–') AS "Pers"
FROM leaderboard WHERE family = 'all'
ORDER BY domain, cutoff, backbone, method;

-- Table A10 shape: bottom-20% low-score rates by family and by method.
CREATE OR REPLACE VIEW paper_table_a10 AS
SELECT * FROM {{public.leaderboard_low_scores}} ORDER BY domain, cutoff;

-- §5.2 / Figure 3b / A7: normalised effect of severe drift on each metric (empty without a judge model).
CREATE OR REPLACE VIEW drift_effects AS
SELECT * FROM {{public.leaderboard_drift}} ORDER BY domain, cutoff;

-- Bradley-Terry and Elo ratings of systems from pairwise comparisons (per comparison source).
CREATE OR REPLACE VIEW method_ratings AS
SELECT * FROM {{public.leaderboard_ratings}} ORDER BY domain, cutoff;

-- Per-task pairwise comparisons (metric:fta offline; llm with position swap when a judge is configured).
CREATE OR REPLACE VIEW judge_pairwise AS
SELECT * EXCLUDE (record_json) FROM {{public.judge_pairwise}};

-- Judge cost accounting per partition and method: calls and prompt characters per judged answer.
CREATE OR REPLACE VIEW judge_cost AS
SELECT domain, cutoff, method, judge_model, prompt_version, count(*) AS answers,
       avg(judge_calls) AS calls_per_answer, max(judge_calls) AS max_calls,
       avg(judge_prompt_chars) AS prompt_chars_per_answer, max(judge_prompt_chars) AS max_prompt_chars
FROM judge_scores WHERE judge_model IS NOT NULL
GROUP BY ALL ORDER BY domain, cutoff, method;
