/**
 * The sandbox's starting data: the default organizations, users and roles, or a JSON fixture
 * (`serve --seed FILE`) in the same format. A malformed fixture is refused naming the bad entry.
 */
import { z } from 'zod';
import { describeIssue, issuePath, Role } from '../contract/op.js';
import { newId, newToken } from './ids.js';
import { createSpaceRec } from './spaces/model.js';
import type { Store } from './store.js';

const Seed = z.strictObject({
  organizations: z.array(z.strictObject({ id: z.string().min(1), title: z.string().min(1).max(100) })).min(1),
  users: z
    .array(
      z.strictObject({
        id: z.string().min(1),
        displayName: z.string().min(1),
        email: z.string().email(),
        token: z.string().min(8),
        /** May call /_sandbox/*; exactly one user has it (the first one when none says so). */
        sandboxAdmin: z.boolean().optional(),
      }),
    )
    .min(1),
  members: z.array(
    z.strictObject({
      organization: z.string(),
      user: z.string(),
      role: Role.nullable(),
      joinedAt: z.string().datetime().optional(),
      lastSeenAt: z.string().datetime().optional(),
    }),
  ),
  teams: z
    .array(
      z.strictObject({
        id: z.string().min(1),
        organization: z.string(),
        title: z.string().min(1),
        members: z.array(z.strictObject({ user: z.string(), role: z.enum(['owner', 'member']) })).default([]),
      }),
    )
    .default([]),
  collections: z
    .array(
      z.strictObject({
        id: z.string().min(1),
        organization: z.string(),
        title: z.string().max(50),
        description: z.string().max(100).optional(),
        parent: z.string().optional(),
      }),
    )
    .default([]),
  spaces: z
    .array(
      z.strictObject({
        id: z.string().min(1),
        organization: z.string(),
        title: z.string().max(50),
        emoji: z.string().max(50).optional(),
        parent: z.string().optional(),
        visibility: z.enum(['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private']).optional(),
      }),
    )
    .default([]),
});
export type SeedData = z.input<typeof Seed>;

/** A seed that cannot be loaded; `path` is the fixture entry it is about (for its line:column in the file). */
export class SeedError extends Error {
  constructor(
    message: string,
    readonly path?: readonly (string | number)[],
  ) {
    super(message);
  }
}

/** Check a fixture and load it into an empty store. Throws SeedError naming the entry. */
export function loadSeed(store: Store, input: unknown): void {
  const parsed = Seed.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SeedError(`seed: ${issuePath(issue) || '(root)'}: ${describeIssue(issue)}`, issue.path as (string | number)[]);
  }
  const seed = parsed.data;
  const fail = (where: string, msg: string): never => {
    // `members[0].user` is the path ['members', 0, 'user'].
    const path = where
      .split(/[.[\]]+/)
      .filter(Boolean)
      .map((k) => (/^\d+$/.test(k) ? Number(k) : k));
    throw new SeedError(`seed: ${where}: ${msg}`, path);
  };
  const orgIds = new Set(seed.organizations.map((o) => o.id));
  const userIds = new Set(seed.users.map((u) => u.id));
  const memberOf = new Set(seed.members.map((m) => `${m.organization}/${m.user}`));
  const collectionOrg = new Map(seed.collections.map((c) => [c.id, c.organization]));
  const unique = (list: { id: string }[], what: string) => {
    const seen = new Set<string>();
    list.forEach((x, i) => (seen.has(x.id) ? fail(`${what}[${i}].id`, `duplicate id ${x.id}`) : seen.add(x.id)));
  };
  unique(seed.organizations, 'organizations');
  unique(seed.users, 'users');
  unique(seed.teams, 'teams');
  unique([...seed.collections, ...seed.spaces], 'collections/spaces');
  const tokens = new Set<string>();
  seed.users.forEach((u, i) => (tokens.has(u.token) ? fail(`users[${i}].token`, 'duplicate token') : tokens.add(u.token)));
  seed.members.forEach((m, i) => {
    if (!orgIds.has(m.organization)) fail(`members[${i}].organization`, `no organization ${m.organization}`);
    if (!userIds.has(m.user)) fail(`members[${i}].user`, `no user ${m.user}`);
  });
  seed.teams.forEach((t, i) => {
    if (!orgIds.has(t.organization)) fail(`teams[${i}].organization`, `no organization ${t.organization}`);
    t.members.forEach(
      (m, j) => memberOf.has(`${t.organization}/${m.user}`) || fail(`teams[${i}].members[${j}].user`, `${m.user} is not a member of ${t.organization}`),
    );
  });
  seed.collections.forEach((c, i) => {
    if (!orgIds.has(c.organization)) fail(`collections[${i}].organization`, `no organization ${c.organization}`);
    if (c.parent !== undefined && collectionOrg.get(c.parent) !== c.organization)
      fail(`collections[${i}].parent`, `no collection ${c.parent} in ${c.organization}`);
  });
  seed.spaces.forEach((s, i) => {
    if (!orgIds.has(s.organization)) fail(`spaces[${i}].organization`, `no organization ${s.organization}`);
    if (s.parent !== undefined && collectionOrg.get(s.parent) !== s.organization) fail(`spaces[${i}].parent`, `no collection ${s.parent} in ${s.organization}`);
  });
  seed.organizations.forEach((o, i) => {
    if (!seed.members.some((m) => m.organization === o.id && m.role === 'admin')) fail(`organizations[${i}]`, `${o.id} needs at least one admin member`);
  });

  const now = store.now();
  for (const o of seed.organizations) {
    store.data.orgs.set(o.id, { id: o.id, title: o.title, createdAt: now, emailDomains: [] });
    store.data.members.set(o.id, new Map());
  }
  for (const u of seed.users) store.addUser({ id: u.id, displayName: u.displayName, email: u.email, token: u.token });
  store.data.sandboxAdmin = (seed.users.find((u) => u.sandboxAdmin) ?? seed.users[0]).id;
  for (const m of seed.members) {
    store.data.members.get(m.organization)!.set(m.user, {
      userId: m.user,
      role: m.role,
      joinedAt: m.joinedAt ?? now,
      ...(m.lastSeenAt ? { lastSeenAt: m.lastSeenAt } : {}),
      sso: false,
      disabled: false,
    });
  }
  for (const t of seed.teams) {
    store.data.teams.set(t.id, {
      id: t.id,
      org: t.organization,
      title: t.title,
      createdAt: now,
      members: new Map(t.members.map((m) => [m.user, m.role])),
    });
  }
  for (const c of seed.collections) {
    store.data.collections.set(c.id, {
      id: c.id,
      org: c.organization,
      title: c.title,
      defaultLevel: 'inherit',
      createdAt: now,
      ...(c.description !== undefined ? { description: c.description } : {}),
      ...(c.parent !== undefined ? { parent: c.parent } : {}),
    });
    store.childrenOf(c.parent ?? c.organization).push(c.id);
  }
  for (const s of seed.spaces) {
    createSpaceRec(store, {
      id: s.id,
      org: s.organization,
      title: s.title,
      emoji: s.emoji ?? '',
      ...(s.parent !== undefined ? { parent: s.parent } : {}),
      ...(s.visibility !== undefined ? { visibility: s.visibility } : {}),
    });
  }
}

