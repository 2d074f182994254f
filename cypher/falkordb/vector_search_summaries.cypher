CALL db.idx.vector.queryNodes('CommunitySummary', 'embedding', $fetch, vecf32($vector))
YIELD node, score
WHERE node.campaign = $campaign AND node.visibility IN $visibilities
RETURN node.id AS id, 1.0 - score AS similarity
ORDER BY similarity DESC, id
LIMIT $k
