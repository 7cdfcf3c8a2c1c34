/**
 * Teams: created (then their members added, in one request), renamed, their membership made the
 * file's (members added, team roles set; members the file does not list removed with --prune),
 * deleted with --prune (after the grants that named them: phase delete-teams).
 */
import { ops as teamOps } from '../../contract/teams.js';
import { ref, request, type Drift, type FieldChange, type Kept, type Step, type StepRequest } from '../steps.js';
import { step } from './common.js';
import type { KindDiff, PlanContext } from './context.js';

type TeamRole = 'owner' | 'member';

export function diffTeams(c: PlanContext): KindDiff {
  const { desired, live, prune, keys, org, keyOfId, memberKeyToUser, liveMember } = c;
  const { teamOf } = c.matched;
  const steps: Step[] = [];
  const drift: Drift[] = [];
  const kept: Kept[] = [];
  const memberKey = (userId: string) => keyOfId.member.get(userId) ?? userId;

  for (const d of desired.teams) {
    const l = teamOf.get(d);
    // The members the file wants, by user id; one who is not a member of the organization cannot be in a team.
    const want = new Map<string, TeamRole>();
    for (const m of d.members ?? []) {
      const user = memberKeyToUser.get(m.key);
      if (user !== undefined && liveMember.has(user)) want.set(user, m.role);
      else
        drift.push({
          kind: 'team-member',
          key: `${d.key}/${m.key}`,
          why: `${m.key} is not a member of organization ${live.organization}: only members are in teams (members join by invitation)`,
        });
    }
    if (!l) {
      const fields: FieldChange[] = [{ field: 'title', to: d.title }, ...memberFields(new Map(), want, memberKey)];
      const teamId = ref(`team:${d.key}`);
      steps.push(
        step('teams', { kind: 'team', action: 'create', key: d.key, title: d.title, fields }, [
          { ...request(teamOps.createTeam, { organizationId: org }, { title: d.title }), saves: { [`team:${d.key}`]: 'id' } },
          ...(want.size ? [membersRequest(org, teamId, new Map(), want, [])] : []),
        ]),
      );
      continue;
    }
    const requests: StepRequest[] = [];
    const fields: FieldChange[] = [];
    if (d.title !== l.title) {
      fields.push({ field: 'title', from: l.title, to: d.title });
      requests.push(request(teamOps.updateTeam, { organizationId: org, teamId: l.id }, { title: d.title }));
    }
    if (d.members !== undefined) {
      const have = new Map(Object.entries(l.members ?? {}));
      const gone = [...have.keys()].filter((u) => !want.has(u));
      if (!prune) for (const u of gone) kept.push({ kind: 'team-member', key: `${d.key}/${memberKey(u)}`, id: u });
      const removed = prune ? gone : [];
      const changes = memberFields(have, want, memberKey, removed);
      if (changes.length) {
        fields.push(...changes);
        requests.push(membersRequest(org, l.id, have, want, removed));
      }
    }
    if (requests.length) steps.push(step('teams', { kind: 'team', action: 'update', key: d.key, id: l.id, title: l.title, fields }, requests));
  }

  const matched = new Set([...teamOf.values()].map((l) => l.id));
  for (const t of live.teams) {
    if (matched.has(t.id) || !c.owned.whole('teams')) continue;
    const item = { kind: 'team' as const, key: keys.team.get(t.id)!, id: t.id, title: t.title };
    if (!prune) kept.push(item);
    else
      steps.push(
        step('delete-teams', { ...item, action: 'delete', note: 'its members lose what it was granted (grants on content the file does not manage too)' }, [
          request(teamOps.deleteTeam, { organizationId: org, teamId: t.id }),
        ]),
      );
  }
  return { steps, drift, kept };
}

/** One line per member that changes: `member rex-reader: (none) → "member"`, `owner`, removed `→ (none)`. */
function memberFields(have: Map<string, TeamRole>, want: Map<string, TeamRole>, keyOf: (u: string) => string, removed: string[] = []): FieldChange[] {
  const out: FieldChange[] = [];
  for (const [u, role] of want) if (have.get(u) !== role) out.push({ field: `member ${keyOf(u)}`, from: have.get(u), to: role });
  for (const u of removed) out.push({ field: `member ${keyOf(u)}`, from: have.get(u), to: undefined });
  return out;
}

/** The one request that makes a team's membership: users added, team roles set, users removed. */
function membersRequest(
  org: string,
  teamId: string | { $ref: string },
  have: Map<string, TeamRole>,
  want: Map<string, TeamRole>,
  removed: string[],
): StepRequest {
  const add = [...want.keys()].filter((u) => !have.has(u));
  const memberships = Object.fromEntries([...want].filter(([u, role]) => have.get(u) !== role).map(([u, role]) => [u, { role }]));
  return request(
    teamOps.updateTeamMembers,
    { organizationId: org, teamId },
    {
      ...(add.length ? { add } : {}),
      ...(Object.keys(memberships).length ? { memberships } : {}),
      ...(removed.length ? { remove: removed } : {}),
    },
  );
}
