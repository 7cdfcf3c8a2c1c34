import { defineCommand } from '../cli/command.js';
import { completionScript, SHELLS, type Shell } from '../cli/completion.js';
import { UsageError } from '../cli/errors.js';

export default defineCommand({
  name: 'completion',
  summary: 'Print the shell completion script for bash, zsh or fish',
  description: 'Completes commands, subcommands, flags and their values, and ids of spaces, collections, sites and change requests.',
  args: [{ name: 'shell', description: 'bash, zsh or fish', choices: SHELLS }],
  examples: [
    'docsctl completion bash > ~/.local/share/bash-completion/completions/docsctl',
    'docsctl completion zsh > "${fpath[1]}/_docsctl"',
    'docsctl completion fish > ~/.config/fish/completions/docsctl.fish',
  ],
  noJson: true,
  async run(ctx, { args }) {
    if (!SHELLS.includes(args.shell as Shell)) throw new UsageError(`<shell>: must be one of ${SHELLS.join(', ')}`);
    if (!ctx.manifest) throw new Error('the command manifest is missing: rebuild docsctl');
    return completionScript(args.shell as Shell, ctx.manifest);
  },
});
