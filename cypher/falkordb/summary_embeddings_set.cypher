UNWIND $rows AS row
MATCH (s:CommunitySummary {campaign: $campaign, id: row.id})
SET s.embedding = NULL
WITH s, row
SET s.embedding = vecf32(row.embedding)
