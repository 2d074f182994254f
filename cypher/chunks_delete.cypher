UNWIND $ids AS id
MATCH (c:Chunk {campaign: $campaign, id: id})
DETACH DELETE c
