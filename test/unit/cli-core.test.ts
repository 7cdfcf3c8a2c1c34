/**
 * What holds for the CLI's code as a whole: V8 flags are the process entry's business alone (a
 * library module that sets one at import changes the process of whoever imports it).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('V8 flags', () => {
  it('are set in src/entry.ts only', () => {
    const setters = sources(SRC)
      .filter((f) => /setFlagsFromString\s*\(/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(SRC, f));
    expect(setters).toEqual(['entry.ts']);
  });
});
