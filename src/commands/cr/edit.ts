import { checkBody, defineCommand } from '../../cli/command.js';
import { UsageError } from '../../cli/errors.js';
import { CR_EDIT_STATUSES, ops, crSubject } from '../../contract/change-requests.js';
import { textInput } from '../../cli/input.js';
import { crFields, crRef } from './columns.js';
import { documentFromText } from './description.js';
import { characters } from '../flags.js';

export default defineCommand({
  name: 'edit',
  summary: 'Change a change request’s subject, description or status',
  description:
    'The status moves freely between draft, open and archived; merged is set only by a merge, and a merged ' +
    'change request can no longer be edited. The description is plain text: paragraphs separated by blank lines.',
  args: [
    { name: 'space', description: 'space id' },
    { name: 'cr', description: 'change request number (e.g. 3) or id' },
  ],
  flags: {
    subject: { description: `new subject (${characters(crSubject)})`, value: 'text' },
    description: { description: 'new description (plain text)', value: 'text', conflicts: ['descriptionFile'] },
    descriptionFile: { description: 'the description from a file, or - for stdin', value: 'file' },
    status: { description: 'new status', value: 'status', choices: CR_EDIT_STATUSES },
  },
  examples: ['docsctl cr edit sp_123 3 --status open', 'docsctl cr edit sp_123 3 --subject "Quickstart, rewritten" --description-file notes.txt'],
  output: { fields: crFields },
  async run(ctx, { args, flags }) {
    const text = await textInput(ctx, flags.description, flags.descriptionFile, ['--description', '--description-file'], false);
    const body = checkBody(
      ops.updateChangeRequest,
      {
        subject: flags.subject,
        status: flags.status,
        description: text === undefined ? undefined : documentFromText(text),
      },
      { description: flags.descriptionFile !== undefined ? '--description-file' : '--description' },
    );
    if (Object.keys(body).length === 0) throw new UsageError('nothing to change', 'pass --subject, --description, --description-file or --status');
    const api = await ctx.api();
    return api.call(ops.updateChangeRequest, { params: { spaceId: args.space, changeRequestId: crRef(args.cr) }, body });
  },
});
