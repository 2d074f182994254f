MATCH (c:Chunk {campaign: $campaign})
WHERE c.visibility IN $visibilities AND c.embedding IS NOT NULL
RETURN count(c) AS n
