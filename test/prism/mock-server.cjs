/**
 * Prism's mock server, as `prism mock DOCUMENT` starts it: the operations Prism reads from the
 * document (prism-http), served by Prism's own HTTP server (prism-http-server) with the settings of
 * `prism mock` (requests validated against the document, security checked, static examples, CORS),
 * on 127.0.0.1:PORT. Started by harness.ts: `node mock-server.cjs DOCUMENT PORT`; prints
 * `Prism is listening on URL` when it is.
 *
 * What `prism mock` does and this does not, none of which changes an answer:
 * - it reads the whole document a second time, for `x-json-schema-faker` options (the document has
 *   none): a third of its start;
 * - it validates its own answers against the document (validateResponse), for its log and an
 *   `sl-violations` header that the harness does not read (without --errors an answer stays what it
 *   is): compiling those validators made the first answer of an operation with rich text take
 *   seconds (`content show`, `cr content`);
 * - it logs every operation and request, each line parsed again by its CLI.
 */
'use strict';
const { createRequire } = require('node:module');

// Prism's own packages, as the CLI (npm @stoplight/prism-cli, a devDependency) resolves them.
const prismRequire = createRequire(require.resolve('@stoplight/prism-cli/package.json'));
const { getHttpOperationsFromSpec } = prismRequire('@stoplight/prism-http');
const { createServer } = prismRequire('@stoplight/prism-http-server');
const { createLogger } = prismRequire('@stoplight/prism-core');

const [document, port] = process.argv.slice(2);

(async () => {
  const operations = await getHttpOperationsFromSpec(document);
  if (operations.length === 0) throw new Error(`no operations in ${document}`);
  const logger = createLogger('CLI', { level: 'error' });
  const server = createServer(operations, {
    cors: true,
    components: { logger: logger.child({ name: 'HTTP SERVER' }) },
    config: {
      isProxy: false,
      validateRequest: true,
      validateResponse: false,
      checkSecurity: true,
      errors: false,
      upstreamProxy: undefined,
      mock: { dynamic: false, ignoreExamples: false, seed: null },
    },
  });
  const address = await server.listen(Number(port), '127.0.0.1');
  process.stdout.write(`Prism is listening on ${address}\n`);
})().catch((err) => {
  process.stderr.write(`${err?.stack ? err.stack : err}\n`);
  process.exit(1);
});
