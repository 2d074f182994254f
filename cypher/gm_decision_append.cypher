MERGE (d:GmDecision {campaign: $campaign, seq: $seq})
ON CREATE SET d += $props
