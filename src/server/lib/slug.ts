/**
 * The one slug function of the sandbox: page slugs, site space and section paths, section ids
 * of search results. Letters lose their diacritics (`é` → `e`), the letters that do not decompose
 * are spelled out in ASCII (`ß` → `ss`, `ø` → `o`), and every run of anything else is one dash.
 */

/** Letters NFKD does not decompose into ASCII. */
const ASCII_FOLD: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  þ: 'th',
  ı: 'i',
};

/** Lower-case letters, digits and single dashes, at most `max` characters; `fallback` when nothing is left. */
export function slugify(text: string, fallback = 'page', max = 100): string {
  const slug = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\u00df\u00e6\u0153\u00f8\u0111\u00f0\u0142\u00fe\u0131]/g, (ch) => ASCII_FOLD[ch]) // ßæœøđðłþı (escaped: the bundle stays ASCII)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '');
  return slug || fallback;
}
