// i18next set-up. Only the active language is downloaded: each locale file is
// its own chunk, and the UI kit / date library locales follow the same choice.
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@lucky/shared';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { getItem, setItem } from '../api/storage';

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

export async function loadMessages(lang: Language): Promise<Messages> {
  const mod = lang === 'en_US' ? await import('./en_US.json') : await import('./zh_CN.json');
  return mod.default as Messages;
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
