CREATE INDEX community_summary_key IF NOT EXISTS
FOR (s:CommunitySummary) ON (s.campaign, s.id)
