MATCH (m:Migration)
RETURN m.name AS name
