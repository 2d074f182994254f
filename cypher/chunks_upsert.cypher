UNWIND $rows AS row
MERGE (c:Chunk {campaign: $campaign, id: row.id})
SET c += row.props
