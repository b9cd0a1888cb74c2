/** The portal's two antd themes (css_theme light and dark), with the colours that make text pass 4.5:1. */
import { theme as antTheme, type ThemeConfig } from 'antd';

/** gold-9: warning text on white. */
export const WARNING_TEXT_ON_LIGHT = '#874d00';

// antd's default blues fall below 4.5:1 (axe: color-contrast): on white, links and the primary
// colour take blue-7 (~6:1); on the dark background, link and selected text (a selected submenu's title too) take blue-4 (~8:1)
// while buttons keep the darker primary under their white text. Menu group titles and secondary
// text (45% opacity by default: ~3.4:1 on the grey page) are darkened in both. On white, error
// red (a Deny button's text, form errors) takes red-7 (~5.9:1; the default red-5 is ~3.7:1);
// status tags' green and gold text take their 8th shade (~5.5:1 on the tag's tint); a table's
// empty text (drawn in the 25% 'disabled' grey) and an unbordered description list's labels
// (45% by default: ~3.4:1 on a card) take the secondary grey. On the dark
// background one red serves as text (Deny, form errors) and as a solid button's fill: it takes
// the light red-4 (~7:1 on the page) and a solid danger button writes dark text on it.
// Warning text (a '[Warning]' comment, spec section 9; form warnings) is gold-6 by default, 1.9:1
// on white: on white it takes gold-9 (~6.8:1), and so does the warning tag's text (gold-8 was
// ~4.3:1 on the tag's tint); the dark theme's gold is ~7:1 on its background already
// (themes.test.ts computes each ratio).
// Unhashed (`hashed: false`): antd's selectors carry no `:where(.css-<hash>)` scope, which only
// keeps apart several antd versions on one page, and the portal has one (a shared singleton). Its
// styles file is a sixth smaller for it, and the build writes it unhashed too
// (shared/build/antd-static-styles.cjs).
export const LIGHT: ThemeConfig = {
  hashed: false,
  algorithm: antTheme.defaultAlgorithm,
  token: {
    colorPrimary: '#0958d9',
    colorLink: '#0958d9',
    colorError: '#cf1322',
    colorTextDescription: 'rgba(0, 0, 0, 0.65)',
    colorWarningText: WARNING_TEXT_ON_LIGHT,
  },
  components: {
    Menu: { groupTitleColor: 'rgba(0, 0, 0, 0.68)' },
    // The blue 'processing' tag (a subscription held through a group) writes blue-7, as links do (blue-6 was ~3.7:1 on its tint).
    Tag: { colorSuccess: '#237804', colorWarning: WARNING_TEXT_ON_LIGHT, colorInfo: '#0958d9' },
    Table: { colorTextDisabled: 'rgba(0, 0, 0, 0.65)' },
    Descriptions: { labelColor: 'rgba(0, 0, 0, 0.65)' },
  },
};
export const DARK: ThemeConfig = {
  hashed: false,
  algorithm: antTheme.darkAlgorithm,
  token: { colorLink: '#69b1ff', colorLinkHover: '#91caff', colorError: '#ff7875', colorTextDescription: 'rgba(255, 255, 255, 0.65)' },
  components: {
    Menu: { groupTitleColor: 'rgba(255, 255, 255, 0.72)', itemSelectedColor: '#69b1ff', subMenuItemSelectedColor: '#69b1ff' },
    Tabs: { itemSelectedColor: '#69b1ff', itemActiveColor: '#69b1ff', itemHoverColor: '#91caff', inkBarColor: '#69b1ff' },
    Table: { colorTextDisabled: 'rgba(255, 255, 255, 0.65)' },
    Descriptions: { labelColor: 'rgba(255, 255, 255, 0.65)' },
    Button: { dangerColor: 'rgba(0, 0, 0, 0.88)' },
    // The blue 'processing' tag (a subscription held through a group) writes blue-4 on its tint (the dark blue was ~2.9:1).
    Tag: { colorInfo: '#69b1ff' },
  },
};

