/**
 * Prism's mock server, as `prism mock DOCUMENT` starts it: the operations Prism reads from the
 * document (prism-http), served by Prism's own HTTP server (prism-http-server) with the settings of
 * `prism mock` (requests validated against the document, security checked, static examples, CORS),
 * on 127.0.0.1:PORT. Started by harness.ts: `node mock-server.cjs DOCUMENT PORT [CACHE]`; prints
 * `Prism is listening on URL` when it is.
 *
 * CACHE: a file of the operations Prism read from this very document (harness.ts names it by the
 * document's hash). When it exists, the operations are read from it (v8's serialization: the same
 * objects, undefined fields and shared references included: util.isDeepStrictEqual holds) instead of
 * parsing the document again (getHttpOperationsFromSpec: ~7 s of CPU, against 0.4 s); when it does
 * not, the document is parsed and the operations written there (a temporary file renamed into place,
 * so that a reader never sees half of one).
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
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const v8 = require('node:v8');

// Prism's own packages, as the CLI (npm @stoplight/prism-cli, a devDependency) resolves them.
const prismRequire = createRequire(require.resolve('@stoplight/prism-cli/package.json'));
const { getHttpOperationsFromSpec } = prismRequire('@stoplight/prism-http');
const { createServer } = prismRequire('@stoplight/prism-http-server');
const { createLogger } = prismRequire('@stoplight/prism-core');

const [document, port, cache] = process.argv.slice(2);

/** The operations of the cache file, or undefined when there is none (or it cannot be read). */
function cached() {
  if (!cache) return undefined;
  try {
    return v8.deserialize(readFileSync(cache));
  } catch {
    return undefined;
  }
}

(async () => {
  let operations = cached();
  if (!operations) {
    operations = await getHttpOperationsFromSpec(document);
    if (cache) {
      const part = `${cache}.${process.pid}.part`;
      try {
        writeFileSync(part, v8.serialize(operations));
        renameSync(part, cache);
      } catch (err) {
        // (No cache then: the next run parses the document again.)
        process.stderr.write(`prism operations not cached in ${cache}: ${err.message}\n`);
      }
    }
  }
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
