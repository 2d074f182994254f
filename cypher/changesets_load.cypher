// A withdrawal is a record of its own (withdraws and at_session set, no changes), and older records
// have no note.
MATCH (s:ChangeSet {campaign: $campaign})
RETURN s.session_id AS session_id, s.revision AS revision, s.content_hash AS content_hash,
       s.source AS source, s.posted_at AS posted_at, s.title AS title,
       s.change_count AS change_count, s.withdraws AS withdraws, s.at_session AS at_session,
       coalesce(s.note, '') AS note
ORDER BY session_id, revision
