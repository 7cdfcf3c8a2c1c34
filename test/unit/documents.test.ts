/**
 * The rich-text documents the sandbox makes from Markdown (page bodies with `format=document`,
 * comment bodies, imported pages) are the official document's JSONDocument, whatever the Markdown
 * holds: marks, links, images, code, lists, quotes, tables, headings (and the blocks a quote or a list
 * item may not hold by the official document).
 */
import { describe, expect, it } from 'vitest';
import { markdownToDocument } from '../../src/server/lib/markdown.js';
import { describeErrors, validatorAt } from '../helpers/official.js';

const CORPUS: Record<string, string> = {
  marks: 'Plain, **bold**, *italic*, `code`, ***both*** and **bold with `code` inside**.',
  links: 'A [link](https://example.com/a), a [relative one](/guide), an <https://auto.example.com> and **[a bold link](https://b.example)**.',
  image: '![A logo](https://example.com/logo.png) then text.',
  headings: '# One\n\n## Two\n\n### Three\n\nText.',
  lists: '- a\n- b\n  - nested **b1**\n\n1. first\n2. second\n',
  code: '```ts\nconst x = 1;\n```\n\n    indented code\n',
  quote: '> quoted *text*\n> on two lines',
  table: '| A | B |\n|---|---|\n| 1 | **2** |\n',
  breaks: 'line one  \nline two\n\n---\n\nafter a rule',
  html: 'Text with <b>html</b> &amp; entities &copy;.',
  images: '![One](https://example.com/1.png) ![Two](https://example.com/2.png)',
  // A quote holds only the essentials and quotes, a list item no images: the others leave the quote, images become links.
  'code, images and a table in a quote': '> a\n>\n> ```\n> code\n> ```\n>\n> ![q](q.png)\n>\n> | a |\n> |---|\n> | b |\n>\n> ---\n>\n> # h',
  'images in a list item': '- ![li](l.png) ![](m.png)\n\n  > ![deeper](d.png)\n\n  ```\n  c\n  ```',
  'tasks, numbering, references and footnotes': '- [ ] t\n- [x] u\n\n3. x\n\n[r][ref] ![ri][ref] note[^1]\n\n[^1]: Foot\n\n[ref]: https://r.example',
  empty: '',
};

describe('markdownToDocument makes what the official document calls a JSONDocument', () => {
  const validate = validatorAt('#/components/schemas/JSONDocument');
  for (const [name, markdown] of Object.entries(CORPUS)) {
    it(name, () => {
      const doc = markdownToDocument(markdown);
      const ok = validate(doc);
      expect(ok ? [] : describeErrors(validate.errors), JSON.stringify(doc).slice(0, 600)).toEqual([]);
    });
  }
});
