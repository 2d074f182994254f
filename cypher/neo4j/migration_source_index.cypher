CREATE CONSTRAINT source_key IF NOT EXISTS
FOR (s:Source) REQUIRE (s.campaign, s.path) IS UNIQUE
