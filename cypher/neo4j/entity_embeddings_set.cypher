UNWIND $rows AS row
MATCH (e:Entity {campaign: $campaign, id: row.id})
CALL db.create.setNodeVectorProperty(e, 'embedding', row.embedding)
