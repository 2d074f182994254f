SHOW INDEXES YIELD labelsOrTypes, type
WHERE size(labelsOrTypes) > 0
RETURN labelsOrTypes[0] AS label, type
