/**
 * The access table: every operation of the contract, sent by every kind of caller against a fresh
 * fixture, answers what decisions.md (Access) says, and a refused request changes nothing.
 *
 * The expected answers come from the rules declared below, one per operation, not from the server:
 * - no token, or a token of no one: 401;
 * - a user of another organization (u-outsider, admin of org-globex only): what a missing object
 *   answers (404, or 204 for a delete of the object itself), so ids do not leak, and nothing changes;
 * - a member: the operation's success status when their role (org role, raised by no defaultLevel in
 *   this fixture) reaches the rule's minimum, else 403 naming what is needed;
 * - a guest (member without a role): like a role below `read`, except where the rule says otherwise.
 * Every operation exported by src/contract must have a row: a new operation without one fails here.
 * A second part checks that the `permissions` booleans of objects agree with what the caller can do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/contract/op.js';
import { CALLERS, startBench, type Bench, type Caller, type FixtureIds, type Reply } from '../helpers/fixture.js';
import { ALL_OPS, member, read, table, urlOf, type Row, type Rule } from '../helpers/operations.js';

const RANK: Record<Role, number> = { read: 1, comment: 2, edit: 3, review: 4, create: 5, admin: 6 };

/** The status the rule gives `who`; `ok` is the operation's own success status. */
function expected(rule: Rule, who: Caller, ok: number): number {
  if (who === 'none' || who === 'revoked') return 401;
  if ('anyone' in rule) return ok;
  if (who === 'outsider') return 'min' in rule && rule.outsider !== undefined ? rule.outsider : 404;
  if ('member' in rule) return ok;
  if ('authorOrAdmin' in rule) return who === 'admin' || who === 'comment' ? ok : 403;
  if ('teamOwnerOrAdmin' in rule) return who === 'admin' || who === 'edit' ? ok : 403;
  if (who === 'guest') return rule.guest ?? rule.below ?? 403;
  return RANK[who] >= RANK[rule.min] ? ok : (rule.below ?? 403);
}

/** A 403 names the role needed (or that only the author may). */
const FORBIDDEN_SAYS_WHY = /\b(admin|create|review|edit|comment|read) role\b|\ba role\b|\bauthor\b/;

let bench: Bench;
let rows: Record<string, Row>;
let checked = 0;
let probed = 0;

beforeAll(async () => {
  bench = await startBench();
  bench.officialProblems(); // the fixture's own setup is checked by the conformance test
  rows = table(bench.ids, bench.website);
});
afterAll(async () => {
  await bench?.close();
  if (checked)
    console.info(
      `access table: ${Object.keys(ALL_OPS).length} operations × ${CALLERS.length} callers = ${checked} requests checked; ${probed} permissions booleans checked against the operation they allow`,
    );
});

describe('access table', () => {
  it('has exactly one row per operation of the contract', () => {
    const ops = Object.keys(ALL_OPS).sort();
    expect(
      ops.filter((id) => !(id in rows)),
      'operations without a row',
    ).toEqual([]);
    expect(
      Object.keys(rows).filter((id) => !(id in ALL_OPS)),
      'rows without an operation',
    ).toEqual([]);
  });

  for (const [id, op] of Object.entries(ALL_OPS)) {
    it(`${op.method} ${op.path} (${id})`, async () => {
      const row = rows[id];
      expect(row, `no row for ${id}`).toBeDefined();
      const problems: string[] = [];
      for (const who of CALLERS) {
        bench.restore();
        const before = bench.state();
        const want = expected(row.rule, who, op.status);
        const r = await bench.send(who, op.method, urlOf(op, row), row.body);
        checked++;
        const where = `${who}: ${op.method} ${urlOf(op, row)}`;
        if (who === 'outsider' && !row.outsiderJoins && bench.state() !== before) problems.push(`${where}: a non-member changed the state`);
        if (r.status !== want) {
          problems.push(`${where} answered ${r.status}, the table says ${want}: ${r.text.slice(0, 200)}`);
          continue;
        }
        if (want >= 400) {
          if (r.json?.error?.code !== want || typeof r.json?.error?.message !== 'string' || !r.json.error.message) {
            problems.push(`${where}: error body is not {error: {code: ${want}, message}}: ${r.text.slice(0, 200)}`);
          }
          if (want === 403 && !FORBIDDEN_SAYS_WHY.test(r.json?.error?.message ?? '')) {
            problems.push(`${where}: the 403 message does not say what is needed: ${r.json?.error?.message}`);
          }
          if (bench.state() !== before) problems.push(`${where}: refused with ${r.status} but the state changed`);
          continue;
        }
        if (op.method === 'GET' && bench.state() !== before) problems.push(`${where}: a read changed the state`);
        problems.push(...bench.officialProblems().map((p) => `${who}: ${p}`));
        if (op.status !== 204) {
          const parsed = op.response.safeParse(r.json);
          if (!parsed.success)
            problems.push(`${where}: the answer does not match the contract: ${parsed.error.issues[0]?.message} at ${parsed.error.issues[0]?.path.join('.')}`);
        } else if (r.text !== '') {
          problems.push(`${where}: a 204 with a body`);
        }
      }
      expect(problems).toEqual([]);
    });
  }
});

