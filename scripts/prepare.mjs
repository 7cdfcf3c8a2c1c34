// The `prepare` script, which `npm ci` and `npm install` run: builds dist/ (scripts/build.mjs, about
// two seconds, offline), so that `node bin/docsctl.js` works right after the install. Where the
// build tools are not installed (`npm ci --omit=dev`) it builds nothing and says so: dist/ then has
// to come from a build elsewhere (a packed docsctl holds it).
import { createRequire } from 'node:module';

try {
  createRequire(import.meta.url).resolve('esbuild');
} catch {
  console.warn('docsctl: dist/ not built (esbuild is not installed, e.g. npm ci --omit=dev); run npm run build where the dev dependencies are');
  process.exit(0);
}
await import('./build.mjs');
