import { checkBody, defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/change-requests.js';
import { crFields } from './columns.js';

export default defineCommand({
  name: 'create',
  summary: 'Open a change request on a space (it starts as a draft, from the space’s current revision)',
  args: [{ name: 'space', description: 'space id' }],
  flags: {
    subject: { description: 'subject (at most 100 characters)', value: 'text' },
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
    const body = checkBody(ops.createChangeRequest, {
      subject: flags.subject,
      template: flags.template === undefined ? undefined : { id: flags.template },
      conversationsIssuesCluster: flags.conversationsIssuesCluster,
    }, { template: '--template' });
    const api = await ctx.api();
    return api.call(ops.createChangeRequest, { params: { spaceId: args.space }, body });
  },
});
