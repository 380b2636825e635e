import { describe, expect, it } from "vitest";
import { PAGE_STYLE } from "../../src/platform/http/html.js";
import { THEMES, type ThemeColours } from "../../src/platform/http/theme.js";

/** WCAG 2 relative luminance of `#rrggbb`. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two colours. */
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe("page themes", () => {
  it("the contrast formula matches WCAG's known values", () => {
    expect(contrast("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrast("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
  });

  for (const [name, theme] of Object.entries(THEMES) as Array<[string, ThemeColours]>) {
    it(`${name}: every text colour reaches 4.5:1 on the background, the focus ring 3:1`, () => {
      for (const key of ["fg", "muted", "error", "link"] as const) {
        expect(contrast(theme[key], theme.bg), `${name} ${key}`).toBeGreaterThanOrEqual(4.5);
      }
      expect(contrast(theme.focus, theme.bg)).toBeGreaterThanOrEqual(3);
    });
  }

  it("the stylesheet switches to the dark theme under prefers-color-scheme: dark and uses no fixed colour outside the themes", () => {
    expect(PAGE_STYLE).toContain(`@media (prefers-color-scheme:dark){:root{--fg:${THEMES.dark.fg};--bg:${THEMES.dark.bg}`);
    expect(PAGE_STYLE).toContain("color-scheme:light dark");
    const outsideThemes = PAGE_STYLE.replace(/:root\{[^}]*\}/g, "");
    expect(outsideThemes).not.toMatch(/#[0-9a-f]{3,6}\b/i);
  });
});
