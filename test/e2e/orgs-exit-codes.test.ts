/**
 * `orgs plan` exit codes (issue 23), as terraform plan's: 0 when it succeeds, whatever it found;
 * with --detailed-exitcode 0 nothing to do, 2 changes pending, 1 any failure. A broken invocation
 * (a bad file, a flag, the service) must never look like drift. main() in process for every case,
 * and as processes (what a CI job sees) for the command lines that matter most.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { AppDispatcher, sourceManifest, useSandbox } from '../helpers/inprocess.js';

const sb = useSandbox();
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'docsctl-plan-codes-'));
});

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** The default organization's collections, as a file: the same (clean), one changed, one broken. */
const CLEAN = 'version: 1\ncollections:\n  - title: Handbook\n    description: How we work\n';
const CHANGED = 'version: 1\ncollections:\n  - title: Handbook\n    description: How we work now\n';
const BAD = 'version: 1\ncollections:\n  - title: Handbook\n    colour: blue\n';

const failAll = (status: number) => sb.request('PUT', '/_sandbox/faults', { rules: [{ method: 'GET', path: '/v1/orgs/*/collections', status }] });

describe('orgs plan exit codes', () => {
  it('every case, with and without --detailed-exitcode, in text and JSON: only a plan with changes and the flag exits 2', async () => {
    const clean = file('clean.yaml', CLEAN);
    const changed = file('changed.yaml', CHANGED);
    const bad = file('bad.yaml', BAD);
    const cases: {
      what: string;
      args: string[];
      env?: Record<string, string | undefined>;
      setup?: () => Promise<unknown>;
      plain: number;
      detailed: number;
      plan?: boolean;
    }[] = [
      { what: 'no changes', args: ['-f', clean], plain: 0, detailed: 0, plan: true },
      { what: 'changes pending', args: ['-f', changed], plain: 0, detailed: 2, plan: true },
      { what: 'a bad file', args: ['-f', bad], plain: 2, detailed: 1 },
      { what: 'a file that is not there', args: ['-f', join(dir, 'missing.yaml')], plain: 2, detailed: 1 },
      { what: 'no file', args: [], plain: 2, detailed: 1 },
      { what: 'an unknown flag', args: ['-f', changed, '--prnue'], plain: 2, detailed: 1 },
      { what: 'a bad setting', args: ['-f', changed], env: { DOCSCTL_ORG_FILE_MAX_BYTES: 'lots' }, plain: 2, detailed: 1 },
      { what: 'not authenticated', args: ['-f', changed], env: { DOCSCTL_TOKEN: undefined }, plain: 3, detailed: 1 },
      { what: 'the service fails (500)', args: ['-f', changed], setup: () => failAll(500), plain: 1, detailed: 1 },
      { what: 'the service forbids it (403)', args: ['-f', changed], setup: () => failAll(403), plain: 5, detailed: 1 },
    ];
    const seen: string[] = [];
    for (const c of cases) {
      for (const [flags, code] of [
        [[], c.plain],
        [['--detailed-exitcode'], c.detailed],
      ] as const) {
        for (const json of [[], ['--json']]) {
          await c.setup?.();
          const args = ['orgs', 'plan', ...c.args, ...flags, ...json];
          const r = await sb.run(args, { ...(c.env ? { env: c.env } : {}) });
          seen.push(`${c.what} ${[...flags, ...json].join(' ')}: ${r.exitCode}`);
          expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(code);
          if (c.plan) {
            expect(r.stderr).toBe('');
            if (json.length) expect(JSON.parse(r.stdout).summary.update).toBe(c.what === 'no changes' ? 0 : 1);
            else
              expect(r.stdout).toContain(
                c.what === 'no changes' ? 'No changes: the organization is as the file says.' : 'Plan: 0 to create, 1 to update, 0 to move, 0 to delete.',
              );
          } else {
            expect(r.stdout).toBe('');
            if (json.length) expect(JSON.parse(r.stderr).error.exitCode).toBe(code);
            else expect(r.stderr).toMatch(/^error: /);
          }
          await sb.request('PUT', '/_sandbox/faults', { rules: [] });
        }
      }
    }
    expect(seen).toHaveLength(cases.length * 4);
    // The same codes from a process, as a CI job sees them.
    for (const [args, code] of [
      [['-f', changed], 0],
      [['-f', changed, '--detailed-exitcode'], 2],
      [['-f', bad, '--detailed-exitcode'], 1],
      [['-f', bad], 2],
    ] as const) {
      expect((await sb.process(['orgs', 'plan', ...args])).exitCode, args.join(' ')).toBe(code);
    }
  });

  it('a command line that only looks like it asks for --detailed-exitcode fails with 1 too: terraform’s -detailed-exitcode, a misspelling, a mistyped command', async () => {
    const changed = file('changed.yaml', CHANGED);
    const lines: [string[], string][] = [
      [['orgs', 'plan', '-f', changed, '-detailed-exitcode'], "unknown option '-detailed-exitcode' for 'docsctl orgs plan'. Did you mean --detailed-exitcode?"],
      [
        ['orgs', 'plan', '-f', changed, '--detailed-exit-code'],
        "unknown option '--detailed-exit-code' for 'docsctl orgs plan'. Did you mean --detailed-exitcode?",
      ],
      [['orgs', 'plan', '-f', changed, '--detailed-exitcodes'], "unknown option '--detailed-exitcodes'"],
      [['orgs', 'plna', '-f', changed, '--detailed-exitcode'], "unknown command 'plna' for 'docsctl orgs'. Did you mean plan?"],
      [['org', 'plan', '-f', changed, '--detailed-exitcode'], "unknown command 'org'"],
    ];
    for (const [args, message] of lines) {
      const r = await sb.process(args);
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`error: ${message}`);
    }
    // Other commands keep their codes: a flag apply does not take is a usage error (2).
    const apply = await sb.process(['orgs', 'apply', '-f', changed, '--yes', '--prnue']);
    expect(apply.exitCode).toBe(2);
  });

  it('apply that refuses without --yes is a usage error (2), and changes nothing; apply has no drift code', async () => {
    const changed = file('changed.yaml', CHANGED);
    const refused = await sb.process(['orgs', 'apply', '-f', changed]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('error: apply this change to organization org-acme? — refusing without confirmation');
    expect((await sb.request('GET', '/v1/collections/col-handbook')).body.description).toBe('How we work');
    const applied = await sb.process(['orgs', 'apply', '-f', changed, '--yes']);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect(applied.stderr).toMatch(/Applied: 1 change \(1 request\)\./);
    expect((await sb.process(['orgs', 'plan', '-f', changed, '--detailed-exitcode'])).exitCode).toBe(0);
  });

  it('changes pending exit 2 even when the reader of the plan has gone (| head with pipefail)', async () => {
    const changed = file('changed.yaml', CHANGED);
    const sink = () => Object.assign(new Writable({ write: (_c, _e, done) => done() }), { isTTY: false });
    const stdin = new PassThrough();
    stdin.end();
    for (const json of [[], ['--json']]) {
      const code = await main(
        ['orgs', 'plan', '-f', changed, '--detailed-exitcode', ...json],
        {
          stdout: sink(),
          stderr: sink(),
          stdin: Object.assign(stdin, { isTTY: false }),
          stdinIsTTY: false,
          env: { ...sb.env(), PATH: process.env.PATH ?? '' },
          stdoutClosed: () => true,
          dispatcher: new AppDispatcher(sb.server.app, new URL(sb.server.url).origin),
        },
        await sourceManifest(),
      );
      expect(code).toBe(2);
    }
  });
});
