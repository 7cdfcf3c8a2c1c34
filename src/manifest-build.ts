/** Build-time entry (scripts/build.mjs): the manifest from every command definition, and help texts. */
import { resolveDef, type CommandDef, type GroupDef, type LaterDef } from './cli/command.js';
import type { Io } from './cli/context.js';
import { FILE_VALUES, ID_KINDS, type Manifest, type ManifestCommand, type ManifestNode } from './cli/manifest.js';
import type { Column, OutputSpec } from './cli/output.js';
import type { ArgSpec, FlagSpec } from './cli/spec.js';
import { entries } from './commands/index.js';
import { main } from './main.js';

export async function buildManifest(version: string): Promise<Manifest> {
  const out: Manifest = { version, entries: [] };
  for (const entry of entries) {
    const node = await toManifest((await entry.load()).default);
    if (node.name !== entry.name) throw new Error(`entry ${entry.name} loads a command named ${node.name}`);
    out.entries.push({ ...node, section: entry.section, ...(entry.hidden ? { hidden: true } : {}) });
  }
  return out;
}

/** The manifest of a definition, every `later` command loaded (at build time). */
export async function toManifest(entry: CommandDef<any, any> | GroupDef | LaterDef): Promise<ManifestNode> {
  const def = await resolveDef(entry);
  if (def.kind === 'group') {
    const commands: ManifestNode[] = [];
    for (const c of def.commands) commands.push(await toManifest(c));
    return { kind: 'group', name: def.name, ...(def.aliases ? { aliases: def.aliases } : {}), summary: def.summary, commands };
  }
  return {
    kind: 'command',
    name: def.name,
    ...(def.aliases ? { aliases: def.aliases } : {}),
    summary: def.summary,
    ...(def.description ? { description: def.description } : {}),
    args: ((def.args ?? []) as ArgSpec[]).map(({ name, description, optional, choices, ids, files, variadic }) => ({
      name,
      description,
      ...(optional ? { optional } : {}),
      ...(variadic ? { variadic } : {}),
      ...(choices ? { choices: [...choices] } : (ids ?? ID_KINDS[name]) ? { ids: ids ?? ID_KINDS[name] } : files ? { files: true as const } : {}),
    })),
    flags: Object.entries((def.flags ?? {}) as Record<string, FlagSpec>).map(([key, spec]) => ({
      key,
      ...spec,
      ...(spec.choices || spec.type === 'boolean'
        ? {}
        : ID_KINDS[spec.value ?? '']
          ? { ids: ID_KINDS[spec.value ?? ''] }
          : FILE_VALUES.has(spec.value ?? '')
            ? { files: true as const }
            : {}),
    })),
    examples: def.examples,
    ...(def.list ? { list: true } : {}),
    ...(def.destructive ? { destructive: true } : {}),
    ...(def.noJson ? { noJson: true } : {}),
    ...outputNames(def.output),
  };
}

/** The names of a command's output, for help and completion: shown columns, then what else --fields takes. */
function outputNames(output: OutputSpec | undefined): Pick<ManifestCommand, 'columns' | 'fields'> {
  const name = (c: Column) => (typeof c === 'string' ? c : (c.header ?? c.key));
  const extra = (c: Column) => typeof c !== 'string' && c.extra === true;
  if (output?.columns) {
    const more = output.columns.filter(extra).map(name);
    return { columns: output.columns.filter((c) => !extra(c)).map(name), ...(more.length ? { fields: more } : {}) };
  }
  return output?.fields ? { fields: output.fields.map(name) } : {};
}

/** dist/help.json: help texts keyed by the command's names joined with spaces ('' for the program). */
export interface HelpTexts {
  texts: Record<string, string>;
  /** Another spelling of a key, with aliases (`spaces ls`, `change-requests list`) → the key. */
  aliases: Record<string, string>;
}

/**
 * `docsctl [names...] --help` as main() prints it when stdout is not a terminal, for the program
 * and every group and command (hidden ones too), and the spellings with aliases that lead to each.
 */
export async function helpTexts(manifest: Manifest): Promise<HelpTexts> {
  const paths: string[][] = [[]];
  const aliases: Record<string, string> = {};
  const walk = (node: ManifestNode, path: string[], spellings: string[][]) => {
    const here = [...path, node.name];
    paths.push(here);
    const mine = spellings.flatMap((s) => [node.name, ...(node.aliases ?? [])].map((n) => [...s, n]));
    for (const s of mine) if (s.join(' ') !== here.join(' ')) aliases[s.join(' ')] = here.join(' ');
    if (node.kind === 'group') for (const child of node.commands) walk(child, here, mine);
  };
  for (const entry of manifest.entries) walk(entry, [], [[]]);
  const texts: Record<string, string> = {};
  for (const path of paths) {
    let out = '';
    let err = '';
    const io = {
      stdout: { isTTY: false, write: (s: string) => ((out += s), true) },
      stderr: { isTTY: false, write: (s: string) => ((err += s), true) },
      stdin: { isTTY: false },
      env: {},
    } as unknown as Io;
    const code = await main([...path, '--help'], io, manifest);
    if (code !== 0 || err) throw new Error(`docsctl ${path.join(' ')} --help: exit ${code}: ${err}`);
    texts[path.join(' ')] = out;
  }
  return { texts, aliases };
}
