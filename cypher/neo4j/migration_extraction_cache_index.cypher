CREATE CONSTRAINT extraction_cache_key IF NOT EXISTS
FOR (x:ExtractionCache) REQUIRE (x.campaign, x.key) IS UNIQUE
