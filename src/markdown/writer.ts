/**
 * The Markdown dialect docsctl writes, on both sides: the sandbox's (src/server/lib/markdown.ts) and
 * the CLI's export to Git Sync's layout (src/contentfiles/markdown.ts), so that what one writes the
 * other reads back the same. A floor of its own under both: it imports only the mdast writer.
 */
import type * as M from 'mdast';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { defaultHandlers, type Options } from 'mdast-util-to-markdown';

/** Whether a list's first item is empty, or starts with a list that does. */
function startsEmpty(list: M.List): boolean {
  const first = list.children[0]?.children[0];
  return list.children.length > 0 && (first === undefined || (first.type === 'list' && startsEmpty(first)));
}

/** Whether a list's last item is empty, or ends in a list that does. */
function endsEmpty(list: M.List): boolean {
  const last = list.children.at(-1)?.children.at(-1);
  return list.children.length > 0 && (last === undefined || (last.type === 'list' && endsEmpty(last)));
}

export const WRITER_OPTIONS: Options = {
  extensions: [gfmToMarkdown({ tablePipeAlign: false })],
  bullet: '-',
  emphasis: '_',
  strong: '*',
  rule: '-',
  fence: '`',
  fences: true,
  listItemIndent: 'one',
  resourceLink: false,
  // An empty list item (`1.` alone, or first in an item: `1. 1.`) next to a paragraph without a blank
  // line is read back as the paragraph's text (`1. alpha`): a blank line keeps them apart.
  join: [
    (left, right) =>
      (left.type === 'list' && right.type !== 'list' && endsEmpty(left)) || (left.type === 'paragraph' && right.type === 'list' && startsEmpty(right))
        ? 1
        : undefined,
  ],
  handlers: {
    // A list with an item that starts with a rule (`- ---` would be one rule) is written with the other
    // bullet (`* ---`), even when the list just before it used that one: the two would be read back
    // as one list. Then the third bullet (`+ ---`).
    list(node, parent, state, info) {
      const clash = !node.ordered && state.bulletLastUsed === '*' && node.children.some((item: M.ListItem) => item.children[0]?.type === 'thematicBreak');
      if (!clash) return defaultHandlers.list(node, parent, state, info);
      const saved = state.options.bulletOther;
      state.options.bulletOther = '+';
      try {
        return defaultHandlers.list(node, parent, state, info);
      } finally {
        state.options.bulletOther = saved;
      }
    },
  },
};
