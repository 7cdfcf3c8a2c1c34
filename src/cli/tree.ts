/** Trees drawn with box characters, for the pictures commands show on a terminal. */

export interface TreeShape<T> {
  label: (node: T) => string;
  children: (node: T) => readonly T[];
}

/** One line per node, depth first: `├─ ` / `└─ ` before each label, `│  ` down the open branches. */
export function drawTree<T>(roots: readonly T[], shape: TreeShape<T>, prefix = ''): string[] {
  const lines: string[] = [];
  roots.forEach((node, i) => {
    const last = i === roots.length - 1;
    lines.push(`${prefix}${last ? '└─ ' : '├─ '}${shape.label(node)}`);
    lines.push(...drawTree(shape.children(node), shape, prefix + (last ? '   ' : '│  ')));
  });
  return lines;
}
