import { checkBody, defineCommand } from '../../cli/command.js';
import { ops, crSubject } from '../../contract/change-requests.js';
import { crFields } from './columns.js';
import { requiredText } from '../prompts.js';
import { characters, lengthBounds } from '../flags.js';

export default defineCommand({
  name: 'create',
  summary: 'Open a change request on a space (it starts as a draft, from the space’s current revision)',
  description:
    'A subject is required (the API would open an untitled change request): asked for on a terminal when --subject is missing or blank, a usage error (exit 2) otherwise.',
  args: [{ name: 'space', description: 'space id' }],
  flags: {
    subject: { description: `subject (${characters(crSubject)}; required, asked for on a terminal)`, value: 'text' },
    template: { description: 'start its content with this template (e.g. getting-started)', value: 'id' },
    conversationsIssuesCluster: { description: 'id of the issues cluster it addresses (a sandbox extension: the service ignores it)', value: 'id' },
  },
  examples: [
    'docsctl cr create sp_123 --subject "Rewrite the quickstart"',
    'docsctl cr create sp_123 --subject Typos --json | jq .number',
    'docsctl cr create sp_123 --subject "API docs" --template api-reference',
  ],
  output: { fields: crFields },
  async run(ctx, { args, flags }) {
    const subject = await requiredText(ctx, flags.subject, {
      flag: '--subject',
      label: 'Subject',
      ...lengthBounds(crSubject),
      example: `docsctl cr create ${args.space} --subject "Rewrite the quickstart"`,
    });
    const body = checkBody(
      ops.createChangeRequest,
      {
        subject,
        template: flags.template === undefined ? undefined : { id: flags.template },
        conversationsIssuesCluster: flags.conversationsIssuesCluster,
      },
      { template: '--template' },
    );
    const api = await ctx.api();
    return api.call(ops.createChangeRequest, { params: { spaceId: args.space }, body });
  },
});
