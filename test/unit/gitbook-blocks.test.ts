/**
 * GitBook's blocks in the sandbox's Markdown (Git Sync's syntax, docs/content-export.md): read into
 * the official document's blocks (each validated against its JSONDocument), written back in the
 * same syntax, stable over a round trip; malformed tags kept as text; nesting bounded.
 */
import fc from 'fast-check';
import { cpuMs, cpuSlowdown } from '../helpers/timing.js';
import { describe, expect, it } from 'vitest';
import { MAX_TAG_NESTING, parseAttributes, scanTags } from '../../src/server/lib/gitbook-syntax.js';
import {
  checkMarkdown,
  documentToMarkdown,
  markdownToDocument,
  MarkdownTooDeep,
  splitSections,
  type BlockNode,
  type DocumentNode,
} from '../../src/server/lib/markdown.js';
import { describeErrors, validatorAt } from '../helpers/official.js';

const validate = validatorAt('#/components/schemas/JSONDocument');
function expectValid(doc: DocumentNode) {
  const ok = validate(doc);
  expect(ok ? [] : describeErrors(validate.errors), JSON.stringify(doc).slice(0, 800)).toEqual([]);
}

/** Types of the blocks, nested: `type(child,child)`. */
function shape(nodes: readonly (BlockNode | { object: string })[]): string {
  return nodes
    .filter((n): n is BlockNode => n.object === 'block')
    .map((b) => {
      const inner = [...b.nodes.filter((n) => n.object === 'block'), ...(b.fragments ?? []).flatMap((f) => f.nodes)] as BlockNode[];
      return inner.length > 0 && !['paragraph', 'code', 'table'].includes(b.type) ? `${b.type}(${shape(inner)})` : b.type;
    })
    .join(',');
}

const text = (b: BlockNode): string =>
  b.nodes.map((n) => (n.object === 'text' ? n.leaves.map((l) => l.text).join('') : n.object === 'block' ? text(n) : text(n as never))).join('');

