CREATE INDEX FOR (s:ChangeSet) ON (s.campaign, s.session_id)
