// `>= ''` holds for every campaign and makes FalkorDB read the index: on FalkorDB 4.16.3 a
// plain scan of an indexed label returns deleted nodes once the graph holds some 16k nodes.
MATCH (s:Source) WHERE s.campaign >= '' RETURN DISTINCT s.campaign AS campaign
UNION
MATCH (e:Entity) WHERE e.campaign >= '' RETURN DISTINCT e.campaign AS campaign
UNION
MATCH (c:Chunk) WHERE c.campaign >= '' RETURN DISTINCT c.campaign AS campaign
UNION
MATCH (cs:ChangeSet) WHERE cs.campaign >= '' RETURN DISTINCT cs.campaign AS campaign
UNION
MATCH (a:AnalyticsSnapshot) WHERE a.campaign >= '' RETURN DISTINCT a.campaign AS campaign
UNION
MATCH (d:GmDecision) WHERE d.campaign >= '' RETURN DISTINCT d.campaign AS campaign
UNION
MATCH (x:ExtractionCache) WHERE x.campaign >= '' RETURN DISTINCT x.campaign AS campaign
