CREATE INDEX FOR (e:Entity) ON (e.campaign, e.id)
