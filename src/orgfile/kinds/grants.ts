/**
 * Grants: the `access:` of collections, spaces and sites (docs/org-as-code.md, "Access"). For each
 * item whose access the file gives: a grant it lacks is given (phase grants, after the content and
 * the teams it names are made), a role that differs is changed, and a grant the file does not list
 * is taken away with --prune (phase delete-grants, before teams are deleted), else kept. An item
 * without `access:` keeps its grants, whatever they are.
 */
import type { Role } from '../../contract/op.js';
import { ops as permissionOps } from '../../contract/permissions.js';
import type { DGrant, LAccess } from '../model.js';
import { request, type Drift, type IdRef, type Kept, type Step, type StepRequest } from '../steps.js';
import { step } from './common.js';
import type { KindDiff, PlanContext } from './context.js';

type Target = 'collection' | 'space' | 'site';
type Principal = 'user' | 'team';

/** The requests of one kind of target: give, change, take away. */
function requestsOf(target: Target, org: string, id: string | IdRef) {
  const base: Record<string, string | IdRef> =
    target === 'collection' ? { collectionId: id } : target === 'space' ? { spaceId: id } : { organizationId: org, siteId: id };
  const ops =
    target === 'collection'
      ? {
          invite: permissionOps.inviteToCollection,
          user: permissionOps.updateUserPermissionInCollection,
          team: permissionOps.updateTeamPermissionInCollection,
          removeUser: permissionOps.removeUserFromCollection,
          removeTeam: permissionOps.removeTeamFromCollection,
        }
      : target === 'space'
        ? {
            invite: permissionOps.inviteToSpace,
            user: permissionOps.updateUserPermissionInSpace,
            team: permissionOps.updateTeamPermissionInSpace,
            removeUser: permissionOps.removeUserFromSpace,
            removeTeam: permissionOps.removeTeamFromSpace,
          }
        : {
            invite: permissionOps.inviteToSite,
            user: permissionOps.updateUserPermissionInSite,
            team: permissionOps.updateTeamPermissionInSite,
            removeUser: permissionOps.removeUserFromSite,
            removeTeam: permissionOps.removeTeamFromSite,
          };
  const who = (p: Principal, pid: string | IdRef): Record<string, string | IdRef> => ({ [p === 'user' ? 'userId' : 'teamId']: pid });
  return {
    give: (p: Principal, pid: string | IdRef, role: Role): StepRequest =>
      request(ops.invite, base, { role, ...(p === 'user' ? { users: [pid] } : { teams: [pid] }) }),
    change: (p: Principal, pid: string | IdRef, role: Role): StepRequest => request(p === 'user' ? ops.user : ops.team, { ...base, ...who(p, pid) }, { role }),
    take: (p: Principal, pid: string): StepRequest => request(p === 'user' ? ops.removeUser : ops.removeTeam, { ...base, ...who(p, pid) }),
  };
}

export function diffGrants(c: PlanContext): KindDiff {
  const { desired, org, memberKeyToUser, liveMember, keyOfId, prune, live } = c;
  const { collectionOf, spaceOf, siteOf } = c.matched;
  const steps: Step[] = [];
  const drift: Drift[] = [];
  const kept: Kept[] = [];

  const targets: { target: Target; key: string; access: DGrant[]; id: string | IdRef; have: LAccess }[] = [];
  const none: LAccess = { users: {}, teams: {} };
  for (const [target, items, matched] of [
    ['collection', desired.collections, collectionOf],
    ['space', desired.spaces, spaceOf],
    ['site', desired.sites, siteOf],
  ] as const) {
    for (const d of items) {
      if (d.access === undefined) continue;
      const l = (matched as Map<typeof d, { id: string; access?: LAccess }>).get(d);
      targets.push({ target, key: d.key, access: d.access, id: l ? l.id : c.idRef(`${target}:${d.key}`), have: l?.access ?? none });
    }
  }

  for (const t of targets) {
    const on = `on ${t.target} ${t.key}`;
    const r = requestsOf(t.target, org, t.id);
    const listed = { user: new Set<string>(), team: new Set<string>() };
    for (const g of t.access) {
      const key = `${g.principal} ${g.key} ${on}`;
      let pid: string | IdRef;
      let role: Role | undefined;
      if (g.principal === 'user') {
        const user = memberKeyToUser.get(g.key);
        if (user === undefined || !liveMember.has(user)) {
          drift.push({
            kind: 'grant',
            key,
            why: `${g.key} is not a member of organization ${live.organization}: grants are given to members (members join by invitation)`,
          });
          continue;
        }
        pid = user;
        role = t.have.users[user];
        listed.user.add(user);
      } else {
        pid = c.idRef(`team:${g.key}`);
        if (typeof pid === 'string') {
          role = t.have.teams[pid];
          listed.team.add(pid);
        }
      }
      if (role === g.role) continue;
      steps.push(
        step(
          'grants',
          role === undefined
            ? { kind: 'grant', action: 'create', key, fields: [{ field: 'role', to: g.role }] }
            : { kind: 'grant', action: 'update', key, fields: [{ field: 'role', from: role, to: g.role }] },
          [role === undefined ? r.give(g.principal, pid, g.role) : r.change(g.principal, pid, g.role)],
        ),
      );
    }
    // The grants the file does not list: taken away with --prune.
    const unlisted = (p: Principal, have: Record<string, Role>, keyOf: (id: string) => string) => {
      for (const [pid, role] of Object.entries(have)) {
        if (listed[p].has(pid)) continue;
        const key = `${p} ${keyOf(pid)} ${on}`;
        if (!prune) kept.push({ kind: 'grant', key, id: pid });
        else
          steps.push(step('delete-grants', { kind: 'grant', action: 'delete', key, fields: [{ field: 'role', from: role, to: undefined }] }, [r.take(p, pid)]));
      }
    };
    unlisted('user', t.have.users, (id) => keyOfId.member.get(id) ?? id);
    unlisted('team', t.have.teams, (id) => keyOfId.team.get(id) ?? id);
  }
  return { steps, drift, kept };
}
