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
    out.entries.push({ ...node, ...(entry.aliases ? { aliases: entry.aliases } : {}), summary: entry.summary, section: entry.section, ...(entry.hidden ? { hidden: true } : {}) });
  }
  return out;
}

/**
 * `docsctl [names...] --help` as main() prints it when stdout is not a terminal, for the program
 * and every group and command, keyed by the names joined with spaces ('' for the program).
 */
export async function helpTexts(manifest: Manifest): Promise<Record<string, string>> {
  const paths: string[][] = [[]];
  const walk = (node: ManifestNode, path: string[]) => {
    const here = [...path, node.name];
    paths.push(here);
    if (node.kind === 'group') for (const child of node.commands) walk(child, here);
  };
  for (const entry of manifest.entries) walk(entry, []);
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
  return texts;
}
