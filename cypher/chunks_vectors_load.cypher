MATCH (c:Chunk {campaign: $campaign})
WHERE c.embedding IS NOT NULL
RETURN c.id AS id, c.embedding AS embedding
ORDER BY id
