CREATE VECTOR INDEX FOR (e:Entity) ON (e.embedding)
OPTIONS {dimension: $dimension, similarityFunction: 'cosine', efRuntime: 100}
