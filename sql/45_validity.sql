-- The validity gate's control answers and statistical control checks (assets/validity/;
-- docs/validity.md). The family rows themselves stay in the Parquet of `validity_report`
-- (`foresci validity`): a partition that released nothing writes that table without columns,
-- which a view cannot read.
CREATE OR REPLACE VIEW validity_controls AS SELECT * EXCLUDE (record_json) FROM {{public.validity_controls}};

-- One row per partition x family x no-judgement control: its mean FTA, the chance line, its mean
-- excess over chance (control - random per task), the lower end of the one-sided 95% bootstrap
-- interval of that excess, whether that lower end exceeds the margin, whether the family's checks
-- are gated in the partition (>= min_gated_tasks released tasks) and whether the check fails.
CREATE OR REPLACE VIEW validity_control_checks AS
SELECT * FROM {{public.validity_control_checks}} ORDER BY domain, cutoff, family, control;
