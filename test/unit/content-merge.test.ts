import { describe, expect, it } from 'vitest';
import { edit, editPage, mergeContent, newPage, walkPages, type RevisionContent } from '../../src/server/content/index.js';
import { Store } from '../../src/server/store.js';

function base(): RevisionContent {
  const store = new Store();
  const a = newPage(store, { id: 'a', title: 'A', slug: 'a', markdown: 'a\n' });
  const b = newPage(store, { id: 'b', title: 'B', slug: 'b', markdown: 'b\n', pages: [newPage(store, { id: 'b1', title: 'B1', slug: 'b1' })] });
  const c = newPage(store, { id: 'c', title: 'C', slug: 'c', markdown: 'c\n' });
  return { pages: [a, b, c], files: [], variables: { v: '1' } };
}

const paths = (c: RevisionContent) => [...walkPages(c.pages)].map((e) => `${e.path}=${e.page.markdown.trim()}`);

describe('mergeContent', () => {
  it('takes their changes over ours where only they changed, keeping ours elsewhere', () => {
    const b = base();
    const ours = edit(b);
    editPage(ours, 'a')!.page.markdown = 'a ours\n';
    ours.variables.w = 'ours';
    const theirs = edit(b);
    editPage(theirs, 'c')!.page.markdown = 'c theirs\n';
    editPage(theirs, 'b')!.page.pages = [];
    theirs.pages.push({ ...theirs.pages[0], id: 'd', slug: 'd', markdown: 'd\n' });
    theirs.variables.v = '2';
    const merged = mergeContent(b, ours, theirs);
    expect(merged.conflicts).toEqual([]);
    expect(paths(merged.content)).toEqual(['a=a ours', 'b=b', 'c=c theirs', 'd=d']);
    expect(merged.content.variables).toEqual({ v: '2', w: 'ours' });
  });

  it('keeps a reordering made on one side', () => {
    const b = base();
    const theirs = edit(b);
    theirs.pages.reverse();
    const ours = edit(b);
    editPage(ours, 'a')!.page.markdown = 'a ours\n';
    expect(paths(mergeContent(b, ours, theirs).content)).toEqual(['c=c', 'b=b', 'b/b1=', 'a=a ours']);
  });

  it('reports pages both sides changed differently, and changes nothing then', () => {
    const b = base();
    const ours = edit(b);
    editPage(ours, 'a')!.page.markdown = 'a ours\n';
    const theirs = edit(b);
    editPage(theirs, 'a')!.page.markdown = 'a theirs\n';
    const merged = mergeContent(b, ours, theirs);
    expect(merged.conflicts).toEqual(['a']);
    expect(merged.content).toBe(ours);
  });

  it('does not count the same edit on both sides as a conflict', () => {
    const b = base();
    const ours = edit(b);
    editPage(ours, 'a')!.page.title = 'Same';
    const theirs = edit(b);
    Object.assign(editPage(theirs, 'a')!.page, { title: 'Same', updatedAt: 'later' });
    expect(mergeContent(b, ours, theirs).conflicts).toEqual([]);
  });

  it('reports a page added under a parent the other side deleted', () => {
    const b = base();
    const ours = edit(b);
    ours.pages.splice(0, 1);
    const theirs = edit(b);
    editPage(theirs, 'a')!.page.pages.push({ ...theirs.pages[2], id: 'x', slug: 'x' });
    expect(mergeContent(b, ours, theirs).conflicts).toEqual(['a']);
  });
});
