UNWIND $rows AS row
MATCH (c:Chunk {campaign: $campaign, id: row.id})
CALL db.create.setNodeVectorProperty(c, 'embedding', row.embedding)
