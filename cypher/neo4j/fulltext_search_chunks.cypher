CALL db.index.fulltext.queryNodes('chunk_text', $query)
YIELD node, score
WHERE node.campaign = $campaign AND node.visibility IN $visibilities
RETURN node.id AS id, score
ORDER BY score DESC, id
LIMIT $k
