// Bundle the CLI (and the importable sandbox) with esbuild.
// - dist/cli.cjs: the process entry (src/entry.ts), CommonJS, tiny: `--version` and help to a pipe or a
//   file are answered there, without the ES module loader (see docs/performance.md).
// - dist/main.js: the CLI proper (src/run.ts), ES modules with code splitting, so that each command
//   group, the server, undici, prompts and tables are chunks loaded only when used.
// - dist/manifest.json (the command tree as data) and dist/help.json (help texts), made by running the
//   built code.
// Every file is written to a temporary name and renamed, and old chunks are left in place
// (`npm run clean` removes them), so a build never breaks a docsctl process that is running.
import { build } from 'esbuild';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
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
    b.onResolve({ filter: /^node:child_process$/ }, (args) => (/[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'lazy' } : undefined));
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
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => (/[\\/]zod[\\/]/.test(args.importer) ? { path: join(dirname(args.importer), '../locales'), namespace: 'zod-en' } : undefined));
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
    b.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) => (/undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/.test(args.importer) ? { path: join(dirname(args.importer), 'client-h2.js'), namespace: 'lazy-h2' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'lazy-h2' }, (args) => ({
      contents: `module.exports = function connectH2(client, socket) { return require(${JSON.stringify(args.path)})(client, socket); };`,
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
    b.onResolve({ filter: /^\.\.\/web\/fetch\/body\.js$/ }, (args) => (/undici[\\/]lib[\\/]dispatcher[\\/]client-h1\.js$/.test(args.importer) ? { path: 'undici/lib/web/fetch/body.js', external: true } : undefined));
  },
};

const esm = await build({
  entryPoints: { main: 'src/run.ts', server: 'src/server/index.ts', 'manifest-build': 'src/manifest-build.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  define,
  plugins: [lazyChildProcess, zodEnglishOnly, undiciOnDemand],
  // Some dependencies are CommonJS and call require() for Node's built-ins.
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  legalComments: 'none',
  logLevel: 'warning',
  write: false,
});

const cjs = await build({
  entryPoints: { cli: 'src/entry.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  define,
  plugins: [{
    // `import('./main.js')` in src/entry.ts means dist/main.js at run time, not src/main.ts.
    name: 'runtime-main',
    setup(b) {
      b.onResolve({ filter: /^\.\/main\.js$/ }, (args) => (args.importer.endsWith('entry.ts') ? { path: './main.js', external: true } : undefined));
    },
  }],
  legalComments: 'none',
  logLevel: 'warning',
  write: false,
});

// Chunks first, entry points last: an entry never points at a chunk that is not there yet.
const files = [...esm.outputFiles].sort((a, b) => Number(!a.path.includes('/chunks/')) - Number(!b.path.includes('/chunks/')));
for (const file of files) await writeAtomic(file.path, file.contents);

// The command manifest: help, parsing, completions and docs come from it without loading commands.
const { buildManifest, helpTexts } = await import(`../dist/manifest-build.js?${Date.now()}`);
const manifest = await buildManifest(pkg.version);
await writeAtomic(new URL('../dist/manifest.json', import.meta.url).pathname, JSON.stringify(manifest));
await writeAtomic(new URL('../dist/help.json', import.meta.url).pathname, JSON.stringify(await helpTexts(manifest)));
for (const file of cjs.outputFiles) await writeAtomic(file.path, file.contents);

async function writeAtomic(path, contents) {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, contents);
  await rename(tmp, path);
}
