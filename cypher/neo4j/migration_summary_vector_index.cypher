CREATE VECTOR INDEX community_summary_embedding IF NOT EXISTS
FOR (s:CommunitySummary) ON (s.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}}
