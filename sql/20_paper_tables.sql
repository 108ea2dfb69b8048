-- Paper-shaped tables over the leaderboard asset and its side tables (ForeSci Table 2, A7, A10,
-- §5.2 drift effects), method ratings and the pairwise method comparisons. Means, BCa bootstrap
-- 95% intervals (scipy.stats.bootstrap over tasks, 9,999 resamples, seed 0; seeds averaged per
-- task first; no interval for one task) and minimum detectable differences (MDD, 80% power,
-- two-sided 5%) are computed in Python (assets/leaderboard/statistics.py, core/statistics.py) and
-- stored in the leaderboard Parquet; these views select and shape them.
-- NULL = not computed (LLM-only metrics without a judge model) or not applicable (Trace of a
-- method without a support artifact).

-- Table 2 shape: method x backbone x metric, over all task families.
CREATE OR REPLACE VIEW paper_table2 AS
SELECT domain, cutoff, method, backbone, n_answers, n_tasks,
       fact, fact_lo, fact_hi, fta, fta_lo, fta_hi, trace, trace_lo, trace_hi, pers, pers_lo, pers_hi,
       fact_precision, fact_recall, trace_linkage, mean_pers_std, mean_trace_std, repeats,
       -- judge model, prompt version and, in partitions built since they exist, the FTA MDD and its sd
       COLUMNS('^(judge_model|prompt_version|fta_mdd|mdd_sd|mdd_sd_source)$')
FROM leaderboard WHERE family = 'all'
ORDER BY domain, cutoff, backbone, method;

-- Table A7 shape: family x method x backbone x metric.
CREATE OR REPLACE VIEW paper_table_a7 AS
SELECT domain, cutoff, family, method, backbone, n_answers, n_tasks,
       fact, fact_lo, fact_hi, fta, fta_lo, fta_hi, trace, trace_lo, trace_hi, pers, pers_lo, pers_hi,
       trace_linkage, repeats, COLUMNS('^(judge_model|fta_mdd|mdd_sd|mdd_sd_source)$')
FROM leaderboard WHERE family <> 'all'
ORDER BY domain, cutoff, family, backbone, method;

-- Table 2 as printed: one cell per metric, "mean [lo, hi]" ("mean" alone for one task), '–' where null.
CREATE OR REPLACE VIEW paper_table2_text AS
SELECT domain, cutoff, method, backbone,
       coalesce(printf('%.3f [%.2f, %.2f]', fact, fact_lo, fact_hi), printf('%.3f', fact), '–') AS "Fact",
       coalesce(printf('%.3f [%.2f, %.2f]', fta, fta_lo, fta_hi), printf('%.3f', fta), '–') AS "FTA",
       coalesce(printf('%.3f [%.2f, %.2f]', trace, trace_lo, trace_hi), printf('%.3f', trace), '–') AS "Trace",
       coalesce(printf('%.3f [%.2f, %.2f]', pers, pers_lo, pers_hi), printf('%.3f', pers), '–') AS "Pers"
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

-- Every two systems (method@backbone) of a family on the tasks both answered, per headline metric:
-- mean difference a - b with its bootstrap 95% interval, exact paired sign-flip p (Holm-adjusted
-- over the family's pairs), MDD and the verdict: 'differs' (>= 6 tasks, p_holm < 0.05 and
-- |diff| >= mdd; `better` names the better system) or 'cannot tell'.
CREATE OR REPLACE VIEW leaderboard_pairwise AS
SELECT * FROM {{public.leaderboard_pairwise}} ORDER BY domain, cutoff, metric, family, system_a, system_b;

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
