MATCH (s:Source) RETURN DISTINCT s.campaign AS campaign
UNION
MATCH (e:Entity) RETURN DISTINCT e.campaign AS campaign
UNION
MATCH (c:Chunk) RETURN DISTINCT c.campaign AS campaign
UNION
MATCH (cs:ChangeSet) RETURN DISTINCT cs.campaign AS campaign
UNION
MATCH (a:AnalyticsSnapshot) RETURN DISTINCT a.campaign AS campaign
UNION
MATCH (d:GmDecision) RETURN DISTINCT d.campaign AS campaign
UNION
MATCH (x:ExtractionCache) RETURN DISTINCT x.campaign AS campaign
