/** Build-time entry: loads every command definition and returns the manifest (scripts/build.mjs). */
import { toManifest, type Manifest } from './cli/manifest.js';
import { entries } from './commands/index.js';

export async function buildManifest(version: string): Promise<Manifest> {
  const out: Manifest = { version, entries: [] };
  for (const entry of entries) {
    const node = toManifest((await entry.load()).default);
    if (node.name !== entry.name) throw new Error(`entry ${entry.name} loads a command named ${node.name}`);
    out.entries.push({ ...node, ...(entry.aliases ? { aliases: entry.aliases } : {}), summary: entry.summary, section: entry.section, ...(entry.hidden ? { hidden: true } : {}) });
  }
  return out;
}
