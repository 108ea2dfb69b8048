-- Analyst views over the asset views.

-- Leaderboard across partitions: family x method x domain, released tasks only.
CREATE OR REPLACE VIEW leaderboard_by_family_method_domain AS
SELECT s.domain, s.cutoff, s.family, s.method, s.backbone,
       count(*) AS n_answers,
       avg(s.fta) AS fta, avg(s.trace_linkage) AS trace_linkage,
       avg(s.fact) AS fact, avg(s.trace) AS trace, avg(s.pers) AS pers
FROM judge_scores s
JOIN task_ranking r ON r.task_id = s.task_id AND r.domain = s.domain AND r.cutoff = s.cutoff
WHERE r.released
GROUP BY ALL
ORDER BY s.domain, s.cutoff, s.family, fta DESC;

-- Method ranking over all released tasks of all partitions.
CREATE OR REPLACE VIEW leaderboard_overall AS
SELECT s.method, s.backbone, count(*) AS n_answers, avg(s.fta) AS fta, avg(s.trace_linkage) AS trace_linkage,
       avg(s.fact) AS fact, avg(s.pers) AS pers
FROM judge_scores s
JOIN task_ranking r ON r.task_id = s.task_id AND r.domain = s.domain AND r.cutoff = s.cutoff
WHERE r.released
GROUP BY ALL
ORDER BY fta DESC;

-- Corpus volume per month and domain: the normaliser behind every growth signal.
CREATE OR REPLACE VIEW corpus_monthly_volume AS
SELECT domain, cutoff, strftime(published, '%Y-%m') AS month, label, count(*) AS papers
FROM corpus_snapshot GROUP BY ALL ORDER BY domain, cutoff, month;

-- Released tasks with their Elo rating.
CREATE OR REPLACE VIEW released_tasks AS
SELECT t.domain, t.cutoff, t.task_id, t.family, t.title, r.elo, r.quality
FROM tasks t JOIN task_ranking r USING (domain, cutoff, task_id)
WHERE r.released ORDER BY t.domain, t.cutoff, t.family, r.elo DESC;
