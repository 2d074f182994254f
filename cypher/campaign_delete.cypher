MATCH (n)
WHERE n.campaign = $campaign
  AND (n:Source OR n:Entity OR n:Chunk OR n:Change OR n:ChangeSet OR n:CommunitySummary
       OR n:AnalyticsSnapshot OR n:ExtractionCache OR n:GmDecision)
WITH n LIMIT $batch
DETACH DELETE n
