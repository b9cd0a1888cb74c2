/**
 * Text highlighted as a warning ('[Warning]' comments, spec section 9) passes
 * WCAG AA (4.5:1) in both themes. antd's default warning text is gold-6, 1.9:1 on white.
 */
import { theme as antTheme, type ThemeConfig } from 'antd';
import { DARK, LIGHT } from './themes';

/** WCAG 2 relative luminance of #rrggbb. */
function luminance(hex: string): number {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) throw new Error(`not a #rrggbb colour: ${hex}`);
  const [r, g, b] = match.slice(1).map((part) => {
    const v = parseInt(part, 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two colours. */
function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const tokens = (theme: ThemeConfig) => antTheme.getDesignToken(theme);

describe('contrastRatio', () => {
  it('is 21 for black on white, 1 for a colour on itself, and 1.9 for antd’s default warning gold on white', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#faad14', '#faad14')).toBe(1);
    expect(contrastRatio('#faad14', '#ffffff')).toBeCloseTo(1.9, 1);
  });
});

describe.each([
  ['light', LIGHT],
  ['dark', DARK],
])('the %s theme', (_name, theme) => {
  it("draws '[Warning]' text (Typography type warning: colorWarningText) at 4.5:1 or more on a table and on the page", () => {
    const t = tokens(theme);
    for (const background of [t.colorBgContainer, t.colorBgLayout]) {
      expect(contrastRatio(t.colorWarningText, background)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("draws the blue 'processing' tag (a subscription held through a group) at 4.5:1 or more on its tint", () => {
    const t = tokens(theme);
    const tagText = (theme.components?.Tag as { colorInfo?: string } | undefined)?.colorInfo ?? t.colorInfo;
    expect(contrastRatio(tagText, t.colorInfoBg)).toBeGreaterThanOrEqual(4.5);
  });

  it('draws the warning tag (a non-US citizenship) at 4.5:1 or more on its tint', () => {
    const t = tokens(theme);
    const tagText = (theme.components?.Tag as { colorWarning?: string } | undefined)?.colorWarning ?? t.colorWarning;
    expect(contrastRatio(tagText, t.colorWarningBg)).toBeGreaterThanOrEqual(4.5);
  });
});

describe('both themes', () => {
  it("are unhashed, as the build writes antd's styles (shared/build/antd-static-styles.cjs): a hashed theme would find none of the file's styles and compute them all", () => {
    expect([LIGHT.hashed, DARK.hashed]).toEqual([false, false]);
  });
});
