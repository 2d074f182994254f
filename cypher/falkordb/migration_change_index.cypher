CREATE INDEX FOR (c:Change) ON (c.campaign, c.id)
