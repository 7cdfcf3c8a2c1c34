/**
 * A change request's description is a rich-text Document. The CLI writes plain text (paragraphs
 * separated by blank lines) as a Document of paragraphs, and shows a Document as its text.
 */
import type { z } from 'zod';
import type { Document } from '../../contract/content.js';

type Doc = z.output<typeof Document>;

export function documentFromText(text: string): Doc {
  const paragraphs = text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  return {
    object: 'document',
    data: { schemaVersion: 1 },
    nodes: paragraphs.map((p) => ({
      object: 'block',
      type: 'paragraph',
      data: {},
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: p, marks: [] }] }],
    })),
  };
}

/** The text of a Document: top-level blocks separated by blank lines, nested blocks by line breaks. */
export function documentText(doc: Doc): string {
  return doc.nodes.map(textOf).join('\n\n');
}

interface AnyNode {
  object?: string;
  leaves?: { text?: string }[];
  nodes?: AnyNode[];
}

function textOf(value: unknown): string {
  const node = value as AnyNode;
  if (node.object === 'text') return (node.leaves ?? []).map((l) => l.text ?? '').join('');
  const children = node.nodes ?? [];
  return children.map(textOf).join(children.some((c) => c.object === 'block') ? '\n' : '');
}
