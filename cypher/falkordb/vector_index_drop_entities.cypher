DROP VECTOR INDEX FOR (n:Entity) ON (n.embedding)
