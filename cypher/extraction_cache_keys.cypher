MATCH (x:ExtractionCache {campaign: $campaign})
RETURN x.key AS key
ORDER BY key
