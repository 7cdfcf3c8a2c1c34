// Bundle the CLI (and the importable sandbox) with esbuild. Code splitting keeps each command
// group, the server, undici, prompts and tables in chunks loaded only when used.
// Every file is written to a temporary name and renamed, and old chunks are left in place
// (`npm run clean` removes them), so a build never breaks a docsctl process that is running.
import { build } from 'esbuild';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
const result = await build({
  entryPoints: { main: 'src/entry.ts', server: 'src/server/index.ts', 'manifest-build': 'src/manifest-build.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  define: { __VERSION__: JSON.stringify(pkg.version) },
  // Some dependencies are CommonJS and call require() for Node's built-ins.
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  legalComments: 'none',
  logLevel: 'warning',
  write: false,
});
// Chunks first, entry points last: an entry never points at a chunk that is not there yet.
const files = [...result.outputFiles].sort((a, b) => Number(!a.path.includes('/chunks/')) - Number(!b.path.includes('/chunks/')));
for (const file of files) await writeAtomic(file.path, file.contents);

// The command manifest: help, parsing, completions and docs come from it without loading commands.
const { buildManifest } = await import(`../dist/manifest-build.js?${Date.now()}`);
const manifest = await buildManifest(pkg.version);
await writeAtomic(new URL('../dist/manifest.json', import.meta.url).pathname, JSON.stringify(manifest));

async function writeAtomic(path, contents) {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, contents);
  await rename(tmp, path);
}
