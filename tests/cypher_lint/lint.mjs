// Lints Cypher statements with Neo4j's own linter (@neo4j-cypher/language-support).
// stdin: JSON [{name, query, params: {param: example value}}]
// stdout: JSON [{name, diagnostics: [{severity, message, line, character}]}]
// Severity follows the LSP: 1 error, 2 warning, 3 information, 4 hint.
import { lintCypherQuery, testData } from '@neo4j-cypher/language-support';

// The package's recorded signatures of Neo4j's built-in procedures and functions, so calls
// such as db.index.vector.queryNodes are checked for arity, argument and YIELD names.
const { procedures, functions } = testData.mockSchema;

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const statements = JSON.parse(Buffer.concat(chunks).toString('utf8'));

const results = statements.map(({ name, query, params }) => {
  const { diagnostics } = lintCypherQuery(query, { parameters: params, procedures, functions });
  return {
    name,
    diagnostics: diagnostics.map((d) => ({
      severity: d.severity,
      message: d.message,
      line: d.range.start.line + 1,
      character: d.range.start.character + 1,
    })),
  };
});
process.stdout.write(JSON.stringify(results));
