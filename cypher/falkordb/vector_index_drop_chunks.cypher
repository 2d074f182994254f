DROP VECTOR INDEX FOR (n:Chunk) ON (n.embedding)
