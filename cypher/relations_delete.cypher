UNWIND $rows AS row
MATCH (:Entity {campaign: $campaign, id: row.source})
      -[r:RELATED {campaign: $campaign, type: row.type}]->
      (:Entity {campaign: $campaign, id: row.target})
DELETE r
