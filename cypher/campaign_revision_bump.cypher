// Every write transaction that changes the world (entities, relations, chunks, sources,
// analytics, caches: anything but the changelog) ends with this: readers compare the
// revisions with the ones their cached views were built at, so a write by another process
// invalidates them too. The node outlives a campaign delete, so a re-created campaign never
// reuses an old revision.
MERGE (r:CampaignRevision {campaign: $campaign})
SET r.revision = coalesce(r.revision, 0) + 1, r.world = coalesce(r.world, 0) + 1
