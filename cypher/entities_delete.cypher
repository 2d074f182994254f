UNWIND $ids AS id
MATCH (e:Entity {campaign: $campaign, id: id})
DETACH DELETE e
