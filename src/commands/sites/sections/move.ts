import { defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/sites.js';
import { sectionFields } from '../columns.js';
import { lastFlag, siteMoveBody } from '../../move.js';

export default defineCommand({
  name: 'move',
  summary: 'Move a section next to another section or group (it joins that one’s group, if any), or to the end of the site',
  args: [
    { name: 'site', description: 'site id' },
    { name: 'section', description: 'section id' },
  ],
  flags: {
    before: { description: 'place it just before this section or group', value: 'id' },
    after: { description: 'place it just after this section or group', value: 'id' },
    last: lastFlag('move it to the end of the site’s top level', ['before', 'after']),
  },
  examples: [
    'docsctl sites sections move site_123 sec_456 --before sec_789',
    'docsctl sites sections move site_123 sec_456 --after grp_1',
    'docsctl sites sections move site_123 sec_456 --after sec_1 --before sec_2   # between two neighbours',
    'docsctl sites sections move site_123 sec_456 --last',
  ],
  output: { fields: sectionFields },
  async run(ctx, { args, flags }) {
    const ref = (id: string) => ({ type: 'site-section', siteSection: id });
    const checked = siteMoveBody(ops.moveSiteSection, flags, { before: { before: ref }, after: { after: ref } });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.moveSiteSection, { params: { organizationId, siteId: args.site, siteSectionId: args.section }, body: checked });
  },
});
