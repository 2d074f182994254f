UNWIND $rows AS row
MATCH (c:Chunk {campaign: $campaign, id: row.id})
UNWIND row.mentions AS entity_id
MATCH (e:Entity {campaign: $campaign, id: entity_id})
MERGE (c)-[:MENTIONS {campaign: $campaign}]->(e)
