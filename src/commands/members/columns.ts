/** How members, their spaces and their teams show in tables and key/value lines. */
import { withExtras, type Column } from '../../cli/output.js';
import type { Member, MemberSpace, MemberTeam } from '../../contract/members.js';

const role: Column<Member> = { key: 'role', value: (m) => m.role ?? 'guest' };

export const memberFields: Column<Member>[] = [
  'id',
  { key: 'name', value: (m) => m.user.displayName },
  { key: 'email', value: (m) => m.user.email },
  role,
  'disabled',
  'sso',
  'joinedAt',
  'lastSeenAt',
  'spaces',
  'teams',
  'sites',
];
export const memberColumns: Column<Member>[] = withExtras(
  ['id', { key: 'name', value: (m) => m.user.displayName }, { key: 'email', value: (m) => m.user.email }, role, 'joinedAt', 'lastSeenAt', 'sso'],
  memberFields,
);
export const memberSpaceColumns: Column<MemberSpace>[] = [
  { key: 'id', value: (i) => i.space.id },
  { key: 'title', value: (i) => i.space.title },
  'permission',
  { key: 'visibility', value: (i) => i.space.visibility },
  { key: 'parent', value: (i) => i.space.parent },
];
export const memberTeamColumns: Column<MemberTeam>[] = [
  { key: 'id', value: (i) => i.team.id },
  { key: 'title', value: (i) => i.team.title },
  { key: 'role', value: (i) => i.member.role },
  { key: 'members', value: (i) => i.team.members },
];
