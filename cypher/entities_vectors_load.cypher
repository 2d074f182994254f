MATCH (e:Entity {campaign: $campaign})
WHERE e.embedding IS NOT NULL
RETURN e.id AS id, e.embedding AS embedding
ORDER BY id
