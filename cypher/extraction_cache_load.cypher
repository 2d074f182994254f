MATCH (x:ExtractionCache {campaign: $campaign})
WHERE x.key IN $keys
RETURN x.key AS key, x.value AS value
