// jsdom lacks a few browser APIs antd relies on; tests get zh_CN (the default language).
import { cleanup, configure } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach } from 'vitest';
import zhCN from '../i18n/zh_CN.json';

if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    configurable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}

if (!('ResizeObserver' in window)) {
  (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

// jsdom does not implement pseudo-element styles and logs an error for each call antd makes.
const computed = window.getComputedStyle.bind(window);
window.getComputedStyle = (elt: Element) => computed(elt);

void i18next.use(initReactI18next).init({
  lng: 'zh_CN',
  fallbackLng: false,
  resources: { zh_CN: { translation: zhCN } },
  interpolation: { escapeValue: false },
  initAsync: false,
});

// findBy* / waitFor wait up to 5 s (1 s by default): a first render that loads antd and a lazy
// screen took 1.5 s on a loaded CI machine.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});
