import { defineCommand, defineGroup } from '../../cli/command.js';
import type { Column } from '../../cli/output.js';
import { ops, type Organization } from '../../contract/orgs.js';

const columns: Column<Organization>[] = ['id', 'title', 'plan', 'createdAt'];

const list = defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the organizations your token belongs to',
  examples: ['docsctl orgs list', 'docsctl orgs list --json | jq -r ".[].id"'],
  list: true,
  output: { columns },
  async run(ctx, { flags }) {
    const api = await ctx.api();
    return api.paginate(ops.listOrganizations, {}, flags.page);
  },
});

const get = defineCommand({
  name: 'get',
  aliases: ['view'],
  summary: 'Show an organization (the current one by default)',
  args: [{ name: 'organization', description: 'organization id (default: --org or the profile’s)', optional: true }],
  examples: ['docsctl orgs get', 'docsctl orgs get org_123 --json'],
  output: { fields: ['id', 'title', 'plan', 'defaultRole', 'createdAt', { key: 'app', header: 'url', value: (o: Organization) => o.urls.app }] },
  async run(ctx, { args }) {
    const api = await ctx.api();
    return api.call(ops.getOrganization, { params: { organizationId: args.organization ?? (await ctx.org()) } });
  },
});

export default defineGroup({ name: 'orgs', summary: 'Organizations you belong to', commands: [list, get] });
