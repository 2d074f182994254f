MERGE (a:AnalyticsSnapshot {campaign: $campaign})
SET a.snapshot_json = $snapshot_json, a.built_at = $built_at
