UNWIND $rows AS row
MATCH (c:Chunk {campaign: $campaign, id: row.id})
SET c.embedding = NULL
WITH c, row
SET c.embedding = vecf32(row.embedding)
