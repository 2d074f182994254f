MATCH (d:GmDecision {campaign: $campaign})
RETURN d.seq AS seq, d.kind AS kind, d.subject AS subject, d.target AS target,
       d.names AS names, d.reason AS reason, d.decided_at AS decided_at,
       coalesce(d.subject_name, '') AS subject_name, coalesce(d.subject_type, '') AS subject_type,
       coalesce(d.target_name, '') AS target_name, coalesce(d.target_type, '') AS target_type
ORDER BY seq
