MATCH (node:Entity {campaign: $campaign})
WHERE node.embedding IS NOT NULL AND node.visibility IN $visibilities
WITH node, 1.0 - vec.cosineDistance(node.embedding, vecf32($vector)) AS similarity
RETURN node.id AS id, similarity
ORDER BY similarity DESC, id
LIMIT $k
