MATCH (d:GmDecision {campaign: $campaign})
RETURN d.seq AS seq, d.kind AS kind, d.subject AS subject, d.target AS target,
       d.names AS names, d.reason AS reason, d.decided_at AS decided_at
ORDER BY seq