const CORPUS: Record<string, { markdown: string; shape: string; check?: (doc: DocumentNode) => void }> = {
  hint: {
    markdown: '{% hint style="warning" %}\nMind the **gap**.\n{% endhint %}',
    shape: 'hint(paragraph)',
    check: (doc) => {
      expect(doc.nodes[0].data).toEqual({ style: 'warning' });
      expect(text(doc.nodes[0].nodes[0] as BlockNode)).toBe('Mind the gap.');
    },
  },
  'every hint style': {
    markdown: ['info', 'success', 'warning', 'danger'].map((s) => `{% hint style="${s}" %}\n${s}\n{% endhint %}`).join('\n\n'),
    shape: 'hint(paragraph),hint(paragraph),hint(paragraph),hint(paragraph)',
  },
  tabs: {
    markdown:
      '{% tabs %}\n{% tab title="npm" %}\n```sh\nnpm i x\n```\n{% endtab %}\n\n{% tab title="yarn &quot;classic&quot;" %}\nyarn add x\n{% endtab %}\n{% endtabs %}',
    shape: 'tabs(tabs-item(code),tabs-item(paragraph))',
    check: (doc) => expect((doc.nodes[0].nodes as BlockNode[]).map((t) => t.data.title)).toEqual(['npm', 'yarn "classic"']),
  },
  expandable: {
    markdown: '<details>\n\n<summary>More **about** it</summary>\n\nThe body.\n\n- a list\n\n</details>',
    shape: 'expandable(paragraph,paragraph,list-unordered(list-item(paragraph)))',
    check: (doc) => {
      expect(doc.nodes[0].fragments!.map((f) => f.fragment)).toEqual(['expandable-title', 'expandable-body']);
      expect(text(doc.nodes[0].fragments![0].nodes[0])).toBe('More about it');
    },
  },
  'expandable open by default': { markdown: '<details open>\n<summary>T</summary>\n\nx\n</details>', shape: 'expandable(paragraph,paragraph)' },
  embed: {
    markdown: '{% embed url="https://www.youtube.com/watch?v=abc" %}',
    shape: 'embed',
    check: (doc) => expect(doc.nodes[0].data).toEqual({ url: 'https://www.youtube.com/watch?v=abc' }),
  },
  'embed with a caption (which follows it)': { markdown: '{% embed url="https://x.example" %}\nA caption\n{% endembed %}', shape: 'embed,paragraph' },
  file: {
    markdown: '{% file src=".gitbook/assets/report.pdf" %}\n{% endfile %}',
    shape: 'file',
    check: (doc) => expect(doc.nodes[0].data).toEqual({ ref: { kind: 'file', file: '.gitbook/assets/report.pdf' } }),
  },
  'file by id': {
    markdown: '{% file src="file:f1" %}',
    shape: 'file',
    check: (doc) => expect(doc.nodes[0].data).toEqual({ ref: { kind: 'file', file: 'f1' } }),
  },
  'content-ref': {
    markdown: '{% content-ref url="guide/install.md" %}\n[install.md](guide/install.md)\n{% endcontent-ref %}',
    shape: 'content-ref',
    check: (doc) => expect(doc.nodes[0].data).toEqual({ ref: { kind: 'url', url: 'guide/install.md' } }),
  },
  'code with a title and line numbers': {
    markdown: '{% code title="app.js" overflow="wrap" lineNumbers="true" %}\n```js\nconst a = 1;\n```\n{% endcode %}',
    shape: 'code',
    check: (doc) => expect(doc.nodes[0].data).toEqual({ syntax: 'js', title: 'app.js', overflow: 'wrap', lineNumbers: true }),
  },
  'image with a caption': {
    markdown: '<figure><img src=".gitbook/assets/a b.png" alt="The &quot;A&quot;"><figcaption><p>A <em>caption</em> with **bold**</p></figcaption></figure>',
    shape: 'images(image(paragraph))',
    check: (doc) => {
      const image = doc.nodes[0].nodes[0] as BlockNode;
      expect(image.data).toEqual({ ref: { kind: 'url', url: '.gitbook/assets/a b.png' }, alt: 'The "A"' });
      expect(image.fragments![0].fragment).toBe('caption');
    },
  },
  'figures without a caption': {
    markdown: '<figure><img src="a.png" alt=""></figure>\n<figure><img src="b.png" alt="b"></figure>',
    shape: 'images(image,image)',
  },
  math: {
    markdown: '$$\n\\int_0^1 x\\,dx\n$$\n\nand $$a^2$$ inline\n\n$$e^{i\\pi}$$',
    shape: 'math,paragraph,math',
    check: (doc) => expect([doc.nodes[0].data, doc.nodes[2].data]).toEqual([{ formula: '\\int_0^1 x\\,dx' }, { formula: 'e^{i\\pi}' }]),
  },
  stepper: {
    markdown:
      '{% stepper %}\n{% step %}\n## Install\nRun it.\n{% endstep %}\n{% step %}\n<details>\n<summary>Why?</summary>\n\nBecause.\n</details>\n{% endstep %}\n{% endstepper %}',
    shape: 'stepper(stepper-step(heading-2,paragraph),stepper-step(expandable(paragraph,paragraph)))',
  },
  openapi: {
    markdown:
      '{% openapi src="https://x.example/spec.yaml" path="/pets" method="get" %}\n[https://x.example/spec.yaml](https://x.example/spec.yaml)\n{% endopenapi %}',
    shape: 'swagger',
  },
  nesting: {
    markdown:
      '{% tabs %}\n{% tab title="A" %}\n{% hint style="info" %}\nIn a tab.\n{% endhint %}\n\n$$\nx\n$$\n{% endtab %}\n{% endtabs %}\n\n<details>\n<summary>S</summary>\n\n{% hint style="danger" %}\nIn an expandable.\n{% endhint %}\n\n```\ncode\n```\n</details>',
    shape: 'tabs(tabs-item(hint(paragraph),math)),expandable(paragraph,hint(paragraph),code)',
  },
  'what a container may not hold ends it, or follows it': {
    markdown:
      '{% hint style="info" %}\nbefore\n\n```\ncode in a hint\n```\n\nafter\n{% endhint %}\n\n{% tabs %}\n{% tab title="T" %}\n| a |\n|---|\n| 1 |\n{% endtab %}\n{% endtabs %}',
    shape: 'hint(paragraph),code,hint(paragraph),tabs(tabs-item(paragraph)),table',
  },
  'tags inside fenced code are code': { markdown: '```\n{% hint style="info" %}\n$$\n```', shape: 'code' },
};

