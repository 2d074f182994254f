CALL db.indexes() YIELD label, types
RETURN label, types
