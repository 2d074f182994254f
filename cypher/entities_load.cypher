MATCH (e:Entity {campaign: $campaign})
RETURN e.id AS id, e.name AS name, e.type AS type, e.aliases AS aliases,
       e.gm_aliases AS gm_aliases, e.status AS status, e.visibility AS visibility,
       e.description AS description, e.gm_notes AS gm_notes,
       e.attributes_json AS attributes_json, e.sources AS sources,
       e.profile_json AS profile_json
ORDER BY id