describe('GitBook blocks read from Markdown', () => {
  for (const [name, c] of Object.entries(CORPUS)) {
    it(name, () => {
      const doc = markdownToDocument(c.markdown);
      expect(shape(doc.nodes)).toBe(c.shape);
      expectValid(doc);
      c.check?.(doc);
      // Written back in the same syntax, and read again the same.
      const written = documentToMarkdown(doc);
      expect(shape(markdownToDocument(written).nodes)).toBe(c.shape);
      expect(documentToMarkdown(markdownToDocument(written))).toBe(written);
    });
  }

  it('writes each block in Git Sync syntax', () => {
    const written = documentToMarkdown(
      markdownToDocument(
        Object.values(CORPUS)
          .map((c) => c.markdown)
          .join('\n\n'),
      ),
    );
    for (const expected of [
      '{% hint style="warning" %}',
      '{% endhint %}',
      '{% tabs %}',
      '{% tab title="yarn &quot;classic&quot;" %}',
      '{% endtabs %}',
      '<details>\n<summary>More **about** it</summary>',
      '<details open>',
      '{% embed url="https://www.youtube.com/watch?v=abc" %}',
      '{% file src=".gitbook/assets/report.pdf" %}\n{% endfile %}',
      '{% file src="file:f1" %}',
      '{% content-ref url="guide/install.md" %}\n[guide/install.md](guide/install.md)\n{% endcontent-ref %}',
      '{% code title="app.js" overflow="wrap" lineNumbers="true" %}\n\n```js\nconst a = 1;\n```\n\n{% endcode %}',
      '<figure><img src=".gitbook/assets/a b.png" alt="The &quot;A&quot;"><figcaption><p>A \\<em>caption\\</em> with **bold**</p></figcaption></figure>',
      '$$\n\\int_0^1 x\\,dx\n$$',
      '{% stepper %}\n\n{% step %}',
      '{% openapi src="https://x.example/spec.yaml" path="/pets" method="get" %}\n{% endopenapi %}',
    ]) {
      expect(written).toContain(expected);
    }
  });

  it('gives search the text inside the blocks', () => {
    const sections = splitSections(
      '# Setup\n\n{% hint style="info" %}\nhinted words\n{% endhint %}\n\n<details>\n<summary>Folded title</summary>\n\nfolded words\n</details>',
    );
    expect(sections[0].body).toContain('hinted words');
    expect(sections[0].body).toContain('folded words');
  });
});

describe('malformed GitBook tags are kept as text, never an error', () => {
  const cases: Record<string, string> = {
    'an unknown tag': '{% frobnicate x="1" %}',
    'a hint of an unknown style': '{% hint style="purple" %}\nx\n{% endhint %}',
    'a hint without a style': '{% hint %}\nx\n{% endhint %}',
    'an end tag closing nothing': '{% endtabs %}',
    'a tab outside tabs': '{% tab title="A" %}\nx\n{% endtab %}',
    'a container never closed': '{% hint style="info" %}\nstill text',
    'a details never closed': '<details>\n<summary>S</summary>\n\nbody',
    'math never closed': '$$\nx = 1',
    'broken attributes': '{% embed url=https://x %}\n\n{% file src="unterminated %}\n\n{% code title="a"b %}',
    'a figure without its end': '<figure><img src="a.png" alt="">',
    'an embed without its url': '{% embed %}',
  };
  for (const [name, markdown] of Object.entries(cases)) {
    it(name, () => {
      const doc = markdownToDocument(markdown);
      expectValid(doc);
      const all = JSON.stringify(doc);
      // The tag's text is still there.
      const firstLine = markdown.split('\n')[0].replace(/^<figure>.*/, 'a.png');
      expect(all).toContain(firstLine.includes('{%') ? firstLine.slice(3, 12) : firstLine.replace(/[<>]/g, '').slice(0, 6));
      // And reads the same once written.
      const written = documentToMarkdown(doc);
      expect(documentToMarkdown(markdownToDocument(written))).toBe(written);
    });
  }

  it('content in tabs outside a tab follows the tabs', () => {
    expect(shape(markdownToDocument('{% tabs %}\nstray\n{% tab title="A" %}\nin\n{% endtab %}\n{% endtabs %}').nodes)).toBe(
      'tabs(tabs-item(paragraph)),paragraph',
    );
  });

  it('parses attributes in one pass, refusing what is not name="value"', () => {
    expect(parseAttributes(' title="a &amp; b" lineNumbers="true"')).toEqual({ title: 'a & b', lineNumbers: 'true' });
    expect(parseAttributes(' title="a"b')).toBeUndefined();
    expect(parseAttributes(' title=a')).toBeUndefined();
    // CPU time, scaled by how much slower than idle this machine runs now (test/helpers/timing.ts).
    const cpu = cpuMs(() => {
      parseAttributes(` ${'a'.repeat(200_000)}`);
      parseAttributes(` x="${'"'.repeat(1)}${' y='.repeat(50_000)}`);
    });
    expect(cpu).toBeLessThan(100 * cpuSlowdown());
  });
});

