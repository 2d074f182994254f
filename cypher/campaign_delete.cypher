MATCH (n)
WHERE n.campaign = $campaign
DETACH DELETE n
