CALL db.indexes() YIELD label, types, options, status, entitytype
WHERE entitytype = 'NODE'
RETURN label, types, options, status
