// What jsdom lacks and antd or react-router expect (versions.md).
const util = require('node:util');

globalThis.TextEncoder ??= util.TextEncoder;
globalThis.TextDecoder ??= util.TextDecoder;

// A timer-based MessageChannel: node's worker_threads one keeps Jest from exiting.
if (typeof globalThis.MessageChannel === 'undefined') {
  globalThis.MessageChannel = class MessageChannel {
    constructor() {
      const make = () => ({ onmessage: null, postMessage: undefined, close() {}, start() {} });
      this.port1 = make();
      this.port2 = make();
      this.port1.postMessage = (data) => setTimeout(() => this.port2.onmessage?.({ data }), 0);
      this.port2.postMessage = (data) => setTimeout(() => this.port1.onmessage?.({ data }), 0);
    }
  };
}

if (typeof window !== 'undefined' && !window.matchMedia) {
  window.matchMedia = (query) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener() {},
    removeListener() {},
    addEventListener() {},
    removeEventListener() {},
    dispatchEvent: () => false,
  });
}

// antd's Tabs and others measure with ResizeObserver; jsdom has no layout, so nothing is observed.
if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class ResizeObserver {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

// antd's Table measures the scrollbar with getComputedStyle(el, '::-webkit-scrollbar'); jsdom
// implements no pseudo-elements and logs "Not implemented" for each call: ask without one.
if (typeof window !== 'undefined') {
  const getComputedStyle = window.getComputedStyle.bind(window);
  window.getComputedStyle = (element) => getComputedStyle(element);
}

// antd injects its styles as CSS-in-JS: a screen's page holds 200–400 KB of rules, and jsdom's
// getComputedStyle matches every rule against the element and each ancestor, 20–40 ms a call.
// Every role query calls it for each element it looks at (to leave hidden ones out), so one
// query with a name over a whole form cost 0.4–1 s, and a test of a dozen queries ran past
// Jest's 30 s on a loaded CI machine. jsdom has no layout, so the only computed properties that
// change what a test sees are those that hide an element or make it unclickable (and content,
// which antd's style cache reads): once a sheet is in the document, its rules that set none of
// them are taken out (a rule that sets one is left whole). Tested in shared/src/jsdom-styles.test.tsx.
if (typeof window !== 'undefined') {
  const KEPT = new Set(['display', 'visibility', 'opacity', 'pointer-events', 'content']);
  const matters = (rule) => {
    if (rule.cssRules) {
      pruneRules(rule);
      return rule.cssRules.length > 0;
    }
    const style = rule.style;
    if (!style) return true; // @font-face, @keyframes and the like: not matched against elements
    for (let i = 0; i < style.length; i += 1) if (KEPT.has(style[i])) return true;
    return false;
  };
  const pruneRules = (group) => {
    for (let i = group.cssRules.length - 1; i >= 0; i -= 1) {
      if (matters(group.cssRules[i])) continue;
      if (typeof group.deleteRule === 'function') group.deleteRule(i);
      else group.cssRules.splice(i, 1); // @layer blocks in jsdom's CSSOM have no deleteRule
    }
  };
  const pruned = new WeakSet();
  const pruneNewSheets = () => {
    for (const sheet of document.styleSheets) {
      if (pruned.has(sheet)) continue;
      pruned.add(sheet);
      pruneRules(sheet);
    }
  };
  new window.MutationObserver(pruneNewSheets).observe(document, { subtree: true, childList: true, characterData: true });
}
