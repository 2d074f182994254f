// `>= ''` holds for every name and makes FalkorDB read the index: on FalkorDB 4.16.3 a plain
// scan of an indexed label returns deleted nodes once the graph holds some 16k nodes.
MATCH (m:Migration)
WHERE m.name >= ''
RETURN m.name AS name
