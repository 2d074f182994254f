MATCH (a:AnalyticsSnapshot {campaign: $campaign})
RETURN a.snapshot_json AS snapshot_json
