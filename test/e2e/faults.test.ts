/** Scripted faults (`PUT /_sandbox/faults`) and chaos (`serve --chaos`), against the CLI's retries. */
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/serve.js';
import { AppDispatcher, docsctlInProcess, useSandbox } from '../helpers/inprocess.js';

const sb = useSandbox();

describe('sandbox faults', () => {
  it('a scripted 503 on GET is retried away; a scripted 500 on POST is reported, never doubled', async () => {
    const set = await sb.request('PUT', '/_sandbox/faults', { rules: [{ method: 'GET', path: '/v1/collections/*', status: 503, retryAfter: 0, count: 2 }] });
    expect(set.status).toBe(200);
    const r = await sb.run(['collections', 'get', 'col-handbook', '--verbose'], { env: { DOCSCTL_MAX_RETRIES: '3' } });
    expect(r.exitCode).toBe(0);
    expect(r.stderr.match(/→ 503/g)).toHaveLength(2);
    expect((await sb.request('GET', '/_sandbox/faults')).body.rules[0]).toMatchObject({ used: 2, remaining: 0 });

    await sb.request('PUT', '/_sandbox/faults', { rules: [{ method: 'POST', path: '/v1/orgs/*/collections', status: 500, count: 1 }] });
    const post = await sb.run(['collections', 'create', '--title', 'Once'], { env: { DOCSCTL_MAX_RETRIES: '3' } });
    expect(post.exitCode).toBe(1);
    expect(post.stderr).toContain('error: injected fault (500)');
    expect((await sb.request('GET', '/v1/orgs/org-acme/collections')).body.count).toBe(1);
    expect((await sb.run(['collections', 'create', '--title', 'Once'])).exitCode).toBe(0);
    expect((await sb.request('GET', '/v1/orgs/org-acme/collections')).body.count).toBe(2);
  });

  it('drops connections and adds latency on request; rules are validated', async () => {
    await sb.request('PUT', '/_sandbox/faults', {
      rules: [
        { path: '/v1/user', drop: true, count: 1 },
        { path: '/v1/orgs/**', latencyMs: 300, count: 1 },
      ],
    });
    const r = await sb.run(['api', '/v1/user'], { env: { DOCSCTL_MAX_RETRIES: '1' } });
    expect(r.exitCode).toBe(0);
    const t0 = Date.now();
    expect((await sb.run(['orgs', 'get'])).exitCode).toBe(0);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(300);
    const bad = await sb.request('PUT', '/_sandbox/faults', { rules: [{ status: 200 }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('rules.0.status: must be at least 400');
    expect((await sb.request('DELETE', '/_sandbox/faults')).status).toBe(204);
  });

  it('chaos is reproducible for a seed, and GETs get through it with retries', async () => {
    const outcomes = async () => {
      const s = await startServer({ port: 0, chaos: { rate: 0.5, seed: 42 } });
      const seen: number[] = [];
      for (let i = 0; i < 20; i++) {
        const res = await s.app.handle({ method: 'GET', url: '/v1/user', headers: { authorization: `Bearer ${s.token}` } });
        seen.push(res.drop ? 0 : res.status);
      }
      await s.close();
      return seen;
    };
    const a = await outcomes();
    expect(a).toEqual(await outcomes());
    expect(a.filter((x) => x !== 200).length).toBeGreaterThan(3);

    const s = await startServer({ port: 0, chaos: { rate: 0.3, seed: 7 } });
    const dispatcher = new AppDispatcher(s.app, new URL(s.url).origin);
    try {
      for (let i = 0; i < 5; i++) {
        const r = await docsctlInProcess(
          ['collections', 'get', 'col-handbook', '--json'],
          { HOME: sb.home, DOCSCTL_CONFIG_DIR: sb.home, DOCSCTL_API_URL: s.url, DOCSCTL_TOKEN: s.token, DOCSCTL_MAX_RETRIES: '6' },
          { dispatcher },
        );
        expect(r.exitCode, r.stderr).toBe(0);
        expect(JSON.parse(r.stdout).id).toBe('col-handbook');
      }
    } finally {
      await s.close();
    }
  });
});
