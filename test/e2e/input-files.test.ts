/**
 * What commands read from files and stdin is bounded (issue 22's follow-ups, docs/security.md,
 * "Input files"): `/dev/zero`, an endless FIFO or stdin end at DOCSCTL_MAX_INPUT_BYTES with exit 2
 * naming the flag, the file and the rule, and nothing is sent; `serve --seed` likewise within
 * DOCSCTL_MAX_SEED_BYTES; `saml --certificate-file` sends one certificate and nothing else.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { docsctl } from '../helpers/cli.js';
import { useSandbox } from '../helpers/inprocess.js';

const sb = useSandbox();
const PEM = readFileSync(resolve(import.meta.dirname, '../fixtures/saml-idp.pem'), 'utf8');
const PEM_2 = readFileSync(resolve(import.meta.dirname, '../fixtures/saml-idp-2.pem'), 'utf8');
const RULE = 'the most docsctl reads of an input file (DOCSCTL_MAX_INPUT_BYTES raises it)';
let dir: string;
const writers: ChildProcess[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'docsctl-input-'));
});
afterEach(() => {
  for (const w of writers.splice(0)) w.kill();
});

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** A FIFO whose writer (another process) writes without end until its reader goes. */
function endlessFifo(name: string): string {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  const writer = spawn('sh', ['-c', `exec yes '{"title": "x"}' > "${path}"`], { stdio: 'ignore' });
  writers.push(writer);
  return path;
}

const collections = async () => (await sb.request('GET', '/v1/orgs/org-acme/collections')).body.count;

