CREATE CONSTRAINT analytics_snapshot_key IF NOT EXISTS
FOR (a:AnalyticsSnapshot) REQUIRE a.campaign IS UNIQUE
