/** Build-time entry (scripts/build.mjs): the manifest from every command definition, and help texts. */
import type { Io } from './cli/context.js';
import { toManifest, type Manifest, type ManifestNode } from './cli/manifest.js';
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
