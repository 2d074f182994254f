MATCH (n:Entity)
WHERE n.embedding IS NOT NULL
RETURN n.embedding AS embedding
LIMIT 1
