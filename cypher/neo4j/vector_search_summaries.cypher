CALL db.index.vector.queryNodes('community_summary_embedding', $fetch, $vector)
YIELD node, score
WHERE node.campaign = $campaign AND node.visibility IN $visibilities
RETURN node.id AS id, 2.0 * score - 1.0 AS similarity
ORDER BY similarity DESC, id
LIMIT $k
