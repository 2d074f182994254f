SHOW INDEXES YIELD name, type, entityType, labelsOrTypes, properties, state, owningConstraint, options
WHERE entityType = 'NODE' AND size(labelsOrTypes) > 0
RETURN name, type, labelsOrTypes[0] AS label, properties, state,
       owningConstraint IS NOT NULL AS constraint,
       options.indexConfig['vector.dimensions'] AS dimension
