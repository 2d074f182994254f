UNWIND $rows AS row
MERGE (s:Source {campaign: $campaign, path: row.path})
SET s += row.props
