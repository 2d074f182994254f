DROP VECTOR INDEX FOR (n:CommunitySummary) ON (n.embedding)