/** The roles of the default organization's members, one user each. */
export const DEFAULT_ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest'] as const;

/**
 * The default data: two organizations administered by the admin user; in the first one member per
 * role and a guest, each with a token; a second organization's own admin (an outsider to the
 * first); a team; and a collection with a space to look at. Tokens are random unless given.
 */
export function defaultSeed(adminToken?: string): SeedData {
  const names: Record<(typeof DEFAULT_ROLES)[number], string> = {
    admin: 'Ada Admin',
    create: 'Carl Creator',
    review: 'Rita Reviewer',
    edit: 'Ed Editor',
    comment: 'Cora Commenter',
    read: 'Rex Reader',
    guest: 'Gus Guest',
  };
  const users = DEFAULT_ROLES.map((role) => ({
    id: `u-${role}`,
    displayName: names[role],
    email: `${role}@acme.test`,
    token: role === 'admin' && adminToken ? adminToken : newToken(),
    ...(role === 'admin' ? { sandboxAdmin: true } : {}),
  }));
  users.push({ id: 'u-outsider', displayName: 'Olga Outsider', email: 'olga@globex.test', token: newToken() });
  const t = (i: number) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString();
  return {
    organizations: [
      { id: 'org-acme', title: 'Acme Docs' },
      { id: 'org-globex', title: 'Globex' },
    ],
    users,
    members: [
      ...DEFAULT_ROLES.map((role, i) => ({ organization: 'org-acme', user: `u-${role}`, role: role === 'guest' ? null : role, joinedAt: t(i) })),
      { organization: 'org-globex', user: 'u-admin', role: 'admin' as const, joinedAt: t(0) },
      { organization: 'org-globex', user: 'u-outsider', role: 'admin' as const, joinedAt: t(1) },
    ],
    teams: [
      {
        id: 'team-writers',
        organization: 'org-acme',
        title: 'Writers',
        members: [
          { user: 'u-edit', role: 'owner' },
          { user: 'u-comment', role: 'member' },
        ],
      },
    ],
    collections: [{ id: 'col-handbook', organization: 'org-acme', title: 'Handbook', description: 'How we work' }],
    spaces: [{ id: 'sp-welcome', organization: 'org-acme', title: 'Welcome', emoji: '👋', parent: 'col-handbook' }],
  };
}

export { newId };
