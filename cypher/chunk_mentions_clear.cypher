UNWIND $ids AS id
MATCH (:Chunk {campaign: $campaign, id: id})-[m:MENTIONS {campaign: $campaign}]->(:Entity {campaign: $campaign})
DELETE m
