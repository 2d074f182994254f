CREATE CONSTRAINT changeset_key IF NOT EXISTS
FOR (s:ChangeSet) REQUIRE (s.campaign, s.session_id, s.revision) IS UNIQUE