describe('GitBook blocks nest within the bound', () => {
  const hints = (n: number) => `${'{% hint style="info" %}\n'.repeat(n)}deep\n${'{% endhint %}\n'.repeat(n)}`;

  it(`reads ${MAX_TAG_NESTING} levels, and deeper levels as text (stored), refused when written`, () => {
    expect(() => checkMarkdown(hints(MAX_TAG_NESTING))).not.toThrow();
    expect(() => checkMarkdown(hints(MAX_TAG_NESTING + 1))).toThrow(MarkdownTooDeep);
    const doc = markdownToDocument(hints(MAX_TAG_NESTING + 1));
    expect(JSON.stringify(doc)).toContain('{% hint style=\\"info\\" %}');
    // Hints in hints are split (a hint holds no hint), so the document stays flat enough to write.
    expect(() => documentToMarkdown(doc)).not.toThrow();
  });

  it('scans tens of thousands of tags inside unclosed containers in linear time', () => {
    const scan = (n: number) => {
      const hostile = `${'{% tabs %}\n{% tab title="x" %}\n'.repeat(50)}${'{% embed url="u" %}\n'.repeat(n)}${'{% stepper %}\n'.repeat(n)}`;
      let segments: unknown[] = [];
      const cpu = cpuMs(() => {
        segments = scanTags(hostile);
      });
      expect(segments.length).toBeGreaterThan(n);
      return cpu;
    };
    scan(1_000);
    // 1.4 MB in well under a second of CPU (it was over one before the unclosed containers were undone in one pass).
    expect(scan(50_000)).toBeLessThan(1_000 * cpuSlowdown());
  });
});

// ---------------------------------------------------------------------------------------
// Property: generated documents with these blocks, written and read, are stable.

const word = fc.constantFrom('alpha', 'beta', 'x', '42', 'café', 'a&b', '"quoted"', 'C#', 'end.', '{curly}', '$5', '<tag>', '%');
const words = fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
const leafOf = (t: string, marks: string[] = []) => ({
  object: 'leaf' as const,
  text: t,
  marks: marks.map((type) => ({ object: 'mark' as const, type: type as 'bold' })),
});
const para = words.chain((t) => fc.subarray(['bold', 'italic']).map((marks) => mk('paragraph', [{ object: 'text', leaves: [leafOf(t, marks)] }])));
const heading = fc.tuple(fc.constantFrom(1, 2, 3), words).map(([d, t]) => mk(`heading-${d}`, [{ object: 'text', leaves: [leafOf(t)] }]));
const list = fc.array(para, { minLength: 1, maxLength: 3 }).map((items) =>
  mk(
    'list-unordered',
    items.map((p) => mk('list-item', [p])),
  ),
);
const essentials = fc.oneof(para, heading, list);
const code = fc
  .record({
    lang: fc.constantFrom('', 'js', 'sh'),
    title: fc.constantFrom('', 'app.js', 'a "b" & c'),
    lineNumbers: fc.boolean(),
    lines: fc.array(words, { minLength: 1, maxLength: 3 }),
  })
  .map((c) =>
    mk(
      'code',
      c.lines.map((l) => mk('code-line', [{ object: 'text', leaves: [leafOf(l)] }])),
      { ...(c.lang ? { syntax: c.lang } : {}), ...(c.title ? { title: c.title } : {}), ...(c.lineNumbers ? { lineNumbers: true } : {}) },
    ),
  );
