import { checkBody, defineCommand } from '../../cli/command.js';
import { UsageError } from '../../cli/errors.js';
import { MEMBER_ROLES, ops } from '../../contract/members.js';
import { ROLES, type Role } from '../../contract/op.js';
import { memberFields } from './columns.js';
import { question } from '../prompts.js';

/** Higher is more: admin 6 … read 1, guest 0. */
function rank(role: Role | null): number {
  return role === null ? 0 : ROLES.length - ROLES.indexOf(role);
}

export default defineCommand({
  name: 'set-role',
  summary: 'Change a member’s role (guest removes it); lowering a role asks for confirmation',
  args: [
    { name: 'user', description: 'user id of the member' },
    { name: 'role', description: `new role: ${MEMBER_ROLES.join(', ')}`, choices: MEMBER_ROLES },
  ],
  examples: ['docsctl members set-role u_123 edit', 'docsctl members set-role u_123 guest --yes'],
  destructive: true,
  output: { fields: memberFields },
  async run(ctx, { args, flags }) {
    if (!(MEMBER_ROLES as readonly string[]).includes(args.role)) {
      throw new UsageError(`<role>: must be one of ${MEMBER_ROLES.join(', ')}; got ${JSON.stringify(args.role)}`);
    }
    const role = args.role === 'guest' ? null : (args.role as Role);
    const body = checkBody(ops.updateMember, { role }, { role: '<role>' });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    const params = { organizationId, userId: args.user };
    const current = await api.call(ops.getMember, { params });
    if (rank(role) < rank(current.role)) {
      await ctx.confirm(
        question({ verb: 'Lower', kind: 'member', id: args.user, rest: `from ${current.role ?? 'guest'} to ${args.role}` }, current.user.displayName),
        flags.yes,
      );
    }
    return api.call(ops.updateMember, { params, body });
  },
});
