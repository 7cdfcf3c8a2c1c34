import { checkQuery, defineCommand } from '../../cli/command.js';
import { colours } from '../../cli/output.js';
import { ops, type PublishedSite } from '../../contract/sites.js';
import { nodesOf, publishedTree } from './tree.js';

const count = (object: string) => (p: PublishedSite) => nodesOf(p).filter((n) => n.object === object).length;

export default defineCommand({
  name: 'published',
  summary: 'Show a site as it is published: its sections, groups and site spaces (a tree on a terminal)',
  args: [{ name: 'site', description: 'site id' }],
  flags: { shareKey: { description: 'the key of a share-link site, as a visitor brings it', value: 'key' } },
  examples: ['docsctl sites published site_123', 'docsctl sites published site_123 --json | jq .structure'],
  output: {
    fields: [
      { key: 'id', value: (p: PublishedSite) => p.site.id },
      { key: 'title', value: (p: PublishedSite) => p.site.title },
      { key: 'published', value: (p: PublishedSite) => p.site.published },
      { key: 'visibility', value: (p: PublishedSite) => p.site.visibility },
      { key: 'url', value: (p: PublishedSite) => p.site.urls.published },
      { key: 'structure', value: (p: PublishedSite) => p.structure.type },
      { key: 'sections', value: count('site-section') },
      { key: 'siteSpaces', value: count('site-space') },
    ],
    human: async (p: PublishedSite, ctx) => publishedTree(p, (await colours(ctx)).paint.dim),
  },
  async run(ctx, { args, flags }) {
    const query = checkQuery(ops.getPublishedSite, { shareKey: flags.shareKey });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.getPublishedSite, { params: { organizationId, siteId: args.site }, query });
  },
});
