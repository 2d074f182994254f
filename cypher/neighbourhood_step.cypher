MATCH (a:Entity {campaign: $campaign})-[r:RELATED {campaign: $campaign}]-(b:Entity {campaign: $campaign})
WHERE a.id IN $ids AND r.visibility IN $visibilities AND b.visibility IN $visibilities
RETURN DISTINCT b.id AS id
