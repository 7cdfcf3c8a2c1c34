// Bundle the CLI (and the importable sandbox) with esbuild.
// - dist/cli.cjs: the process entry (src/entry.ts), CommonJS, tiny: `--version` and help to a pipe or a
//   file are answered there, without loading the CLI (see docs/performance.md).
// - dist/main-<hash>.cjs: the CLI proper (src/run.ts), one CommonJS script that the entry compiles with
//   V8's code cache (dist/main-<hash>.cjs.cache, made here by running one command). Modules that a
//   command does not need (other command groups, the server, prompts, tables) are bundled as lazy
//   initialisers, evaluated on first use.
// - dist/jq-worker.cjs: the thread `--jq` runs jq in (src/cli/jq-worker.cjs as it is), started only for --jq.
// - dist/server.js: the sandbox as a library (`docsctl/server`), ES modules.
// - dist/cpu-worker.cjs: the sandbox's worker thread (src/server/worker/entry.ts), CommonJS, loaded by
//   the sandbox (either bundle) from beside itself when it first has a page or document to read.
// - dist/manifest.json (the command tree as data) and dist/help.json (help texts), made by running the
//   built code.
// - dist/api-operations.json: the official API document's operations as a compact table (src/commands/api-table.ts),
//   read only by `docsctl api OPERATION_ID` and `docsctl api --operations`.
// Every file is written to a temporary name and renamed, and old bundles are left in place
// (`npm run clean` removes them), so a build never breaks a docsctl process that is running.
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
const define = { __VERSION__: JSON.stringify(pkg.version) };

/**
 * commander requires node:child_process (and with it net and streams) at load, for executable
 * subcommands, which docsctl does not have: load it on first use instead.
 */
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^node:child_process$/ }, (args) =>
      /[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'lazy' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({
      contents: "module.exports = { get spawn() { return require('node:child_process').spawn; } };",
      loader: 'js',
    }));
  },
};

/**
 * zod's namespace re-exports its error messages in every language (~400 KB); docsctl uses English
 * only (zod's default), so the bundle keeps that one, as `locales.en`.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer) ? { path: join(dirname(args.importer), '../locales'), namespace: 'zod-en' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-en' }, (args) => ({ contents: "export { default as en } from './en.js';", loader: 'js', resolveDir: args.path }));
  },
};

/**
 * undici (the client's dispatcher) requires HTTP/2 (and with it TLS) at load, for servers that
 * negotiate h2, and bundles its fetch body helpers for FormData bodies: the first loads on first
 * use, the second from node_modules when needed (the client sends strings and buffers).
 */
const undiciOnDemand = {
  name: 'undici-on-demand',
  setup(b) {
    b.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) =>
      /undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/.test(args.importer)
        ? { path: join(dirname(args.importer), 'client-h2.js'), namespace: 'lazy-h2' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-h2' }, (args) => ({
      contents: `module.exports = function connectH2(client, socket) { return require(${JSON.stringify(args.path)})(client, socket); };`,
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
    // node:http (~10 ms to load) is required only to recognise its IncomingMessage among streams to
    // destroy (one that exists means node:http is loaded already) and for its default header size.
    b.onLoad({ filter: /undici[\\/]lib[\\/](core[\\/]util|dispatcher[\\/]client)\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const rewrites = args.path.endsWith('util.js')
        ? [
            [
              "const { IncomingMessage } = require('node:http')",
              "const isIncomingMessage = (s) => Object.getPrototypeOf(s).constructor.name === 'IncomingMessage' && Object.getPrototypeOf(s).constructor === require('node:http').IncomingMessage",
            ],
            ['Object.getPrototypeOf(stream).constructor === IncomingMessage', 'isIncomingMessage(stream)'],
          ]
        : [
            ["const http = require('node:http')", "const http = { get maxHeaderSize () { return require('node:http').maxHeaderSize } }"],
            [
              'const getDefaultNodeMaxHeaderSize = http &&\n  http.maxHeaderSize &&\n  Number.isInteger(http.maxHeaderSize) &&\n  http.maxHeaderSize > 0\n  ? () => http.maxHeaderSize\n',
              'const getDefaultNodeMaxHeaderSize = true\n  ? () => http.maxHeaderSize\n',
            ],
          ];
      let out = text;
      for (const [from, to] of rewrites) {
        if (!out.includes(from)) throw new Error(`undici-on-demand: ${args.path} no longer has ${JSON.stringify(from)}; update scripts/build.mjs`);
        out = out.replace(from, to);
      }
      return { contents: out, loader: 'js' };
    });
    b.onResolve({ filter: /^\.\.\/web\/fetch\/body\.js$/ }, (args) =>
      /undici[\\/]lib[\\/]dispatcher[\\/]client-h1\.js$/.test(args.importer) ? { path: 'undici/lib/web/fetch/body.js', external: true } : undefined,
    );
  },
};

