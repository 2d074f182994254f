MATCH (s:ChangeSet {campaign: $campaign})
RETURN s.session_id AS session_id, s.revision AS revision, s.content_hash AS content_hash,
       s.source AS source, s.posted_at AS posted_at, s.title AS title,
       s.change_count AS change_count
ORDER BY session_id, revision
