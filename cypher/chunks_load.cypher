MATCH (c:Chunk {campaign: $campaign})
RETURN c.id AS id, c.source_path AS source_path, c.start AS start, c.end AS end_offset,
       c.text AS text, c.content_hash AS content_hash, c.heading AS heading,
       c.visibility AS visibility, c.mentions AS mentions, c.subject AS subject,
       c.session AS session, c.page AS page
ORDER BY source_path, start, id
