/**
 * Reading what the organization file's access kinds need (docs/org-as-code.md, "Access"): the
 * members of each team, the user and team grants on each collection, space and site read, and the
 * organization's own settings. Every request through the reader's pool.
 */
import type { Role } from '../contract/op.js';
import { ops as orgOps } from '../contract/orgs.js';
import { ops as permissionOps } from '../contract/permissions.js';
import { ops as teamOps } from '../contract/teams.js';
import type { CallInput } from '../client/api.js';
import type { AnyOp, OpItem, OpResult } from '../contract/op.js';
import type { LAccess, Live, LSettings, LTeam } from './model.js';

/** What reading needs of live.ts's Reader (named here: live.ts imports this module). */
interface Reader {
  call<O extends AnyOp>(op: O, input?: CallInput<O>): Promise<OpResult<O>>;
  all<O extends AnyOp>(op: O, input?: CallInput<O>): Promise<OpItem<O>[]>;
}
type ReadProgress = (what: string) => void;

/** Each team's members with their team role (user id → role), in the order the service lists them. */
export async function readTeamMembers(reader: Reader, organizationId: string, teams: LTeam[]): Promise<void> {
  await Promise.all(
    teams.map(async (t) => {
      const members = await reader.all(teamOps.listTeamMembers, { params: { organizationId, teamId: t.id } });
      t.members = Object.fromEntries(members.map((m) => [m.organization.user.id, m.team.role]));
    }),
  );
}

type Grant = { permission: Role | null; user?: { id: string }; team?: { id: string } };

/** The grants of users and teams as a plan compares them (a site's `null` override gives nothing, and is left out). */
function accessOf(users: Grant[], teams: Grant[]): LAccess {
  const out: LAccess = { users: {}, teams: {} };
  for (const g of users) if (g.permission !== null && g.user) out.users[g.user.id] = g.permission;
  for (const g of teams) if (g.permission !== null && g.team) out.teams[g.team.id] = g.permission;
  return out;
}

/** The grants on every collection, space and site of `live` (two lists each). */
export async function readAccess(reader: Reader, organizationId: string, live: Live, progress?: ReadProgress): Promise<void> {
  const both = async (users: Promise<Grant[]>, teams: Promise<Grant[]>) => accessOf(...(await Promise.all([users, teams])));
  await Promise.all([
    ...live.collections.map(async (c) => {
      const params = { collectionId: c.id };
      c.access = await both(
        reader.all(permissionOps.listUserPermissionsInCollection, { params }),
        reader.all(permissionOps.listTeamPermissionsInCollection, { params }),
      );
    }),
    ...live.spaces.map(async (s) => {
      const params = { spaceId: s.id };
      s.access = await both(reader.all(permissionOps.listUserPermissionsInSpace, { params }), reader.all(permissionOps.listTeamPermissionsInSpace, { params }));
    }),
    ...live.sites.map(async (s) => {
      const params = { organizationId, siteId: s.id };
      s.access = await both(reader.all(permissionOps.listUserPermissionsInSite, { params }), reader.all(permissionOps.listTeamPermissionsInSite, { params }));
    }),
  ]);
  progress?.('grants');
}

/** The organization's settings, as the file manages them. */
export async function readSettings(reader: Reader, organizationId: string): Promise<LSettings> {
  const o = await reader.call(orgOps.getOrganization, { params: { organizationId } });
  return {
    title: o.title,
    emailDomains: o.emailDomains,
    ...(o.hostname ? { hostname: o.hostname } : {}),
    defaultRole: o.defaultRole ?? null,
    ...(o.defaultContent ? { defaultSite: o.defaultContent.site } : {}),
    ...(o.urls.logo ? { logo: o.urls.logo } : {}),
    sso: o.sso,
    ai: o.ai,
    inviteLinks: o.inviteLinks,
    mergeRules: o.mergeRules,
  };
}
