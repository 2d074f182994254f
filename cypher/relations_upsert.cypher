UNWIND $rows AS row
MATCH (a:Entity {campaign: $campaign, id: row.source})
MATCH (b:Entity {campaign: $campaign, id: row.target})
MERGE (a)-[r:RELATED {campaign: $campaign, type: row.type}]->(b)
SET r += row.props
