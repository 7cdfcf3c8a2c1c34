/** How teams and their members show in tables and key/value lines (shared by the family's commands). */
import type { Column } from '../../cli/output.js';
import type { Team } from '../../contract/orgs.js';
import type { TeamMember } from '../../contract/teams.js';

export const teamColumns: Column<Team>[] = ['id', 'title', 'members', 'spaces', 'createdAt'];
export const teamFields: Column<Team>[] = [...teamColumns, { key: 'admin', value: (t) => t.permissions.admin }];

export const teamMemberColumns: Column<TeamMember>[] = [
  { key: 'id', value: (m) => m.organization.user.id },
  { key: 'name', value: (m) => m.organization.user.displayName },
  { key: 'email', value: (m) => m.organization.user.email },
  { key: 'role', value: (m) => m.team.role },
  { key: 'orgRole', value: (m) => m.organization.role ?? 'guest' },
];
