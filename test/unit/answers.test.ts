/**
 * Telling a server's malformed answer from a bug in docsctl, and masking what servers echo: the
 * pieces behind test/e2e/config.test.ts, where a case is hard to reach through the binary.
 */
import { describe, expect, it } from 'vitest';
import { describeFailure } from '../../src/cli/errors.js';
import { maskSecrets, RunMemory } from '../../src/client/errors.js';
import { pageProblem } from '../../src/client/paginator.js';
import { ops } from '../../src/contract/orgs.js';

const user = { object: 'user', id: 'u1', displayName: 'Ada', urls: { location: 'https://x.test/u1' } };

describe('an unexpected TypeError', () => {
  it('is a bug in docsctl when every answer read was as documented', () => {
    const run = new RunMemory();
    for (let i = 0; i < 5; i++) run.recordAnswer({ method: 'GET', url: 'http://127.0.0.1:1/v1/user', body: user, schema: ops.getAuthenticatedUser.response });
    const f = describeFailure(new TypeError("Cannot read properties of undefined (reading 'x')"), run);
    expect(f).toMatchObject({ exitCode: 1, unexpected: true, message: "Cannot read properties of undefined (reading 'x')" });
  });

  it("is the server's malformed answer when one of the last answers is not as documented", () => {
    const run = new RunMemory();
    run.recordAnswer({ method: 'GET', url: 'http://127.0.0.1:1/v1/user', body: { ...user, displayName: 7 }, schema: ops.getAuthenticatedUser.response });
    run.recordAnswer({ method: 'GET', url: 'http://127.0.0.1:1/v1/user?again', body: user, schema: ops.getAuthenticatedUser.response });
    const f = describeFailure(new TypeError('x.trim is not a function'), run);
    expect(f.unexpected).toBeUndefined();
    expect(f.exitCode).toBe(1);
    expect(f.message).toBe('GET http://127.0.0.1:1/v1/user: the server sent a malformed answer (displayName: a number where a string was expected)');
    expect(f.hint).toContain('(docsctl stopped at: x.trim is not a function)');
    // Other errors are not the answer's doing.
    expect(describeFailure(new Error('boom'), run).unexpected).toBe(true);
  });

  it('knows nothing of the answers and tokens of another run in the same process', () => {
    const first = new RunMemory();
    first.recordAnswer({ method: 'GET', url: 'http://127.0.0.1:1/v1/user', body: { ...user, displayName: 7 }, schema: ops.getAuthenticatedUser.response });
    first.registerSecret('tok-of-the-first-run');
    const second = new RunMemory();
    expect(describeFailure(new TypeError('z'), second).unexpected).toBe(true);
    expect(second.mask('tok-of-the-first-run')).toBe('tok-of-the-first-run');
  });

  it('forgets answers older than the last few', () => {
    const run = new RunMemory();
    run.recordAnswer({ method: 'GET', url: 'http://127.0.0.1:1/v1/user', body: { ...user, displayName: 7 }, schema: ops.getAuthenticatedUser.response });
    for (let i = 0; i < 4; i++) run.recordAnswer({ method: 'GET', url: 'http://127.0.0.1:1/v1/user', body: user, schema: ops.getAuthenticatedUser.response });
    expect(describeFailure(new TypeError('y'), run).unexpected).toBe(true);
  });
});

describe('pageProblem', () => {
  it('accepts a list envelope, with or without count and next', () => {
    for (const page of [{ items: [] }, { items: [1], count: 1 }, { items: [], next: { page: 'p' } }, { items: [], next: null }])
      expect(pageProblem(page)).toBeUndefined();
  });

  it('says what is wrong with anything else', () => {
    expect(pageProblem(null)).toBe('null where a list {items, …} was expected');
    expect(pageProblem('x')).toBe('a string where a list {items, …} was expected');
    expect(pageProblem([1])).toBe('an array where a list {items, …} was expected');
    expect(pageProblem({ id: 'x' })).toBe('a list without items');
    expect(pageProblem({ items: 'x' })).toBe('items: a string where an array was expected');
    expect(pageProblem({ items: [], next: 'p2' })).toBe('next: a string where an object {page} was expected');
    expect(pageProblem({ items: [], next: { page: '' } })).toBe('next.page: an empty string where a cursor string was expected');
  });
});

describe('maskSecrets', () => {
  it('hides a token, its URL-encoded form, and whatever follows Bearer', () => {
    const token = 'sbx_a/b+c-0123456789';
    expect(maskSecrets(`got ${token}`, token)).toBe('got ****6789');
    expect(maskSecrets(`url ?t=${encodeURIComponent(token)}`, token)).toBe('url ?t=****6789');
    expect(maskSecrets('Authorization: Bearer someone-elses-token, and more', token)).toBe('Authorization: Bearer ****, and more');
    expect(maskSecrets('{"h":"bearer abc.def.ghi"}')).toBe('{"h":"bearer ****"}');
    expect(maskSecrets('a plain message about tokens', token)).toBe('a plain message about tokens');
  });

  it('hides registered tokens without being told them, and leaves short strings alone', () => {
    const run = new RunMemory();
    run.registerSecret('sbx_registered-0000');
    run.registerSecret('abc');
    expect(run.mask('echo sbx_registered-0000 abc')).toBe('echo ****0000 abc');
    expect(describeFailure(new Error('server said sbx_registered-0000'), run).message).toBe('server said ****0000');
  });
});
