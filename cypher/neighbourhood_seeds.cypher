MATCH (e:Entity {campaign: $campaign})
WHERE e.id IN $ids AND e.visibility IN $visibilities
RETURN e.id AS id
