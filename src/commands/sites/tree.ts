/** The published structure of a site drawn as a tree: sections, groups, site spaces, hidden ones marked. */
import { drawTree } from '../../cli/tree.js';
import type { PublishedSite, SiteSection, SiteSectionGroup, SiteSpace } from '../../contract/sites.js';

type Paint = (s: string) => string;
type Node = SiteSection | SiteSectionGroup | SiteSpace;

const plain: Paint = (s) => s;

export function publishedTree(profile: PublishedSite, dim: Paint = plain): string {
  const { site, structure } = profile;
  const lines = [`${site.title}  ${dim(site.id)}`, `${site.published ? 'published' : 'not published'} · ${site.visibility} · ${site.urls.published ?? ''}`];
  lines.push(...drawTree(structure.structure, { label: (node) => label(node, dim), children: childrenOf }));
  if (structure.structure.length === 0) lines.push(dim('(nothing published yet)'));
  return lines.join('\n') + '\n';
}

/** Every section, group and site space of the structure, depth first. */
export function nodesOf(profile: PublishedSite): Node[] {
  const out: Node[] = [];
  const visit = (nodes: readonly Node[]) => {
    for (const node of nodes) {
      out.push(node);
      visit(childrenOf(node));
    }
  };
  visit(profile.structure.structure);
  return out;
}

function childrenOf(node: Node): readonly Node[] {
  if (node.object === 'site-section') return node.siteSpaces;
  if (node.object === 'site-section-group') return node.children;
  return [];
}

function label(node: Node, dim: Paint): string {
  const marks: string[] = [];
  if (node.object !== 'site-section-group' && node.default) marks.push('[default]');
  if (node.object === 'site-space' && node.hidden) marks.push('(hidden)');
  if (node.draft) marks.push('(draft)');
  if (node.object !== 'site-section-group' && node.condition) marks.push(`if ${node.condition}`);
  const head = node.object === 'site-section-group' ? `${node.title}/` : `${node.title || '(untitled)'}  /${node.path}`;
  return [head, ...marks, dim(node.id)].join('  ');
}
