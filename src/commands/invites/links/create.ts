import { checkBody, defineCommand } from '../../../cli/command.js';
import { UsageError } from '../../../cli/errors.js';
import { MEMBER_ROLES } from '../../../contract/members.js';
import { ops } from '../../../contract/invites.js';
import { roleOrGuest } from '../../flags.js';
import { linkColumns } from '../columns.js';

export default defineCommand({
  name: 'create',
  aliases: ['new'],
  summary: 'Create an invite link: to the organization with a role, or to a space or collection with a level',
  flags: {
    role: {
      description: 'the role in the organization it gives (guest: none)',
      value: 'role',
      choices: MEMBER_ROLES,
      conflicts: ['level', 'space', 'collection'],
    },
    space: { description: 'a link to this space (with --level)', value: 'space', conflicts: ['collection'] },
    collection: { description: 'a link to this collection (with --level)', value: 'collection' },
    level: { description: 'the role on the space or collection it gives', value: 'role', choices: MEMBER_ROLES },
  },
  examples: [
    'docsctl invites links create --role read',
    'docsctl invites links create --space sp_123 --level comment',
    'docsctl invites links create --collection col_123 --level edit --json | jq -r .id',
  ],
  output: { fields: linkColumns },
  async run(ctx, { flags }) {
    const onContent = flags.space !== undefined || flags.collection !== undefined;
    if (!onContent && flags.role === undefined) {
      throw new UsageError(
        flags.level !== undefined ? '--level: give it with --space or --collection' : 'missing --role (or --space/--collection with --level)',
        'docsctl invites links create --role read',
      );
    }
    if (onContent && flags.level === undefined) throw new UsageError(`missing --level: the role the link gives on the ${flags.space ? 'space' : 'collection'}`);
    const body = onContent
      ? checkBody(ops.createInviteLink, { level: roleOrGuest(flags.level), space: flags.space, collection: flags.collection })
      : checkBody(ops.createInviteLink, { role: roleOrGuest(flags.role) });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.createInviteLink, { params: { organizationId }, body });
  },
});
