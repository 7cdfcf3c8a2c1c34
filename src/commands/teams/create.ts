import { checkBody, defineCommand } from '../../cli/command.js';
import { ops, teamTitle } from '../../contract/teams.js';
import { characters, lengthBounds, listValues } from '../flags.js';
import { requiredText } from '../prompts.js';
import { teamFields } from './columns.js';

export default defineCommand({
  name: 'create',
  aliases: ['new'],
  summary: 'Create a team (admins), with members if given',
  flags: {
    title: { description: `title of the team (${characters(teamTitle)})`, value: 'title' },
    member: { type: 'list', description: 'user id of a member to put in it (repeatable, or comma-separated)', value: 'user' },
  },
  examples: ['docsctl teams create --title Writers', 'docsctl teams create --title Writers --member u_ada,u_bob'],
  output: { fields: teamFields },
  async run(ctx, { flags }) {
    const title = await requiredText(ctx, flags.title, {
      flag: '--title',
      label: 'Title',
      ...lengthBounds(teamTitle),
      example: 'docsctl teams create --title Writers',
    });
    const members = flags.member ? listValues(flags.member) : undefined;
    const body = checkBody(ops.createTeam, { title, members }, { members: '--member' });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.createTeam, { params: { organizationId }, body });
  },
});
