/** The colours of one theme of the hosted pages (CSS custom properties `--fg`, `--bg`, …). */
export interface ThemeColours {
  /** Body text. */
  fg: string;
  /** Page background. */
  bg: string;
  /** Secondary text (`.muted`). */
  muted: string;
  /** Error text (`.error`, `.danger`). */
  error: string;
  /** Links. */
  link: string;
  /** Focus outline. */
  focus: string;
  /** Table and fieldset rules (decoration, not text). */
  line: string;
}

/**
 * The light and dark themes, chosen by the browser's `prefers-color-scheme`. Every text colour has a
 * contrast of at least 4.5:1 (WCAG 2 AA) against its background, checked by `test/unit/page-theme.test.ts`
 * and by axe-core in Chromium.
 */
export const THEMES: { light: ThemeColours; dark: ThemeColours } = {
  light: { fg: "#1b1b1f", bg: "#ffffff", muted: "#5c5c66", error: "#b00020", link: "#1a5fb4", focus: "#1a5fb4", line: "#d0d0d7" },
  dark: { fg: "#e6e6eb", bg: "#16161a", muted: "#a9a9b4", error: "#ff8c96", link: "#8cb8ff", focus: "#8cb8ff", line: "#3c3c46" },
};

const vars = (c: ThemeColours) => `--fg:${c.fg};--bg:${c.bg};--muted:${c.muted};--error:${c.error};--link:${c.link};--focus:${c.focus};--line:${c.line}`;

/** The themes as CSS: custom properties for light, overridden under `prefers-color-scheme: dark`. */
export const THEME_STYLE = `:root{color-scheme:light dark;${vars(THEMES.light)}}` + `@media (prefers-color-scheme:dark){:root{${vars(THEMES.dark)}}}`;
