CREATE INDEX FOR (d:GmDecision) ON (d.campaign, d.seq)
