/**
 * Content as files, over generated pages: a space of generated pages (the sandbox's Markdown, with
 * GitBook's blocks, links between the pages and to files, descriptions and hidden pages) exported (`content export`), the folder
 * seeded into another space (the sandbox's `serve --seed DIR` reader), exported again: the same
 * files, byte for byte. CONTENT_ROUNDTRIP_RUNS sets the generated spaces (default 12).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seedContentFromFolder } from '../../src/server/content/git-sync.js';
import { slugify } from '../../src/server/lib/slug.js';
import { putContent, useTempDirs, type PageInit } from '../helpers/content.js';
import { useSandbox } from '../helpers/inprocess.js';

const RUNS = Number(process.env.CONTENT_ROUNDTRIP_RUNS ?? 12);
const sb = useSandbox();
const tempDir = useTempDirs('roundtrip-property');

function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir, { recursive: true }) as string[]) {
    if (f === '.docsctl-export.json' || !statSync(join(dir, f)).isFile()) continue;
    out[f] = readFileSync(join(dir, f)).toString('base64');
  }
  return out;
}

/** Words of the text, with the characters Markdown escapes. */
const word = fc.stringMatching(/^[A-Za-z][a-z0-9*_#<>[\]|\\&!`~]{0,7}$/);
/** Words of slugs: what a slug holds. */
const slugWord = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
const words = fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join(' '));
/** Inline text: words, some bold, italic, code, a link to another page or to a file. */
const inline = (paths: string[]) =>
  fc
    .array(
      fc.oneof(
        { weight: 4, arbitrary: words },
        { weight: 1, arbitrary: words.map((w) => `**${w}**`) },
        { weight: 1, arbitrary: words.map((w) => `*${w}*`) },
        { weight: 1, arbitrary: word.map((w) => `\`${w}\``) },
        { weight: 1, arbitrary: fc.tuple(words, fc.constantFrom(...paths)).map(([t, p]) => `[${t}](/${p})`) },
        { weight: 1, arbitrary: words.map((t) => `[${t}](file:fl-1)`) },
      ),
      { minLength: 1, maxLength: 4 },
    )
    .map((parts) => parts.join(' '));
/** A block of the sandbox's Markdown. */
const block = (paths: string[]): fc.Arbitrary<string> => {
  const text = inline(paths);
  return fc.oneof(
    { weight: 4, arbitrary: text },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('##', '###', '####'), words).map(([h, t]) => `${h} ${t}`) },
    { weight: 1, arbitrary: fc.array(text, { minLength: 1, maxLength: 3 }).map((items) => items.map((i) => `- ${i}`).join('\n')) },
    { weight: 1, arbitrary: fc.array(text, { minLength: 1, maxLength: 3 }).map((items) => items.map((i, n) => `${n + 1}. ${i}`).join('\n')) },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.tuple(fc.boolean(), text), { minLength: 1, maxLength: 3 })
        .map((items) => items.map(([c, i]) => `- [${c ? 'x' : ' '}] ${i}`).join('\n')),
    },
    { weight: 1, arbitrary: text.map((t) => `> ${t}`) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('js', 'sh', ''), fc.array(words, { minLength: 1, maxLength: 3 }))
        .map(([l, lines]) => `\`\`\`${l}\n${lines.join('\n')}\n\`\`\``),
    },
    { weight: 1, arbitrary: fc.tuple(words, words, words, words).map(([a, b, c, d]) => `| ${a} | ${b} |\n| - | -: |\n| ${c} | ${d} |`) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom('info', 'success', 'warning', 'danger'), text).map(([s, t]) => `{% hint style="${s}" %}\n${t}\n{% endhint %}`),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(word, text, word, text)
        .map(([a, x, b, y]) => `{% tabs %}\n{% tab title="${a}" %}\n${x}\n{% endtab %}\n\n{% tab title="${b}" %}\n${y}\n{% endtab %}\n{% endtabs %}`),
    },
    { weight: 1, arbitrary: fc.tuple(words, text).map(([s, t]) => `<details>\n\n<summary>${s}</summary>\n\n${t}\n\n</details>`) },
    { weight: 1, arbitrary: words.map((alt) => `![${alt}](file:fl-1)`) },
    { weight: 1, arbitrary: fc.constant('---') },
  );
};

/**
 * A space: up to two levels of pages with generated bodies. The first page is README.md, which says
 * its slug only by its subpages' folder: with subpages, any slug; without, the slug its title gives
 * (the reader's only source then).
 */
const space = fc.array(fc.tuple(slugWord, fc.array(slugWord, { maxLength: 3 })), { minLength: 1, maxLength: 4 }).chain((shape) => {
  const top = shape.map(([s, children], i) => (i === 0 && children.length === 0 ? slugify(`${s} x`) : `p${i}-${s.toLowerCase()}`));
  const paths = shape.flatMap(([, children], i) => [top[i], ...children.map((c, j) => `${top[i]}/c${j}-${c.toLowerCase()}`)]);
  const body = fc.array(block(paths), { minLength: 0, maxLength: 5 }).map((blocks) => blocks.join('\n\n'));
  const page = (slug: string, title: string, fixed?: string) =>
    fc
      .tuple(
        fixed !== undefined ? fc.constant(fixed) : words,
        body,
        fc.option(fc.oneof(words, fc.constantFrom('a: b', '#x', 'true', '12', "it's", '"q"'))),
        fc.boolean(),
      )
      .map(
        ([t, b, description, hidden]): PageInit => ({
          title: `${title} ${t}`,
          slug,
          markdown: `# ${title} ${t}\n\n${b}\n`,
          ...(description !== null ? { description } : {}),
          ...(hidden ? { hidden } : {}),
        }),
      );
  return fc.tuple(
    ...shape.map(([s, children], i) =>
      fc
        .tuple(page(top[i], s, i === 0 ? 'x' : undefined), ...children.map((c, j) => page(`c${j}-${c.toLowerCase()}`, c)))
        .map(([p, ...kids]) => ({ ...p, pages: kids })),
    ),
  );
});

describe('content export → seed → export, over generated spaces', () => {
  it('gives the same files', { timeout: 300_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(space, async (pages) => {
        sb.server.reset();
        putContent(sb.server.store, 'sp-welcome', pages, [
          { id: 'fl-1', name: 'one file.png', contentType: 'image/png', data: Buffer.from([1, 2, 3, 0, 255]) },
        ]);
        const first = tempDir();
        const r1 = await sb.run(['content', 'export', 'sp-welcome', '--out', first]);
        expect(r1.exitCode, r1.stderr).toBe(0);
        const [seeded] = seedContentFromFolder(sb.server.store, first, { org: sb.server.organizationId, title: 'Seeded' });
        sb.server.store.changed();
        const second = tempDir();
        const r2 = await sb.run(['content', 'export', seeded.space, '--out', second]);
        expect(r2.exitCode, r2.stderr).toBe(0);
        expect(tree(second)).toEqual(tree(first));
      }),
      { numRuns: RUNS },
    );
  });
});
