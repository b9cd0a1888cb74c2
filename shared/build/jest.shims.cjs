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
