UNWIND $paths AS path
MATCH (s:Source {campaign: $campaign, path: path})
DETACH DELETE s