describe('input files and stdin are bounded', () => {
  it('api --input and -F @file: /dev/zero, an endless FIFO and stdin end at the bound, exit 2 naming the flag, the file and the rule; nothing sent', async () => {
    const before = await collections();
    const fifo = endlessFifo('body.fifo');
    const big = '{"title": "' + 'x'.repeat(2000) + '"}';
    const cases: { args: string[]; env?: Record<string, string>; input?: string; message: string }[] = [
      { args: ['--input', '/dev/zero'], message: `--input: /dev/zero: larger than 64 MiB, ${RULE}` },
      { args: ['-F', 'title=@/dev/zero'], message: `-F: /dev/zero: larger than 64 MiB, ${RULE}` },
      { args: ['--input', fifo], env: { DOCSCTL_MAX_INPUT_BYTES: '100000' }, message: `--input: ${fifo}: larger than 100000 bytes, ${RULE}` },
      { args: ['--input', '-'], input: big, env: { DOCSCTL_MAX_INPUT_BYTES: '1000' }, message: `--input: stdin: larger than 1000 bytes, ${RULE}` },
      { args: ['-F', 'title=@-'], input: big, env: { DOCSCTL_MAX_INPUT_BYTES: '1000' }, message: `-F: stdin: larger than 1000 bytes, ${RULE}` },
    ];
    for (const c of cases) {
      const t0 = Date.now();
      const r = await sb.run(['api', '-X', 'POST', '/v1/orgs/{org}/collections', ...c.args], {
        ...(c.env ? { env: c.env } : {}),
        ...(c.input !== undefined ? { input: c.input } : {}),
      });
      expect(Date.now() - t0, c.args.join(' ')).toBeLessThan(10_000);
      expect(r.exitCode, `${c.args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`error: ${c.message}`);
    }
    // As a process too: /dev/zero on stdin, the bound at its default.
    const t0 = Date.now();
    const zero = await new Promise<{ code: number | null; stderr: string }>((done) => {
      const child = spawn(
        'sh',
        ['-c', `exec node "${resolve(import.meta.dirname, '../../bin/docsctl.js')}" api -X POST '/v1/orgs/{org}/collections' --input - < /dev/zero`],
        {
          env: { ...sb.env(), PATH: process.env.PATH ?? '' } as NodeJS.ProcessEnv,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.on('exit', (code) => done({ code, stderr }));
    });
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(zero).toEqual({ code: 2, stderr: `error: --input: stdin: larger than 64 MiB, ${RULE}\n` });
    expect(await collections()).toBe(before);
  });

  it('a regular file larger than the bound is refused by its size before it is read; at the bound it is taken; a bad setting is exit 2 naming it', async () => {
    const before = await collections();
    const body = file('body.json', '{"title": "From a file"}');
    const size = readFileSync(body).length;
    const over = await sb.run(['api', '-X', 'POST', '/v1/orgs/{org}/collections', '--input', body], { env: { DOCSCTL_MAX_INPUT_BYTES: String(size - 1) } });
    expect(over.exitCode).toBe(2);
    expect(over.stderr).toBe(`error: --input: ${body}: ${size} bytes: larger than ${size - 1} bytes, ${RULE}`);
    expect(await collections()).toBe(before);
    const at = await sb.run(['api', '-X', 'POST', '/v1/orgs/{org}/collections', '--input', body], { env: { DOCSCTL_MAX_INPUT_BYTES: String(size) } });
    expect(at.exitCode, at.stderr).toBe(0);
    expect(await collections()).toBe(before + 1);
    for (const bad of ['lots', '0', '1e6', String(512 * 1024 * 1024)]) {
      const r = await sb.run(['api', '-X', 'POST', '/v1/orgs/{org}/collections', '--input', body], { env: { DOCSCTL_MAX_INPUT_BYTES: bad } });
      expect(r.exitCode, bad).toBe(2);
      expect(r.stderr).toContain(`error: DOCSCTL_MAX_INPUT_BYTES: must be a whole number from 1 to 268435456 (got "${bad}")`);
    }
    expect(await collections()).toBe(before + 1);
  });

  it('every command that reads a file or stdin reads it through the same bound', async () => {
    const cases: [string[], string][] = [
      [['comments', 'post', 'sp-welcome', '--body-file', '/dev/zero'], '--body-file'],
      [['comments', 'post', 'sp-welcome', '--document-file', '/dev/zero'], '--document-file'],
      [['saml', 'create', '--label', 'Okta', '--certificate-file', '/dev/zero'], '--certificate-file'],
      [['openapi', 'put', 'petstore', '--file', '/dev/zero'], '--file'],
      [['orgs', 'update', '--merge-rules', '/dev/zero'], '--merge-rules'],
      [['sites', 'schema', 'set', 'site-any', '/dev/zero'], ''],
    ];
    for (const [args, flag] of cases) {
      const r = await sb.run(args, { env: { DOCSCTL_MAX_INPUT_BYTES: '4096' } });
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toBe(`error: ${flag ? `${flag}: ` : ''}/dev/zero: larger than 4 KiB, ${RULE}`);
    }
  });
});

describe('serve --seed is bounded', () => {
  const env = () => ({ PATH: process.env.PATH ?? '', HOME: dir });
  const SEED_RULE = 'the most docsctl reads of a seed (DOCSCTL_MAX_SEED_BYTES raises it)';

  it('/dev/zero, an endless FIFO and a seed past DOCSCTL_MAX_SEED_BYTES stop it before it listens: exit 2 naming the path and the rule', async () => {
    const fifo = endlessFifo('seed.fifo');
    const state = (
      await sb.server.app.handle({
        method: 'GET',
        url: '/_sandbox/state',
        headers: { authorization: `Bearer ${sb.token('admin')}`, host: new URL(sb.server.url).host },
      })
    ).body!.toString();
    const seed = file('state.json', state);
    const size = Buffer.byteLength(state);
    const cases: [string, Record<string, string>, string][] = [
      ['/dev/zero', { DOCSCTL_MAX_SEED_BYTES: String(8 * 1024 * 1024) }, `--seed: /dev/zero: larger than 8 MiB, ${SEED_RULE}`],
      [fifo, { DOCSCTL_MAX_SEED_BYTES: '100000' }, `--seed: ${fifo}: larger than 100000 bytes, ${SEED_RULE}`],
      [seed, { DOCSCTL_MAX_SEED_BYTES: String(size - 1) }, `--seed: ${seed}: ${size} bytes: larger than ${size - 1} bytes, ${SEED_RULE}`],
      [seed, { DOCSCTL_MAX_SEED_BYTES: 'big' }, `DOCSCTL_MAX_SEED_BYTES: must be a whole number from 1 to ${512 * 1024 * 1024 - 24} (got "big")`],
      [join(dir, 'missing.json'), {}, `--seed: ${join(dir, 'missing.json')}: cannot read it (ENOENT)`],
    ];
    for (const [given, vars, message] of cases) {
      const t0 = Date.now();
      const r = await docsctl(['serve', '--memory', '--port', '0', '--seed', given], { ...env(), ...vars });
      expect(Date.now() - t0, given).toBeLessThan(15_000);
      expect(r.exitCode, `${given}: ${r.stderr}`).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`error: ${message}`);
    }
  });

  it('the default bound takes /dev/zero to its end quickly too', async () => {
    const t0 = Date.now();
    const r = await docsctl(['serve', '--memory', '--port', '0', '--seed', '/dev/zero'], env());
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`error: --seed: /dev/zero: larger than 256 MiB, ${SEED_RULE}`);
  });
});

describe('saml --certificate-file sends one certificate and nothing else', () => {
  it('a PEM bundle with its private key, a chain, a key alone or no certificate: exit 2 naming the flag, the file and the rule, never the content; nothing sent', async () => {
    const key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    const keyBody = key.split('\n')[1];
    const samls = async () => (await sb.request('GET', '/v1/orgs/org-acme/saml')).body.count;
    const cases: [string, string][] = [
      [file('bundle.pem', PEM + key), 'it holds a PRIVATE KEY block: a certificate field takes one certificate and nothing else'],
      [file('key-first.pem', key + PEM), 'it holds a PRIVATE KEY block'],
      [file('chain.pem', PEM + PEM_2), 'it holds 2 certificates: a certificate field takes one'],
      [file('key.pem', key), 'it holds a PRIVATE KEY block'],
      [file('env.txt', 'DOCSCTL_TOKEN=secret-value-123\n'), 'not a certificate: neither PEM nor base64'],
      [file('trailing.pem', `${PEM}${keyBody}\n`), 'not one PEM certificate block'],
    ];
    for (const [path, rule] of cases) {
      for (const args of [
        ['saml', 'create', '--label', 'Okta', '--certificate-file', path],
        ['saml', 'update', 'any-provider', '--certificate-file', path],
      ]) {
        const r = await sb.run(args);
        expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr).toContain(`error: --certificate-file: ${path}: ${rule}`);
        expect(r.stderr).not.toContain(keyBody);
        expect(r.stderr).not.toContain('secret-value-123');
      }
    }
    // From stdin too.
    const piped = await sb.run(['saml', 'create', '--label', 'Okta', '--certificate-file', '-'], { input: PEM + key });
    expect(piped.exitCode).toBe(2);
    expect(piped.stderr).toContain('error: --certificate-file: stdin: it holds a PRIVATE KEY block');
    expect(await samls()).toBe(0);
    // One certificate is sent as given; an empty file still clears the field.
    const made = await sb.json(['saml', 'create', '--label', 'Okta', '--certificate-file', file('okta.pem', PEM)]);
    expect(made.certificate).toBe(PEM);
    expect((await sb.json(['saml', 'update', made.id, '--certificate-file', '/dev/null'])).certificate).toBe('');
  });
});
