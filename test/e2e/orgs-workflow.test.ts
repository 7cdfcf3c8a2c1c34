/**
 * The pull-request workflow of docs/org-as-code.md ("A worked example") runs as written, with the
 * page's own example file ("The file"): the two GitHub workflows' `run:` steps in a shell, in order,
 * against a sandbox standing for production (the built binary on PATH as `docsctl`, `${{ vars.* }}`
 * and `${{ secrets.* }}` given their values; only the `npm install -g` of the tarball is not run), and
 * the block that tries the change against a sandbox seeded from the file. Also: the plan needs no
 * secret (the pull request's job has none), names the role a too-low token lacks; `serve --seed`
 * takes several files and its first line says who is who.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, useSandbox, userShell } from '../helpers/cli.js';
import { PEM } from '../helpers/fixture.js';

const DOC = readFileSync(resolve(import.meta.dirname, '../../docs/org-as-code.md'), 'utf8');

/** The page's fenced blocks of a language, in order. */
function blocks(lang: string): string[] {
  return [...DOC.matchAll(new RegExp(`^( *)\`\`\`${lang}\\n([\\s\\S]*?)^\\1\`\`\``, 'gm'))].map((m) =>
    m[2]
      .split('\n')
      .map((l) => l.slice(m[1].length))
      .join('\n'),
  );
}

const EXAMPLE = blocks('yaml').find((b) => b.startsWith('# yaml-language-server'))!;
const workflow = (name: string) => parse(blocks('yaml').find((b) => b.startsWith(`# .github/workflows/${name}`))!) as Workflow;
const SANDBOX_BLOCK = blocks('sh').find((b) => b.includes('--seed main.yaml'))!;

/** The document an OpenAPI entry's `file:` names, beside the org file (the example's petstore.yaml). */
const PETSTORE = 'openapi: 3.0.3\ninfo: { title: Petstore, version: 1.0.0 }\npaths:\n  /pets:\n    get:\n      responses: { "200": { description: Pets } }\n';

interface Step {
  run?: string;
  env?: Record<string, string>;
  uses?: string;
}
interface Workflow {
  env?: Record<string, string>;
  jobs: Record<string, { steps: Step[]; env?: Record<string, string> }>;
}

const sb = useSandbox();
let shell: ReturnType<typeof userShell>;
beforeAll(() => {
  shell = userShell('docsctl-workflow-');
  writeFileSync(join(shell.work, 'org.yaml'), EXAMPLE);
  writeFileSync(join(shell.work, 'petstore.yaml'), PETSTORE);
  writeFileSync(join(shell.work, 'okta.pem'), PEM);
});

/** `${{ vars.X }}`, `${{ secrets.X }}` → their values (a secret not given is empty, as in GitHub Actions). */
function expand(value: string, given: Record<string, string>): string {
  return value.replace(/\$\{\{\s*(vars|secrets)\.(\w+)\s*\}\}/g, (_, _kind, name: string) => given[name] ?? '');
}

/** Run a job's `run:` steps in order, as its runner would (bash -e, the workflow's, job's and step's env); stop at the first failing step. */
async function runJob(wf: Workflow, job: string, given: Record<string, string>) {
  const out: { run: string; exitCode: number; stdout: string; stderr: string }[] = [];
  for (const step of wf.jobs[job].steps) {
    if (!step.run) continue;
    // Installing docsctl from its tarball: the built binary is already on PATH as docsctl.
    const script = step.run
      .split('\n')
      .filter((l) => !l.startsWith('npm install -g'))
      .join('\n');
    if (!script.trim()) continue;
    const env: Record<string, string> = { ...shell.env };
    for (const [k, v] of Object.entries({ ...wf.env, ...wf.jobs[job].env, ...step.env })) env[k] = expand(String(v), given);
    const r = await execa('bash', ['-e', '-c', script], { cwd: shell.work, env, extendEnv: false, reject: false });
    out.push({ run: script, exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) });
    if (r.exitCode !== 0) break;
  }
  return out;
}

