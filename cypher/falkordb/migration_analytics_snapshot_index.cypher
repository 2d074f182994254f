CREATE INDEX FOR (a:AnalyticsSnapshot) ON (a.campaign)
