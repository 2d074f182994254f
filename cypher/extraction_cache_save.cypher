UNWIND $rows AS row
MERGE (x:ExtractionCache {campaign: $campaign, key: row.key})
SET x.value = row.value
