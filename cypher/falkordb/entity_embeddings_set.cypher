UNWIND $rows AS row
MATCH (e:Entity {campaign: $campaign, id: row.id})
SET e.embedding = vecf32(row.embedding)
