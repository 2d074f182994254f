MATCH (a:Entity {campaign: $campaign})-[r:RELATED {campaign: $campaign}]->(b:Entity {campaign: $campaign})
RETURN a.id AS source, b.id AS target, r.type AS type, r.attitude AS attitude,
       r.visibility AS visibility, r.description AS description,
       r.source_path AS source_path, r.chunk_id AS chunk_id,
       r.evidence AS evidence
ORDER BY source, type, target
