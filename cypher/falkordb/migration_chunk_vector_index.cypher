CREATE VECTOR INDEX FOR (c:Chunk) ON (c.embedding)
OPTIONS {dimension: $dimension, similarityFunction: 'cosine', efRuntime: 100}
