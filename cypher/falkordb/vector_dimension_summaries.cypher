MATCH (n:CommunitySummary)
WHERE n.embedding IS NOT NULL
RETURN n.embedding AS embedding
LIMIT 1
