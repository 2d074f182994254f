UNWIND $rows AS row
MATCH (e:Entity {campaign: $campaign, id: row.id})
SET e.embedding = NULL
WITH e, row
SET e.embedding = vecf32(row.embedding)
