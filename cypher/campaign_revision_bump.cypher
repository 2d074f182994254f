// Every write transaction ends with this: readers compare the revision with the one their
// cached views were built at, so a write by another process invalidates them too. The node
// outlives a campaign delete, so a re-created campaign never reuses an old revision.
MERGE (r:CampaignRevision {campaign: $campaign})
SET r.revision = coalesce(r.revision, 0) + 1
