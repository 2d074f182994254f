CREATE VECTOR INDEX FOR (s:CommunitySummary) ON (s.embedding)
OPTIONS {dimension: $dimension, similarityFunction: 'cosine', efRuntime: 100}
