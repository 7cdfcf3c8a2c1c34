/**
 * The customization of a published site. The sandbox does not model customization (no operation sets
 * it), so every site has the service's defaults, as the official document's SiteCustomizationSettings
 * requires them: GitBook's default theme, colours and fonts, no logo, links, announcement or social
 * accounts, no AI, the built-in page actions. Only what follows from the site itself varies: its
 * title, the interface language (its default space's, when the document has it as a locale), and
 * advanced customization (its plan's). Site spaces override nothing, and no integration adds
 * scripts (the sandbox has no integrations).
 */
import type { SiteRec } from './state.js';
import { hasPlan } from './features.js';

/** The document's CustomizationLocale. */
const LOCALES = new Set(['en', 'fr', 'es', 'zh', 'ja', 'de', 'nl', 'no', 'pt-br', 'ru']);

const themed = <T>(value: T) => ({ light: value, dark: value });

/** SiteCustomizationSettings of a site, `language` being its default space's content language. */
export function siteCustomization(site: SiteRec, language: string | undefined): Record<string, unknown> {
  return {
    title: site.title,
    styling: {
      theme: 'clean',
      primaryColor: themed('#346DDB'),
      infoColor: themed('#787878'),
      successColor: themed('#00C950'),
      warningColor: themed('#FE9A00'),
      dangerColor: themed('#FB2C36'),
      corners: 'rounded',
      depth: 'subtle',
      links: 'default',
      font: 'Inter',
      monospaceFont: 'IBMPlexMono',
      codeTheme: { default: { light: 'default-light', dark: 'default-dark' }, openapi: { light: 'default-light', dark: 'default-dark' } },
      background: 'plain',
      icons: 'regular',
      sidebar: { background: 'default', list: 'default' },
      search: 'subtle',
    },
    internationalization: { locale: language && LOCALES.has(language) ? language : 'en' },
    favicon: {},
    header: { preset: 'default', links: [] },
    footer: { groups: [] },
    themes: { default: 'light', toggeable: true },
    feedback: { enabled: false },
    ai: { mode: 'none' },
    advancedCustomization: { enabled: hasPlan(site, 'premium') },
    pageActions: { items: ['markdown', 'external-ai', 'mcp'] },
    externalLinks: { target: 'self' },
    pagination: { enabled: true },
    trademark: { enabled: true },
    privacyPolicy: {},
    socialPreview: {},
    socialAccounts: [],
    insights: { trackingCookie: true },
  };
}
