CREATE INDEX FOR (c:Chunk) ON (c.campaign, c.id)
