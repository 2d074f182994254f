MATCH (r:CampaignRevision {campaign: $campaign})
RETURN r.revision AS revision
