MERGE (s:ChangeSet {campaign: $campaign, session_id: $session_id, revision: $revision})
ON CREATE SET s += $props
