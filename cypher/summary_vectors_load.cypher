MATCH (s:CommunitySummary {campaign: $campaign})
WHERE s.embedding IS NOT NULL
RETURN s.id AS id, s.embedding AS embedding
ORDER BY id
