CREATE CONSTRAINT change_key IF NOT EXISTS
FOR (c:Change) REQUIRE (c.campaign, c.id) IS UNIQUE