describe('the pull-request workflow of docs/org-as-code.md, with its example file', () => {
  const production = () => ({ DOCS_API: sb.server.url, DOCS_ORG: 'org-acme' });

  it('the pull request: validate without a token, plan without a secret (exit 0 or 2 accepted), the plan in the log', async () => {
    const steps = await runJob(workflow('org-plan.yml'), 'plan', { ...production(), DOCS_PLAN_TOKEN: sb.token('admin') });
    expect(steps.map((s) => s.exitCode)).toEqual([0, 0]);
    expect(steps[0].stderr).toContain('org.yaml: valid');
    // No OKTA_CERT in a pull request's job: the certificate is unknown, the rest is planned.
    expect(steps[0].stderr).toContain('${env:OKTA_CERT}: the environment variable OKTA_CERT is not set here');
    const plan = steps[1].stdout;
    expect(plan).toContain('+ space getting-started (Getting started)');
    expect(plan).toContain('+ openapi petstore\n      file: "petstore.yaml"');
    expect(plan).toContain('certificate: "unknown: ${env:OKTA_CERT} is not set here (apply needs it to create the provider)"');
    expect(plan).toMatch(/Plan: \d+ to create/);
  });

  it('the pull request with a read token: the plan fails (exit 1 under --detailed-exitcode) naming the role it needs', async () => {
    const steps = await runJob(workflow('org-plan.yml'), 'plan', { ...production(), DOCS_PLAN_TOKEN: sb.token('read') });
    expect(steps.map((s) => s.exitCode)).toEqual([0, 1]);
    expect(steps[1].stderr).toContain("reading the organization's SAML providers needs the admin role");
    expect(steps[1].stdout).not.toContain('Plan:');
  });

  it('merged: the plan saved with the secret, applied exactly by the next job; then the pull request plans no changes', async () => {
    const apply = workflow('org-apply.yml');
    const secrets = { ...production(), DOCS_ADMIN_TOKEN: sb.token('admin'), OKTA_CERT: PEM };
    const planned = await runJob(apply, 'plan', secrets);
    expect(planned.map((s) => s.exitCode)).toEqual([0]);
    expect(planned[0].stderr).toContain('wrote the plan to org.plan');
    const applied = await runJob(apply, 'apply', secrets);
    expect(
      applied.map((s) => [
        s.exitCode,
        s.stderr
          .split('\n')
          .filter((l) => l.startsWith('error'))
          .join('\n'),
      ]),
    ).toEqual([[0, '']]);
    expect(applied[0].stderr).toMatch(/Applied: \d+ changes/);
    const spec = await sb.request('GET', '/v1/orgs/org-acme/openapi/petstore');
    expect(spec.status).toBe(200);

    const again = await runJob(workflow('org-plan.yml'), 'plan', { ...production(), DOCS_PLAN_TOKEN: sb.token('admin') });
    expect(again.map((s) => s.exitCode)).toEqual([0, 0]);
    expect(again[1].stdout).toContain('No changes: the organization is as the file says.');
    // What it cannot make is said, not planned: a member who is not one, a space's visibility, the certificate unknown here.
    expect(again[1].stdout).toContain('unknown, unchanged');
  });

  it('tried first against a sandbox seeded from the main branch’s file (several --seed files; who is who in its first line)', async () => {
    // In a clone of its own: main.yaml, the example as on the main branch; org.yaml, the branch's (a space renamed);
    // teams/, another file seeded with it, making the read user an editor.
    const cwd = join(shell.home, 'try');
    mkdirSync(join(cwd, 'teams'), { recursive: true });
    writeFileSync(join(cwd, 'main.yaml'), EXAMPLE);
    writeFileSync(join(cwd, 'org.yaml'), EXAMPLE.replace('    title: Getting started\n', '    title: Start here\n'));
    writeFileSync(join(cwd, 'petstore.yaml'), PETSTORE);
    writeFileSync(join(cwd, 'okta.pem'), PEM);
    writeFileSync(join(cwd, 'teams', 'people.yaml'), 'version: 1\nmembers:\n  - key: reader\n    id: u-read\n    role: edit\n');
    // As written, with a second seed, and a plan afterwards (the files as seeded and applied: nothing left to do).
    const script = `${SANDBOX_BLOCK.replace('--seed main.yaml', '--seed main.yaml --seed teams/')}\nset +e\ndocsctl orgs plan -f org.yaml -f teams/people.yaml --detailed-exitcode\necho "replan $?"\n`;
    const r = await execa('bash', ['-e', '-c', script], { cwd, env: shell.env, extendEnv: false, reject: false, timeout: 50_000 });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stderr)).toContain('~ space getting-started (Getting started)');
    expect(String(r.stderr)).toMatch(/Applied: 1 change/);
    expect(String(r.stdout)).toMatch(/replan 0$/);
    const info = JSON.parse(readFileSync(join(cwd, 'sandbox.json'), 'utf8').split('\n')[0]) as {
      users: { id: string; role: string; token: string; key?: string }[];
    };
    expect(info.users.find((u) => u.id === 'u-read')).toMatchObject({ role: 'edit', key: 'reader' });
    expect(info.users.find((u) => u.id === 'u-admin')).toMatchObject({ role: 'admin' });
    expect(info.users.find((u) => u.id === 'u-admin')!.key).toBeUndefined();
  });
});

