MATCH (c:Change {campaign: $campaign})
RETURN c.id AS id, c.session_id AS session_id, c.revision AS revision, c.seq AS seq,
       c.kind AS kind, c.entity_id AS entity_id, c.target_id AS target_id,
       c.relation_type AS relation_type, c.field AS field, c.old_value AS old_value,
       c.new_value AS new_value, c.details_json AS details_json,
       c.visibility AS visibility, c.source AS source
ORDER BY session_id, revision, seq