const embed = fc.constantFrom('https://www.youtube.com/watch?v=1', 'https://x.example/a?b=c&d="e"').map((url) => voidOf('embed', { url }));
const file = fc.constantFrom('f1', '.gitbook/assets/report.pdf').map((f) => voidOf('file', { ref: { kind: 'file', file: f } }));
const contentRef = fc.constantFrom('other.md', '../guide/README.md', 'https://x.example').map((url) => voidOf('content-ref', { ref: { kind: 'url', url } }));
const math = fc.constantFrom('x^2', 'a & b', '\\frac{1}{2}').map((formula) => voidOf('math', { formula }));
const images = fc
  .array(fc.tuple(fc.constantFrom('a.png', '.gitbook/assets/b c.png'), fc.constantFrom('', 'alt "q"'), fc.option(words, { nil: undefined })), {
    minLength: 1,
    maxLength: 2,
  })
  .map((list) =>
    mk(
      'images',
      list.map(([url, alt, caption]) => ({
        ...voidOf('image', { ref: { kind: 'url', url }, ...(alt ? { alt } : {}) }),
        fragments: caption
          ? [{ object: 'fragment' as const, fragment: 'caption', type: 'caption', nodes: [mk('paragraph', [{ object: 'text', leaves: [leafOf(caption)] }])] }]
          : [],
      })),
    ),
  );
const hint = fc
  .tuple(fc.constantFrom('info', 'success', 'warning', 'danger'), fc.array(fc.oneof(essentials, embed), { minLength: 1, maxLength: 3 }))
  .map(([style, nodes]) => mk('hint', nodes, { style }));
const expandable = fc
  .tuple(words, fc.boolean(), fc.array(fc.oneof(essentials, code, hint, file, images), { minLength: 1, maxLength: 3 }))
  .map(([title, open, body]) => ({
    ...voidOf('expandable', open ? { defaultExpanded: true } : {}),
    fragments: [
      {
        object: 'fragment' as const,
        fragment: 'expandable-title',
        type: 'expandable-title',
        nodes: [mk('paragraph', [{ object: 'text', leaves: [leafOf(title)] }])],
      },
      { object: 'fragment' as const, fragment: 'expandable-body', type: 'expandable-body', nodes: body },
    ],
  }));
const inTab = fc.oneof(essentials, code, hint, embed, file, math, contentRef, images);
const tabs = fc.array(fc.tuple(words, fc.array(inTab, { minLength: 1, maxLength: 3 })), { minLength: 1, maxLength: 3 }).map((list) =>
  mk(
    'tabs',
    list.map(([title, nodes]) => mk('tabs-item', nodes, { title })),
  ),
);
const stepper = fc.array(fc.array(fc.oneof(inTab, expandable), { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 3 }).map((steps) =>
  mk(
    'stepper',
    steps.map((nodes) => mk('stepper-step', nodes)),
  ),
);
const topLevel = fc.oneof(essentials, code, hint, embed, file, contentRef, math, images, expandable, tabs, stepper);

function mk(type: string, nodes: unknown[], data: Record<string, unknown> = {}): BlockNode {
  return { object: 'block', type, key: '', data, nodes: nodes as BlockNode['nodes'] };
}
function voidOf(type: string, data: Record<string, unknown>): BlockNode {
  return { object: 'block', type, key: '', isVoid: true, data, nodes: [] };
}

describe('GitBook blocks round-trip (property)', () => {
  it('writer(read(writer(d))) is writer(d), and what is read is valid', () => {
    fc.assert(
      fc.property(fc.array(topLevel, { minLength: 1, maxLength: 6 }), (nodes) => {
        const doc: DocumentNode = { object: 'document', data: { schemaVersion: 1 }, nodes };
        const written = documentToMarkdown(doc);
        const read = markdownToDocument(written);
        expect(documentToMarkdown(read)).toBe(written);
        expect(shape(read.nodes)).toBe(shape(nodes));
        const ok = validate(read);
        expect(ok ? [] : describeErrors(validate.errors)).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });
});
