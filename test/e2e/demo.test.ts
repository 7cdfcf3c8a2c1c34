/**
 * `npm run demo` (scripts/demo.mjs): `-- --port N` chooses the sandbox's port, and at a terminal the
 * commands print what they print at a terminal (tables with headers), in a real pseudo-terminal.
 */
import { execa } from 'execa';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/cli.js';
import { HAS_TMUX, Terminal } from '../helpers/terminal.js';

const DEMO = resolve(import.meta.dirname, '../../scripts/demo.mjs');
let term: Terminal | undefined;
afterEach(() => term?.close());

describe('npm run demo', () => {
  it.skipIf(!HAS_TMUX)(
    'runs on the port given, and shows the terminal’s tables at a terminal',
    async () => {
      const port = await freePort();
      term = Terminal.run(`node '${DEMO}' --port ${port}; echo "[exit $?]"; sleep 60`, { HOME: '/nonexistent' });
      expect(await term.exitCode(120_000)).toBe(0);
      const shown = term.history();
      expect(shown).toContain(`sandbox running at http://127.0.0.1:${port} (organization org-acme)`);
      // Tables with their headers (not TSV rows), as docsctl prints them at a terminal.
      expect(shown).toMatch(
        /^\$ docsctl auth status\nprofile +current +apiUrl +organization +user +state +tokenSource +token\ndefault +\* +http:\/\/127\.0\.0\.1:\d+ +org-acme /m,
      );
      expect(shown).toMatch(
        /^\$ docsctl spaces list --fields id,title,visibility\nid +title +visibility\nsp-welcome +Welcome +in-collection\n\S+ +Widget +in-collection\n/m,
      );
      expect(shown).not.toContain('\t');
      expect(shown).toContain('demo finished');
    },
    150_000,
  );

  it('refuses a --port that is not one, and says when the port is taken', async () => {
    const bad = await execa('node', [DEMO, '--port', 'abc'], { reject: false, stdin: 'ignore' });
    expect(bad.stderr).toBe(
      'error: --port: must be a whole number from 0 to 65535 (got "abc")\nusage: npm run demo [-- --port N]   (N from 0 to 65535; default 0, a free port)',
    );
    expect(bad.exitCode).toBe(2);
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const port = (taken.address() as { port: number }).port;
    try {
      const r = await execa('node', [DEMO, `--port=${port}`], { reject: false, stdin: 'ignore' });
      expect(r.stderr).toBe(
        `error: --port: ${port} is already in use\nhint: pick another with --port, or --port 0 for any free one\ndemo: the sandbox did not start (docsctl serve exited with 2)`,
      );
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe('');
    } finally {
      taken.close();
    }
  });
});
