MATCH (s:CommunitySummary {campaign: $campaign})
WHERE s.visibility IN $visibilities AND s.embedding IS NOT NULL
RETURN count(s) AS n
