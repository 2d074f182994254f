CREATE CONSTRAINT gm_decision_key IF NOT EXISTS
FOR (d:GmDecision) REQUIRE (d.campaign, d.seq) IS UNIQUE
