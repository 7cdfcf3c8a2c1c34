/**
 * `docsctl tree`: the organization drawn as a tree: collections (nested), the spaces in each, and the
 * spaces at the root, with an icon for each visibility and for deleted spaces (`--deleted`).
 */
import { defineCommand } from '../cli/command.js';
import { terminalLine } from '../cli/escape.js';
import { colours } from '../cli/output.js';
import { drawTree } from '../cli/tree.js';
import { ops as collectionOps, type Collection } from '../contract/collections.js';
import { ops as spaceOps, type Space } from '../contract/spaces.js';

const ICONS: Record<Space['visibility'], string> = {
  public: '🌐',
  unlisted: '🔗',
  'share-link': '🔑',
  'visitor-auth': '🔐',
  'in-collection': '📎',
  private: '🔒',
};
const DELETED = '🗑';

type TreeSpace = Pick<Space, 'id' | 'title' | 'emoji' | 'visibility' | 'parent'> & { deletedAt?: string };
interface TreeCollection {
  id: string;
  title: string;
  collections: TreeCollection[];
  spaces: TreeSpace[];
}
interface OrgTree {
  organization: string;
  collections: TreeCollection[];
  spaces: TreeSpace[];
}

const slim = (s: Space): TreeSpace => ({
  id: s.id,
  title: s.title,
  emoji: s.emoji,
  visibility: s.visibility,
  ...(s.parent ? { parent: s.parent } : {}),
  ...(s.deletedAt ? { deletedAt: s.deletedAt } : {}),
});

/** Nest collections and spaces by their `parent`; anything whose parent is not listed goes to the root. */
export function buildTree(organization: string, collections: Collection[], spaces: TreeSpace[]): OrgTree {
  const nodes = new Map(collections.map((c) => [c.id, { id: c.id, title: c.title, collections: [], spaces: [] } as TreeCollection]));
  const root: OrgTree = { organization, collections: [], spaces: [] };
  for (const c of collections) {
    const parent = c.parent ? nodes.get(c.parent) : undefined;
    (parent ? parent.collections : root.collections).push(nodes.get(c.id)!);
  }
  for (const s of spaces) {
    const parent = s.parent ? nodes.get(s.parent) : undefined;
    (parent ? parent.spaces : root.spaces).push(s);
  }
  return root;
}

export default defineCommand({
  name: 'tree',
  summary: 'Draw the organization: collections, their spaces, visibility and deleted spaces',
  description: `Icons: ${Object.entries(ICONS)
    .map(([v, i]) => `${i} ${v}`)
    .join(', ')}, ${DELETED} deleted (with --deleted).`,
  flags: {
    deleted: { type: 'boolean', description: 'also show deleted spaces that can still be restored (where the service lists them)' },
  },
  examples: ['docsctl tree', 'docsctl tree --deleted', 'docsctl tree --json | jq ".collections[].title"'],
  async run(ctx, { flags }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    const params = { organizationId };
    const collections: Collection[] = [];
    const spaces: TreeSpace[] = [];
    const all = async <T>(iter: AsyncIterable<T>, into: (t: T) => void) => {
      for await (const item of iter) into(item);
    };
    await Promise.all([
      all(api.paginate(collectionOps.listCollections, { params }).take(), (c) => collections.push(c)),
      all(api.paginate(spaceOps.listSpaces, { params }).take(), (s) => spaces.push(slim(s))),
      // The deleted list is the sandbox's extension; a service without it answers live spaces: kept out.
      flags.deleted
        ? all(api.paginate(spaceOps.listSpaces, { params, query: { deleted: true } }).take(), (s) => s.deletedAt && spaces.push(slim(s)))
        : undefined,
    ]);
    const tree = buildTree(organizationId, collections, spaces);
    if (flags.json || flags.fields) return tree;
    const { paint } = await colours(ctx);
    type Node = { kind: 'collection'; c: TreeCollection } | { kind: 'space'; s: TreeSpace };
    const childrenOf = (c: { collections: TreeCollection[]; spaces: TreeSpace[] }): Node[] => [
      ...c.collections.map((x): Node => ({ kind: 'collection', c: x })),
      ...c.spaces.map((s): Node => ({ kind: 'space', s })),
    ];
    const lines = drawTree(childrenOf(tree), {
      children: (n) => (n.kind === 'collection' ? childrenOf(n.c) : []),
      // Titles and ids from the service are escaped (one line, controls visible) before they are coloured.
      label: (n) => {
        if (n.kind === 'collection') return `📂 ${paint.key(terminalLine(n.c.title || '(untitled)'))}  ${paint.dim(terminalLine(n.c.id))}`;
        const s = n.s;
        const icon = s.deletedAt ? DELETED : (ICONS[s.visibility] ?? '?');
        const title = terminalLine(`${s.emoji ? `${s.emoji} ` : ''}${s.title || '(untitled)'}`);
        const note = terminalLine(s.deletedAt ? `deleted ${s.deletedAt.slice(0, 10)}` : s.visibility);
        return `${icon} ${s.deletedAt ? paint.dim(title) : title}  ${paint.dim(`${note} · ${terminalLine(s.id)}`)}`;
      },
    });
    // Written as drawn (in colour): a string returned would be text from the service, escaped whole on a terminal.
    ctx.out([terminalLine(organizationId), ...(lines.length ? lines : [paint.dim('(no collections or spaces)')])].join('\n') + '\n');
    return undefined;
  },
});
