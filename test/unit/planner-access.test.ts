/**
 * The access kinds of the planner as functions (issue 26, "Access in the file"): (file, organization)
 * → steps, no HTTP. Teams with their members, the `access:` of collections, spaces and sites, and
 * the organization's settings; creations before the grants that name them, grants taken away before
 * the teams they named are deleted, removals only with --prune.
 */
import { describe, expect, it } from 'vitest';
import type { LAccess, Live, LSettings } from '../../src/orgfile/model.js';
import { buildPlan } from '../../src/orgfile/plan.js';
import { renderPlan } from '../../src/orgfile/render.js';
import { OrgFileError, parseOrgFile } from '../../src/orgfile/source.js';
import type { Step } from '../../src/orgfile/steps.js';
import { liveSite, liveSpace } from '../helpers/live.js';

const members = [
  { id: 'u1', name: 'Rex', role: 'read' as const },
  { id: 'u2', name: 'Ann', role: 'edit' as const },
  { id: 'u3', name: 'Bob', role: 'admin' as const },
];
const settings: LSettings = {
  title: 'Acme',
  emailDomains: ['b.test', 'a.test'],
  defaultRole: 'read',
  sso: false,
  ai: false,
  inviteLinks: true,
  mergeRules: { type: 'none' },
};

function live(parts: Partial<Live> = {}): Live {
  return {
    organization: 'org',
    kinds: new Set(['collections', 'spaces', 'sites', 'teams', 'members', 'saml', 'openapi', 'team-members', 'access', 'organization']),
    collections: [],
    spaces: [],
    sites: [],
    members,
    saml: [],
    openapi: [],
    teams: [],
    settings,
    ...parts,
  };
}

const space = (id: string, title: string, access: LAccess = { users: {}, teams: {} }) => liveSpace(id, title, { access });

/** A step as one line: `phase action kind key: op(params) body`, references as `@name`. */
function line(s: Step): string {
  const text = (v: unknown) => JSON.stringify(v).replace(/\{"\$ref":"([^"]+)"\}/g, '@$1');
  return `${s.phase} ${s.action} ${s.kind} ${s.key}: ${s.requests.map((r) => `${r.op}${text(r.params)}${r.body !== undefined ? ` ${text(r.body)}` : ''}`).join('; ')}`;
}

const MEMBERS = 'members:\n  - { key: rex, id: u1, role: read }\n  - { key: ann, id: u2, role: edit }\n  - { key: bob, id: u3, role: admin }\n';

function plan(yaml: string, from: Live, prune = false) {
  return buildPlan(parseOrgFile(`version: 1\n${yaml}`, 'org.yaml'), from, { prune });
}

