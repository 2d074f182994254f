UNWIND $rows AS row
MATCH (s:CommunitySummary {campaign: $campaign, id: row.id})
CALL db.create.setNodeVectorProperty(s, 'embedding', row.embedding)
