UNWIND $rows AS row
MERGE (c:Change {campaign: $campaign, id: row.id})
ON CREATE SET c += row.props
