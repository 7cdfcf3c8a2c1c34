/** docs/commands.md, generated from the command manifest (`npm run docs`; a test keeps it in sync). */
import { argUsage, kebab } from './spec.js';
import { CONFIRM_FLAGS, flagTerm, GLOBAL_FLAGS, LIST_FLAGS, OUTPUT_FLAGS, sharedFlags, type SharedFlag } from './flags.js';
import type { Manifest, ManifestCommand, ManifestNode } from './manifest.js';

const flagTable = (flags: readonly SharedFlag[]) => [
  '| Flag | Description |',
  '|---|---|',
  ...flags.map((f) => `| \`${flagTerm(f)}\` | ${cell(f.description)}.${notWith(f.conflicts)} |`),
];

/** ` Not with \`--root\`.`: the flags a flag conflicts with (declared on it), for its row. */
const notWith = (keys: readonly string[] | undefined) => (keys?.length ? ` Not with ${keys.map((k) => `\`--${kebab(k)}\``).join(' or ')}.` : '');

export function commandsMarkdown(manifest: Manifest): string {
  const out: string[] = [
    '# docsctl commands',
    '',
    '<!-- Generated from the command tree by `npm run docs`; do not edit by hand. -->',
    '',
    '`docsctl help <command>...` (or `docsctl <command>... --help`) prints the help of a command; `docsctl help exit-codes`, the exit codes.',
    '',
    '## Global flags',
    '',
    'Every command takes them, before or after its name (`docsctl --org ID spaces list` = `docsctl spaces list --org ID`);',
    'help lists them under "Global flags:".',
    '',
    ...flagTable(GLOBAL_FLAGS),
    '',
    '## Shared flags',
    '',
    'Every command that prints API data takes the output flags (help: "Output flags:"; a command that prints no JSON does not):',
    '',
    ...flagTable(OUTPUT_FLAGS),
    '',
    'Lists take:',
    '',
    ...flagTable(LIST_FLAGS),
    '',
    'Destructive commands take:',
    '',
    ...flagTable(CONFIRM_FLAGS),
    '',
  ];
  const visible = manifest.entries.filter((e) => !e.hidden);
  const sections = [...new Set(visible.map((e) => e.section))];
  out.push('## Contents', '');
  for (const section of sections) {
    out.push(
      `- ${section.replace(/:$/, '')}: ${visible
        .filter((e) => e.section === section)
        .map((e) => `[${e.name}](#${anchor(['docsctl', e.name])})`)
        .join(', ')}`,
    );
  }
  out.push('');
  const walk = (node: ManifestNode, path: string[], depth: number) => {
    const full = [...path, node.name];
    out.push(`${'#'.repeat(Math.min(depth, 6))} ${full.join(' ')}`, '');
    if (node.aliases?.length) out.push(`Alias: ${node.aliases.map((a) => `\`${a}\``).join(', ')}`, '');
    if (node.kind === 'group') {
      out.push(node.summary, '');
      for (const c of node.commands) walk(c, full, depth + 1);
      return;
    }
    leaf(out, full, node);
  };
  for (const e of visible) walk(e, ['docsctl'], 2);
  return (
    out
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n'
  );
}

function leaf(out: string[], full: string[], node: ManifestCommand) {
  out.push(node.summary, '');
  if (node.description) out.push(node.description, '');
  const usage = [...full, ...node.args.map(argUsage), '[flags]'].join(' ');
  out.push('```', usage, '```', '');
  if (node.args.length) {
    out.push('| Argument | Description |', '|---|---|');
    for (const a of node.args) {
      const values = a.choices ? ` One of: ${a.choices.map((c) => `\`${c}\``).join(', ')}.` : '';
      out.push(`| \`${a.name}\` | ${cell(a.description)}${a.optional ? ' (optional)' : ''}${values} |`);
    }
    out.push('');
  }
  const flags = node.flags.filter((f) => !f.hidden);
  if (flags.length) {
    out.push('| Flag | Description |', '|---|---|');
    for (const f of flags) {
      const name = `${f.short ? `-${f.short}, ` : ''}--${kebab(f.key)}${f.type === 'boolean' ? '' : ` <${f.value ?? 'value'}>`}`;
      const values = f.choices ? ` One of: ${[...f.choices, ...(f.nullable ? ['null'] : [])].map((c) => `\`${c}\``).join(', ')}.` : '';
      out.push(
        `| \`${name}\` | ${cell(f.description)}.${values}${f.type === 'list' ? ' Repeatable.' : ''}${notWith(f.conflicts?.filter((k) => !node.flags.find((g) => g.key === k)?.hidden))} |`,
      );
    }
    out.push('');
  }
  const shared = sharedFlags(node).map(({ flag }) => `\`${flag.long}\``);
  if (shared.length) out.push(`Also: ${shared.join(', ')} (see [Shared flags](#shared-flags)).`, '');
  if (node.examples.length) out.push('Examples:', '', '```sh', ...node.examples.map((e) => `$ ${e}`), '```', '');
}

function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function anchor(words: string[]): string {
  return words
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '');
}
