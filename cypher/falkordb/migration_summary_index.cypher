CREATE INDEX FOR (s:CommunitySummary) ON (s.campaign, s.id)