describe('serve --seed: several files and folders, and who is who', () => {
  it('the banner lists each member with its role as the files left it, its token and its key', async () => {
    const dir = join(shell.home, 'seeds');
    mkdirSync(join(dir, 'teams'), { recursive: true });
    writeFileSync(join(dir, 'org.yaml'), 'version: 1\ncollections:\n  - title: Guides\n');
    writeFileSync(join(dir, 'teams', 'a.yaml'), 'version: 1\nspaces:\n  - title: Handbook\n    parent: guides\n');
    writeFileSync(join(dir, 'teams', 'b.yaml'), 'version: 1\nmembers:\n  - key: rex\n    id: u-read\n    role: edit\n');
    const child = execa(process.execPath, [BIN, 'serve', '--memory', '--port', '0', '--seed', join(dir, 'org.yaml'), '--seed', join(dir, 'teams')], {
      env: shell.env,
      extendEnv: false,
      reject: false,
    });
    try {
      const banner = await new Promise<string>((done, fail) => {
        let out = '';
        child.stdout!.on('data', (b: Buffer) => {
          out += b.toString();
          if (out.includes('to use it from another shell')) done(out);
        });
        child.on('exit', () => fail(new Error(`serve exited: ${out}`)));
      });
      expect(banner).toContain(
        `members of the organization, roles as ${join(dir, 'org.yaml')}, ${join(dir, 'teams', 'a.yaml')}, ${join(dir, 'teams', 'b.yaml')} left them (role: token):`,
      );
      expect(banner).toMatch(/^ {2}edit {6}u-read {7}\S+ {2}\(rex in the files\)$/m);
      expect(banner).toMatch(/^ {2}admin {5}u-admin {6}\S+$/m);
      const url = /listening on (\S+)/.exec(banner)![1];
      const token = /admin token: +(\S+)/.exec(banner)![1];
      const env = { ...shell.env, DOCSCTL_API_URL: url, DOCSCTL_TOKEN: token, DOCSCTL_ORG: 'org-acme' };
      const plan = await execa(process.execPath, [BIN, 'orgs', 'plan', '-f', join(dir, 'org.yaml'), '-f', join(dir, 'teams'), '--detailed-exitcode'], {
        env,
        extendEnv: false,
        reject: false,
      });
      expect(plan.exitCode, String(plan.stdout) + String(plan.stderr)).toBe(0);
    } finally {
      child.kill('SIGTERM');
      await child;
    }
    // A state or a JSON fixture is one file alone: with another, the files are organization files.
    const mixed = await execa(process.execPath, [BIN, 'serve', '--memory', '--port', '0', '--seed', join(dir, 'org.yaml'), '--seed', '/dev/null'], {
      env: shell.env,
      extendEnv: false,
      reject: false,
    });
    expect(mixed.exitCode).toBe(2);
    expect(String(mixed.stderr)).toContain('--seed: ');
  });
});
