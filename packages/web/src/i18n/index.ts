// i18next set-up. Only the active language is downloaded, in two parts (parts.ts): the login
// page's namespaces first, the rest once signed in. The UI kit / date library locales follow the
// same language choice.
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@lucky/shared';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { getItem, setItem } from '../api/storage';
import { LOGIN_NAMESPACES } from './parts';

export type Messages = Record<string, Record<string, string>>;

export function isLanguage(v: unknown): v is Language {
  return typeof v === 'string' && (LANGUAGES as readonly string[]).includes(v);
}

/** The stored choice, else the spec's default zh_CN. */
export function currentLanguage(): Language {
  const stored = getItem('lang');
  return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
}

/** BCP 47 tag for `<html lang>`. */
export function htmlLang(lang: Language): string {
  return lang === 'en_US' ? 'en' : 'zh-CN';
}

/** The login page's part of the language's messages (the page starts with it). */
export async function loadMessages(lang: Language): Promise<Messages> {
  const mod =
    lang === 'en_US'
      ? await import('virtual:locale-part/en_US-login')
      : await import('virtual:locale-part/zh_CN-login');
  return mod.default;
}

let rest: Promise<void> | undefined;

/**
 * The rest of the messages (every screen past the login page), fetched once and added to the
 * loaded language. A failed fetch is forgotten, so the next call tries again.
 */
export function loadRestMessages(): Promise<void> {
  rest ??= (async () => {
    const lang = isLanguage(i18next.language) ? i18next.language : currentLanguage();
    const mod =
      lang === 'en_US'
        ? await import('virtual:locale-part/en_US-rest')
        : await import('virtual:locale-part/zh_CN-rest');
    i18next.addResourceBundle(lang, 'translation', mod.default, true, false);
  })().catch((err: unknown) => {
    rest = undefined;
    throw err;
  });
  return rest;
}

/** Whether the loaded language holds more than the login page's namespaces (tests load them all). */
export function restMessagesLoaded(): boolean {
  const bundle: Record<string, unknown> = i18next.getResourceBundle(i18next.language, 'translation') ?? {};
  return Object.keys(bundle).some((ns) => !LOGIN_NAMESPACES.includes(ns));
}

export async function initI18n(lang: Language, messages: Messages): Promise<typeof i18next> {
  await i18next.use(initReactI18next).init({
    lng: lang,
    // Both files carry the same keys (checked by scripts/check-locales.mjs); a
    // missing key shows the key itself, which the locale test catches first.
    fallbackLng: false,
    resources: { [lang]: { translation: messages } },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return i18next;
}

/** Spec §4: a language change stores the choice and reloads the page. */
export function switchLanguage(lang: Language): void {
  setItem('lang', lang);
  window.location.reload();
}
