/** The sandbox under measurement: `docsctl serve --memory` in its own process, on 127.0.0.1. */
import { BIN, benchEnv, startServer } from './proc.mjs';

/** Start `docsctl serve --memory --port 0 --json` (plus `args`); resolves once it listens. */
export async function startSandbox(args = []) {
  const s = await startServer(process.execPath, [BIN, 'serve', '--memory', '--host', '127.0.0.1', '--port', '0', '--json', ...args]);
  return { ...s.info, pid: s.child.pid, stop: s.stop };
}

/** The environment of a docsctl run against `sandbox` as its admin. */
export function cliEnv(sandbox) {
  return benchEnv({ DOCSCTL_API_URL: sandbox.url, DOCSCTL_TOKEN: sandbox.token, DOCSCTL_ORG: sandbox.organizationId });
}
