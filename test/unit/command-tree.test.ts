/**
 * Groups name their commands and load each only when it runs (`later`): the manifest (built from
 * every definition) matches what the modules define, and running one command loads only the
 * modules on its path.
 */
import { describe, expect, it } from 'vitest';
import { defineCommand, defineGroup, later, type CommandDef, type GroupDef } from '../../src/cli/command.js';
import { findDef, toManifest } from '../../src/cli/manifest.js';
import { entries } from '../../src/commands/index.js';

const leaf = (name: string) => defineCommand({ name, summary: `the ${name} command`, examples: [], run: async () => undefined });

function tree() {
  const loaded: string[] = [];
  const load = (def: CommandDef<any, any> | GroupDef) => async () => {
    loaded.push(def.name);
    return { default: def };
  };
  const group = defineGroup({
    name: 'things',
    summary: 'Things',
    commands: [
      leaf('list'),
      later('get', load(leaf('get'))),
      later('sub', load(defineGroup({ name: 'sub', summary: 'Sub', commands: [later('deep', load(leaf('deep')))] }))),
    ],
  });
  return { group, loaded };
}

describe('a group whose commands load later', () => {
  it('loads only what lies on the path of the command run', async () => {
    const { group, loaded } = tree();
    expect((await findDef(group, ['list'])).name).toBe('list');
    expect(loaded).toEqual([]);
    expect((await findDef(group, ['sub', 'deep'])).name).toBe('deep');
    expect(loaded).toEqual(['sub', 'deep']);
  });

  it('is described in full by its manifest, in order', async () => {
    const { group } = tree();
    const m = await toManifest(group);
    expect(m.kind === 'group' && m.commands.map((c) => c.name)).toEqual(['list', 'get', 'sub']);
  });

  it('refuses a later command whose module defines another name', async () => {
    const group = defineGroup({ name: 'g', summary: 'G', commands: [later('get', async () => ({ default: leaf('show') }))] });
    await expect(toManifest(group)).rejects.toThrow("later('get') loads a definition named show");
    await expect(findDef(group, ['get'])).rejects.toThrow("later('get') loads a definition named show");
  });

  it("holds for docsctl's own tree: every later command is named as its module names it", async () => {
    let commands = 0;
    const walk = (n: Awaited<ReturnType<typeof toManifest>>): void => {
      if (n.kind === 'group') n.commands.forEach(walk);
      else commands++;
    };
    for (const entry of entries) walk(await toManifest((await entry.load()).default));
    expect(commands).toBeGreaterThan(100);
  });
});
