import { checkBody, defineCommand } from '../../../cli/command.js';
import { UsageError } from '../../../cli/errors.js';
import { ops, sectionTitle } from '../../../contract/sites.js';
import { sectionFields } from '../columns.js';
import { spaceChoice } from '../flags.js';
import { pageIdFlags, pageIdOf, characters } from '../../flags.js';

export default defineCommand({
  name: 'add',
  aliases: ['create'],
  summary: 'Add a section to a site, from a space (existing, or new) that becomes its first site space',
  description:
    'The first section of a site that already has site spaces takes them into a first section of their own, ' +
    'so the new section is the second one. On an unpublished site a new section is a draft until the site is ' +
    'published; on a published one it is live unless --draft is given.',
  args: [{ name: 'site', description: 'site id' }],
  flags: {
    space: { description: 'the space to publish in it (or --new-space)', value: 'space', conflicts: ['newSpace'] },
    newSpace: { type: 'boolean', description: 'create a new space for it, titled after --title (needs the create role)' },
    template: { description: 'content template of the new space (with --new-space), such as getting-started', value: 'id' },
    title: { description: `title (${characters(sectionTitle)}; default: the space’s title)`, value: 'title' },
    icon: { description: 'icon name, such as gear or book-open', value: 'name' },
    group: { description: 'the section group to put it in (at its end)', value: 'id' },
    ...pageIdFlags('a page of the space to show at the section’s root', 'id'),
    draft: { type: 'boolean', description: 'add it as a draft, which visitors do not see' },
  },
  examples: [
    'docsctl sites sections add site_123 --space sp_456 --title Guides --icon book',
    'docsctl sites sections add site_123 --new-space --template api-reference --title "API reference" --group grp_1',
  ],
  output: { fields: sectionFields },
  async run(ctx, { args, flags }) {
    const spaceId = spaceChoice(flags);
    if (flags.template !== undefined && !flags.newSpace) throw new UsageError('--template needs --new-space');
    const body = checkBody(
      ops.createSiteSection,
      {
        spaceId,
        template: flags.template === undefined ? undefined : { id: flags.template },
        title: flags.title,
        icon: flags.icon,
        siteSectionGroupId: flags.group,
        pageId: pageIdOf(ctx, flags),
        draft: flags.draft || undefined,
      },
      { spaceId: '--space', siteSectionGroupId: '--group', pageId: '--page-id' },
    );
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.createSiteSection, { params: { organizationId, siteId: args.site }, body });
  },
});
