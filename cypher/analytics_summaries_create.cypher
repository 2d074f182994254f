UNWIND $rows AS row
CREATE (s:CommunitySummary {campaign: $campaign, id: row.id})
SET s += row.props
