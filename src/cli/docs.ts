/** docs/commands.md, generated from the command manifest (`npm run docs`; a test keeps it in sync). */
import { kebab } from './command.js';
import type { Manifest, ManifestCommand, ManifestNode } from './manifest.js';

export function commandsMarkdown(manifest: Manifest): string {
  const out: string[] = [
    '# docsctl commands',
    '',
    '<!-- Generated from the command tree by `npm run docs`; do not edit by hand. -->',
    '',
    'Global flags: `--profile NAME`, `--org ID`, `--timeout SECONDS`, `--verbose`, `--no-input`, `--no-color`, `--help`.',
    'Every command that prints API data also takes `--json` and `--fields a,b,c`; lists take `--limit N`, `--all`, `--page CURSOR`;',
    'destructive commands take `--yes`. Exit codes: `docsctl help exit-codes`.',
    '',
  ];
  const visible = manifest.entries.filter((e) => !e.hidden);
  const sections = [...new Set(visible.map((e) => e.section))];
  out.push('## Contents', '');
  for (const section of sections) {
    out.push(`- ${section.replace(/:$/, '')}: ${visible.filter((e) => e.section === section).map((e) => `[${e.name}](#${anchor(['docsctl', e.name])})`).join(', ')}`);
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
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd() + '\n';
}

function leaf(out: string[], full: string[], node: ManifestCommand) {
  out.push(node.summary, '');
  if (node.description) out.push(node.description, '');
  const usage = [...full, ...node.args.map((a) => (a.optional ? `[${a.name}]` : `<${a.name}>`)), '[flags]'].join(' ');
  out.push('```', usage, '```', '');
  if (node.args.length) {
    out.push('| Argument | Description |', '|---|---|');
    for (const a of node.args) out.push(`| \`${a.name}\` | ${cell(a.description)}${a.optional ? ' (optional)' : ''} |`);
    out.push('');
  }
  const flags = node.flags.filter((f) => !f.hidden);
  if (flags.length) {
    out.push('| Flag | Description |', '|---|---|');
    for (const f of flags) {
      const name = `${f.short ? `-${f.short}, ` : ''}--${kebab(f.key)}${f.type === 'boolean' ? '' : ` <${f.value ?? 'value'}>`}`;
      const values = f.choices ? ` One of: ${[...f.choices, ...(f.nullable ? ['null'] : [])].map((c) => `\`${c}\``).join(', ')}.` : '';
      out.push(`| \`${name}\` | ${cell(f.description)}.${values}${f.type === 'list' ? ' Repeatable.' : ''} |`);
    }
    out.push('');
  }
  const shared = [node.noJson ? '' : '`--json`, `--fields`', node.list ? '`--limit`, `--all`, `--page`' : '', node.destructive ? '`--yes`' : ''].filter(Boolean);
  if (shared.length) out.push(`Also: ${shared.join('; ')}.`, '');
  if (node.examples.length) out.push('Examples:', '', '```sh', ...node.examples.map((e) => `$ ${e}`), '```', '');
}

function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function anchor(words: string[]): string {
  return words.join('-').toLowerCase().replace(/[^a-z0-9-]/g, '');
}
