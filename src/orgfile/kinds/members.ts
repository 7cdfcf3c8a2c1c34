/** Members: roles changed; removed with --prune (never the one whose token applies); who is not a member is drift. */
import { ops as memberOps } from '../../contract/members.js';
import { request, type Change, type Drift, type Kept, type Step } from '../steps.js';
import { step } from './common.js';
import type { KindDiff, PlanContext } from './context.js';

export function diffMembers(c: PlanContext): KindDiff {
  const { desired, live, prune, keys, org, liveMember } = c;
  const steps: Step[] = [];
  const drift: Drift[] = [];
  const kept: Kept[] = [];
  for (const d of desired.members) {
    const l = liveMember.get(d.id);
    if (!l) {
      drift.push({
        kind: 'member',
        key: d.key,
        id: d.id,
        why: `user ${d.id} is not a member of organization ${live.organization}: members join by invitation, which the API does not offer`,
      });
      continue;
    }
    if (d.role !== l.role) {
      const change: Change = {
        kind: 'member',
        action: 'update',
        key: d.key,
        id: d.id,
        title: l.name,
        fields: [{ field: 'role', from: l.role ?? 'guest', to: d.role ?? 'guest' }],
      };
      steps.push(step('organization', change, [request(memberOps.updateMember, { organizationId: org, userId: d.id }, { role: d.role })]));
    }
  }
  const inFile = new Set(desired.members.map((m) => m.id));
  for (const m of live.members) {
    if (inFile.has(m.id) || !c.owned.whole('members')) continue;
    const item = { kind: 'member' as const, key: keys.member.get(m.id)!, id: m.id, title: m.name };
    if (!prune) kept.push(item);
    else if (m.id === live.me) drift.push({ ...item, why: 'you are not in the file, and apply never removes the member whose token it uses' });
    else {
      steps.push(
        step(
          'delete-organization',
          {
            ...item,
            action: 'delete',
            note: 'removed from the organization',
            irreversible: 'they must be invited again to come back (their role and grants are gone)',
          },
          [request(memberOps.removeMember, { organizationId: org, userId: m.id })],
        ),
      );
    }
  }
  return { steps, drift, kept };
}
