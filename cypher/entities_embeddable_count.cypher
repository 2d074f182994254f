MATCH (e:Entity {campaign: $campaign})
WHERE e.visibility IN $visibilities AND e.embedding IS NOT NULL
RETURN count(e) AS n
