CREATE INDEX FOR (s:Source) ON (s.campaign, s.path)
