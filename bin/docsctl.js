#!/usr/bin/env node
// CommonJS (see bin/package.json): the fast paths of dist/cli.cjs start without the ES module loader.
try {
  require('../dist/cli.cjs');
} catch (err) {
  // Not built (`npm ci --ignore-scripts`, `npm run clean`): say what to run rather than show a stack.
  const { existsSync } = require('node:fs');
  const { join, resolve } = require('node:path');
  if (err?.code !== 'MODULE_NOT_FOUND' || existsSync(join(__dirname, '../dist/cli.cjs'))) throw err;
  process.stderr.write(
    `error: docsctl is not built: ${resolve(__dirname, '../dist/cli.cjs')} is missing\nhint: run npm run build in ${resolve(__dirname, '..')} (npm ci and npm install build it too)\n`,
  );
  process.exitCode = 1;
}