// The sandbox as a library, and the manifest builder run below: ES modules, code-split.
const esm = await build({
  entryPoints: { server: 'src/server/index.ts', 'manifest-build': 'src/manifest-build.ts', 'api-table': 'src/commands/api-table.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  define,
  plugins: [zodEnglishOnly],
  // better-sqlite3 (serve --data) loads its native part from beside itself: it stays in node_modules.
  external: ['better-sqlite3'],
  // Some dependencies are CommonJS and call require() for Node's built-ins.
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  legalComments: 'none',
  logLevel: 'warning',
  write: false,
});

/** A CommonJS script of dist/ (`<name>.cjs`), bundled. */
const cjsScript = {
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
  write: false,
};

// The sandbox's worker thread: one CommonJS script that both the library and the CLI start.
const worker = await build({ ...cjsScript, entryPoints: { 'cpu-worker': 'src/server/worker/entry.ts' }, minifyWhitespace: true });

// The CLI proper: one CommonJS script (V8 caches the code of a script, not of ES modules, on Node 20).
// Without comments and indentation it is a third smaller to read at each start; names are kept.
const main = await build({
  entryPoints: ['src/run.ts'],
  outfile: 'dist/main.cjs',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // The sandbox finds its worker script from __filename here (src/server/worker/pool.ts).
  define: { ...define, 'import.meta.url': 'undefined' },
  plugins: [lazyChildProcess, zodEnglishOnly, undiciOnDemand],
  // jq (WebAssembly) stays in node_modules: it reads its .wasm beside itself, and loads only for --jq;
  // better-sqlite3 likewise (its native part), loaded only by serve --data.
  external: ['jq-wasm', 'better-sqlite3'],
  minifyWhitespace: true,
  charset: 'ascii',
  legalComments: 'none',
  logLevel: 'warning',
  write: false,
});
const mainCode = main.outputFiles[0].contents;
const mainName = `main-${createHash('sha256').update(mainCode).digest('hex').slice(0, 16)}.cjs`;
const nonAscii = mainCode.findIndex((byte) => byte > 0x7f);
if (nonAscii >= 0) console.warn(`build: dist/${mainName} is not ASCII at byte ${nonAscii}; it will be read as UTF-8, slower (see src/entry.ts)`);

const cjs = await build({ ...cjsScript, entryPoints: { cli: 'src/entry.ts' }, define: { ...define, __MAIN__: JSON.stringify(mainName) } });

// Chunks first, entry points last: an entry never points at a chunk that is not there yet.
const files = [...worker.outputFiles, ...esm.outputFiles].sort((a, b) => Number(!a.path.includes('/chunks/')) - Number(!b.path.includes('/chunks/')));
for (const file of files) await writeAtomic(file.path, file.contents);
const dist = new URL('../dist/', import.meta.url).pathname;
await writeAtomic(join(dist, mainName), mainCode);
// The CLI starts it as `${__dirname}/jq-worker.cjs` (src/cli/jq.ts).
await writeAtomic(join(dist, 'jq-worker.cjs'), await readFile(new URL('../src/cli/jq-worker.cjs', import.meta.url)));

// The command manifest: help, parsing, completions and docs come from it without loading commands.
const { buildManifest, helpTexts } = await import(`../dist/manifest-build.js?${Date.now()}`);
const manifest = await buildManifest(pkg.version);
await writeAtomic(join(dist, 'manifest.json'), JSON.stringify(manifest));
await writeAtomic(join(dist, 'help.json'), JSON.stringify(await helpTexts(manifest)));
// The official document's operations, for `docsctl api` (never bundled: 2 MB, and a dev dependency).
const { operationTable } = await import(`../dist/api-table.js?${Date.now()}`);
const official = (file) => readFile(new URL(`../node_modules/@gitbook/api/${file}`, import.meta.url), 'utf8').then(JSON.parse);
const table = operationTable(await official('spec/openapi.json'), (await official('package.json')).version);
await writeAtomic(join(dist, 'api-operations.json'), JSON.stringify(table));
for (const file of cjs.outputFiles) await writeAtomic(file.path, file.contents);
await makeCodeCache();
await removeOldMains();

/**
 * The code cache of dist/main-<hash>.cjs: made by the entry when it finds none, at the exit of a run,
 * so it holds the code of a typical command (`spaces get`, one request to a sandbox on 127.0.0.1),
 * not only the top level. A run under another Node version or other V8 flags remakes it.
 */
async function makeCodeCache() {
  const cacheFile = join(dist, `${mainName}.cache`);
  await rm(cacheFile, { force: true });
  const { startServer } = await import(`../dist/server.js?${Date.now()}`);
  const server = await startServer({ host: '127.0.0.1', port: 0 });
  const home = await mkdtemp(join(tmpdir(), 'docsctl-build-'));
  try {
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      XDG_CONFIG_HOME: home,
      DOCSCTL_API_URL: server.url,
      DOCSCTL_TOKEN: server.token,
      DOCSCTL_ORG: server.organizationId,
    };
    // spawnSync would block the server's event loop here: run the command asynchronously.
    const code = await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [join(dist, 'cli.cjs'), 'spaces', 'get', 'sp-welcome', '--json'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
      child.on('error', reject).on('exit', resolve);
    });
    if (code !== 0) throw new Error(`build: the run that makes the code cache failed (exit ${code})`);
  } finally {
    await server.close();
    await rm(home, { recursive: true, force: true });
  }
  await readFile(cacheFile).catch(() => {
    throw new Error(`build: no code cache was made (${cacheFile})`);
  });
}

/** Earlier builds' CLI bundles and caches, once no process can be about to read them (a minute on). */
async function removeOldMains() {
  for (const name of await readdir(dist)) {
    if (!/^main(-[0-9a-f]+\.cjs(\.cache)?|\.js)$/.test(name) || name.startsWith(mainName)) continue;
    const path = join(dist, name);
    if (Date.now() - (await stat(path)).mtimeMs > 60_000) await rm(path, { force: true });
  }
}

async function writeAtomic(path, contents) {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, contents);
  await rename(tmp, path);
}
