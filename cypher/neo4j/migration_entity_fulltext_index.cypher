CREATE FULLTEXT INDEX entity_search_text IF NOT EXISTS
FOR (e:Entity) ON EACH [e.search_text]