describe('the planner, access kinds: (file, organization) → steps', () => {
  const cases: { name: string; file: string; live: Live; prune?: boolean; steps: string[]; kept?: string[] }[] = [
    {
      name: 'nothing to do: teams, members, grants and settings as the organization has them',
      file: `${MEMBERS}teams:\n  - { title: Writers, owners: [ann], members: [rex] }\nspaces:\n  - title: Welcome\n    access: [{ team: writers, role: edit }, { user: rex, role: read }]\norganization: { title: Acme, emailDomains: [a.test, b.test], defaultRole: read }\n`,
      live: live({
        teams: [{ id: 't1', title: 'Writers', members: { u2: 'owner', u1: 'member' } }],
        spaces: [space('s1', 'Welcome', { users: { u1: 'read' }, teams: { t1: 'edit' } })],
      }),
      steps: [],
    },
    {
      name: 'a new team, a new space and a grant of one to the other: the grant names both by reference, after them',
      file: `${MEMBERS}teams:\n  - { title: Support, owners: [bob], members: [rex] }\nspaces:\n  - title: Help\n    access: [{ team: support, role: edit }, { user: ann, role: comment }]\n`,
      live: live(),
      steps: [
        'spaces create space help: createSpace{"organizationId":"org"} {"title":"Help"}',
        'teams create team support: createTeam{"organizationId":"org"} {"title":"Support"}; updateTeamMembers{"organizationId":"org","teamId":@team:support} {"add":["u3","u1"],"memberships":{"u3":{"role":"owner"},"u1":{"role":"member"}}}',
        'grants create grant team support on space help: inviteToSpace{"spaceId":@space:help} {"role":"edit","teams":[@team:support]}',
        'grants create grant user ann on space help: inviteToSpace{"spaceId":@space:help} {"role":"comment","users":["u2"]}',
      ],
    },
    {
      name: 'changes: a team renamed and its roles changed; grants changed on a collection and a site (the site’s params name the organization)',
      file: `${MEMBERS}teams:\n  - { key: writers, id: t1, title: Authors, owners: [rex, ann] }\ncollections:\n  - title: Guides\n    access: [{ user: rex, role: edit }]\nsites:\n  - title: Docs\n    access: [{ team: writers, role: read }]\n`,
      live: live({
        teams: [{ id: 't1', title: 'Writers', members: { u1: 'member', u2: 'owner' } }],
        collections: [{ id: 'c1', title: 'Guides', defaultLevel: 'inherit', access: { users: { u1: 'read' }, teams: {} } }],
        sites: [liveSite('st1', 'Docs', { access: { users: {}, teams: { t1: 'comment' } } })],
      }),
      steps: [
        'teams update team writers: updateTeam{"organizationId":"org","teamId":"t1"} {"title":"Authors"}; updateTeamMembers{"organizationId":"org","teamId":"t1"} {"memberships":{"u1":{"role":"owner"}}}',
        'grants update grant user rex on collection guides: updateUserPermissionInCollection{"collectionId":"c1","userId":"u1"} {"role":"edit"}',
        'grants update grant team writers on site docs: updateTeamPermissionInSite{"organizationId":"org","siteId":"st1","teamId":"t1"} {"role":"read"}',
      ],
    },
    {
      name: 'without --prune nothing is taken away: members and grants the file does not list are kept',
      file: `${MEMBERS}teams:\n  - { key: writers, id: t1, title: Writers, members: [] }\nspaces:\n  - title: Welcome\n    access: []\n`,
      live: live({
        teams: [
          { id: 't1', title: 'Writers', members: { u1: 'member' } },
          { id: 't2', title: 'Old', members: {} },
        ],
        spaces: [space('s1', 'Welcome', { users: { u2: 'edit' }, teams: { t2: 'read' } })],
      }),
      steps: [],
      kept: ['team-member writers/rex', 'team old', 'grant user ann on space welcome', 'grant team old on space welcome'],
    },
    {
      name: 'with --prune: grants taken away first, then the team they named deleted (bottom-up); a member out of a team',
      file: `${MEMBERS}teams:\n  - { key: writers, id: t1, title: Writers, members: [] }\nspaces:\n  - title: Welcome\n    access: []\n`,
      live: live({
        teams: [
          { id: 't1', title: 'Writers', members: { u1: 'member' } },
          { id: 't2', title: 'Old', members: {} },
        ],
        spaces: [space('s1', 'Welcome', { users: { u2: 'edit' }, teams: { t2: 'read' } })],
      }),
      prune: true,
      steps: [
        'teams update team writers: updateTeamMembers{"organizationId":"org","teamId":"t1"} {"remove":["u1"]}',
        'delete-grants delete grant user ann on space welcome: removeUserFromSpace{"spaceId":"s1","userId":"u2"}',
        'delete-grants delete grant team old on space welcome: removeTeamFromSpace{"spaceId":"s1","teamId":"t2"}',
        'delete-teams delete team old: deleteTeam{"organizationId":"org","teamId":"t2"}',
      ],
    },
    {
      name: 'an item without access: keeps its grants, even with --prune; a file without teams: never deletes a team',
      file: 'spaces:\n  - title: Welcome\n',
      live: live({ teams: [{ id: 't1', title: 'Writers' }], spaces: [space('s1', 'Welcome', { users: { u2: 'edit' }, teams: { t1: 'read' } })] }),
      prune: true,
      steps: [],
    },
    {
      name: 'settings: only the fields given, email domains as a set, merge rules and the default site by key',
      file: `${MEMBERS}sites:\n  - { key: docs, id: st1, title: Docs }\norganization:\n  title: Acme Docs\n  emailDomains: [a.test, b.test]\n  defaultRole: guest\n  defaultSite: docs\n  mergeRules: { type: rules, rules: [{ rule: require_specific_reviewers, users: [ann] }] }\n`,
      live: live({
        sites: [liveSite('st1', 'Docs')],
      }),
      steps: [
        'settings update organization org: updateOrganization{"organizationId":"org"} {"title":"Acme Docs","defaultRole":null,"defaultContent":{"type":"site","site":"st1"},"mergeRules":{"type":"rules","rules":[{"rule":"require_specific_reviewers","users":["u2"]}]}}',
      ],
    },
    {
      name: 'a SAML provider’s default team made by the same apply: named by reference, in a later phase',
      file: 'teams:\n  - title: Support\nsaml:\n  - { label: Okta, defaultTeam: support }\n',
      live: live(),
      steps: [
        'teams create team support: createTeam{"organizationId":"org"} {"title":"Support"}',
        'organization create saml okta: createSamlProvider{"organizationId":"org"} {"label":"Okta","defaultTeam":@team:support}',
      ],
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      const p = plan(c.file, c.live, c.prune);
      expect(p.steps.map(line)).toEqual(c.steps);
      if (c.kept) expect(p.kept.map((k) => `${k.kind} ${k.key}`)).toEqual(c.kept);
    });
  }

  it('a grant to someone who is not a member, or a team member who is not one, is what apply cannot make', () => {
    const p = plan(
      'members:\n  - { key: zed, id: u9, role: read }\nteams:\n  - { title: T, members: [zed] }\nspaces:\n  - title: W\n    access: [{ user: zed, role: read }]\n',
      live({ spaces: [space('s1', 'W')] }),
    );
    expect(p.steps.map(line)).toEqual(['teams create team t: createTeam{"organizationId":"org"} {"title":"T"}']);
    expect(p.drift.map((d) => `${d.kind} ${d.key}`)).toEqual(['team-member t/zed', 'member zed', 'grant user zed on space w']);
  });

  it('references to members and teams the files do not declare are checked against the organization, at their place', () => {
    try {
      plan(
        'spaces:\n  - title: W\n    access:\n      - { user: rexx, role: read }\n      - { team: writerz, role: edit }\n',
        live({ teams: [{ id: 't1', title: 'Writers' }] }),
      );
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(OrgFileError);
      expect((e as OrgFileError).problems.map((p) => `${p.where}: ${p.path}: ${p.message}`)).toEqual([
        'org.yaml:5:17: spaces[0].access[0].user: no member with key "rexx" in the files or in organization org (did you mean "rex"?)',
        'org.yaml:6:17: spaces[0].access[1].team: no team with key "writerz" in the files or in organization org (did you mean "writers"?)',
      ]);
    }
  });

  it('a plan reads: teams, the organization’s settings and access each under their heading', () => {
    const p = plan(
      `${MEMBERS}teams:\n  - { key: writers, id: t1, title: Writers, members: [rex] }\nspaces:\n  - title: Welcome\n    access: [{ team: writers, role: edit }]\norganization: { title: Acme Docs }\n`,
      live({ teams: [{ id: 't1', title: 'Writers', members: { u2: 'member' } }], spaces: [space('s1', 'Welcome', { users: {}, teams: { t1: 'read' } })] }),
      true,
    );
    expect(renderPlan(p)).toContain(
      [
        'Teams:',
        '  ~ team writers (Writers)',
        '      member rex: (none) → "member"',
        '      member ann: "member" → (none)',
        '',
        'Organization settings:',
        '  ~ organization org (Acme)',
        '      title: "Acme" → "Acme Docs"',
        '',
        'Access:',
        '  ~ grant team writers on space welcome',
        '      role: "read" → "edit"',
      ].join('\n'),
    );
  });
});