// ---------------------------------------------------------------------------------------------
// `permissions` booleans agree with what the caller can do

interface Probe {
  /** The object, read by the caller: its `permissions`. */
  read: (f: FixtureIds) => { op: string; row: Row };
  /** boolean → the operation it allows (run as the same caller on a fresh fixture). */
  allows: Record<string, (f: FixtureIds) => { op: string; row?: Partial<Row> }>;
}

const PROBES: Record<string, Probe> = {
  space: {
    read: () => ({ op: 'getSpace', row: { rule: read } }),
    allows: {
      edit: () => ({ op: 'updateSpace' }),
      admin: () => ({ op: 'deleteSpace' }),
      comment: () => ({ op: 'postCommentInSpace' }),
      merge: () => ({ op: 'mergeChangeRequest' }),
    },
  },
  collection: {
    read: () => ({ op: 'getCollection', row: { rule: read } }),
    allows: {
      admin: () => ({ op: 'updateCollection' }),
      create: (f) => ({ op: 'createSpace', row: { body: { title: 'In the collection', parent: f.collection } } }),
    },
  },
  'space comment': {
    read: () => ({ op: 'getCommentInSpace', row: { rule: read } }),
    allows: {
      edit: () => ({ op: 'updateCommentInSpace', row: { body: { body: { markdown: 'Edited' } } } }),
      delete: () => ({ op: 'deleteCommentInSpace' }),
      reply: () => ({ op: 'postCommentReplyInSpace' }),
    },
  },
  'space reply': {
    read: () => ({ op: 'getCommentReplyInSpace', row: { rule: read } }),
    allows: {
      edit: () => ({ op: 'updateCommentReplyInSpace', row: { body: { body: { markdown: 'Edited' } } } }),
      delete: () => ({ op: 'deleteCommentReplyInSpace' }),
      reply: () => ({ op: 'postCommentReplyInSpace' }),
    },
  },
  'change-request comment': {
    read: () => ({ op: 'getCommentInChangeRequest', row: { rule: read } }),
    allows: {
      edit: () => ({ op: 'updateCommentInChangeRequest', row: { body: { body: { markdown: 'Edited' } } } }),
      delete: () => ({ op: 'deleteCommentInChangeRequest' }),
      reply: () => ({ op: 'postCommentReplyInChangeRequest' }),
    },
  },
  'change request': {
    read: () => ({ op: 'getChangeRequest', row: { rule: read } }),
    allows: {
      edit: () => ({ op: 'updateChangeRequest' }),
      comment: () => ({ op: 'postCommentInChangeRequest' }),
      merge: () => ({ op: 'mergeChangeRequest' }),
    },
  },
  'OpenAPI specification': {
    read: () => ({ op: 'getOpenAPISpec', row: { rule: read } }),
    allows: {
      view: () => ({ op: 'listOpenAPISpecVersions' }),
      edit: () => ({ op: 'updateOpenAPISpec' }),
    },
  },
  organization: {
    read: () => ({ op: 'getOrganization', row: { rule: member } }),
    allows: {
      createContent: () => ({ op: 'createSite' }),
      admin: () => ({ op: 'updateMember' }),
      listMembers: () => ({ op: 'listMembers' }),
      listTeams: () => ({ op: 'listTeams' }),
      createOpenAPISpec: () => ({ op: 'createOpenAPISpec' }),
    },
  },
};

/** Callers who are members of the organization (the others see no object, so no booleans). */
const MEMBERS = ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest'] as const;

describe('permissions booleans agree with what the caller can do', () => {
  // col-handbook's defaultLevel raises every member's role on it and on sp-welcome.
  for (const level of [null, 'comment', 'create'] as const) {
    it(`with col-handbook defaultLevel ${level}`, async () => {
      const b = level === null ? bench : await startBench({ collectionLevel: level });
      const base = table(b.ids, b.website);
      const problems: string[] = [];
      let seen = 0;
      try {
        for (const [name, probe] of Object.entries(PROBES)) {
          for (const who of MEMBERS) {
            b.restore();
            const get = probe.read(b.ids);
            const getOp = ALL_OPS[get.op];
            const obj = await b.send(who, getOp.method, urlOf(getOp, base[get.op]));
            if (obj.status !== 200) continue;
            const permissions = obj.json.permissions as Record<string, boolean>;
            for (const [flag, target] of Object.entries(probe.allows)) {
              const t = target(b.ids);
              const op = ALL_OPS[t.op];
              const row = { ...base[t.op], ...t.row };
              b.restore();
              const r: Reply = await b.send(who, op.method, urlOf(op, row), row.body);
              seen++;
              const can = r.status >= 200 && r.status < 300;
              if (permissions[flag] !== can) {
                problems.push(`${who} on the ${name}: permissions.${flag} is ${permissions[flag]} but ${t.op} answered ${r.status} ${r.text.slice(0, 160)}`);
              }
            }
          }
        }
      } finally {
        if (b !== bench) await b.close();
      }
      probed += seen;
      expect(seen).toBeGreaterThan(100);
      expect(problems).toEqual([]);
    });
  }
});
