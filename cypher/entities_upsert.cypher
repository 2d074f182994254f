UNWIND $rows AS row
MERGE (e:Entity {campaign: $campaign, id: row.id})
SET e += row.props
