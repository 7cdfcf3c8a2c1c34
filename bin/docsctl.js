#!/usr/bin/env node
// CommonJS (see bin/package.json): the fast paths of dist/cli.cjs start without the ES module loader.
require('../dist/cli.cjs');
