import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/content.js';
import { pageFields } from './columns.js';
import { resolvePage } from './lookup.js';

export default defineCommand({
  name: 'page',
  summary: 'Show one page, by id or path; with --markdown print its Markdown, ready to pipe to a file',
  args: [
    { name: 'space', description: 'space id' },
    { name: 'page', description: 'page id, or its path (e.g. getting-started/install)' },
  ],
  flags: {
    markdown: { type: 'boolean', description: 'print the page as Markdown (with --json: the page with its markdown field)' },
    evaluated: { type: 'boolean', description: 'replace variables such as {{ space.vars.name }} by their values' },
  },
  examples: [
    'docsctl content page sp_123 getting-started/install',
    'docsctl content page sp_123 getting-started --markdown > getting-started.md',
    'docsctl content page sp_123 pg_456 --json | jq .document',
  ],
  output: { fields: pageFields },
  async run(ctx, { args, flags }) {
    const api = await ctx.api();
    const { id } = await resolvePage(api, args.space, args.page);
    const page = await api.call(ops.getSpacePage, {
      params: { spaceId: args.space, pageId: id },
      query: { format: flags.markdown ? 'markdown' : 'document', ...(flags.evaluated ? { evaluated: 'true' } : {}) },
    });
    return flags.markdown && !flags.json && !flags.fields ? (page.markdown ?? '') : page;
  },
});
