MATCH (s:Source {campaign: $campaign})
RETURN s.path AS path, s.sha256 AS sha256, s.kind AS kind, s.chunk_count AS chunk_count,
       coalesce(s.extractor, '') AS extractor
ORDER BY path
