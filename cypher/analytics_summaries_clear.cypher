MATCH (s:CommunitySummary {campaign: $campaign})
DETACH DELETE s
