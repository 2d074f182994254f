CREATE INDEX FOR (x:ExtractionCache) ON (x.campaign, x.key)
