CREATE FULLTEXT INDEX FOR (e:Entity) ON (e.search_text)
