// A write transaction that only appends to the changelog (change sets and their changes:
// post, withdraw) ends with this: the campaign revision moves, the world revision does not,
// so what depends only on the world (entities, relations, chunks, analytics) stays valid.
MERGE (r:CampaignRevision {campaign: $campaign})
SET r.revision = coalesce(r.revision, 0) + 1
