CREATE INDEX FOR (m:Migration) ON (m.name)
