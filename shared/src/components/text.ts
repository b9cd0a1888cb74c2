/**
 * Words as the pages show them. A module of its own: a page that only needs this (the groups
 * table) must not bring the request table, its pager and their antd parts with it.
 */
export const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
