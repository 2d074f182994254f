MATCH (r:CampaignRevision {campaign: $campaign})
RETURN coalesce(r.world, 0) AS world
