import { LANGUAGES, type Language } from '@lucky/shared';
import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLanguage, isLanguage, switchLanguage } from '../../i18n';

/**
 * Spec §4: choosing a language stores it and reloads the page. With two
 * languages a segmented switch shows both at once (and is far lighter than a
 * select on the login page's budget).
 */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  // The language this page was loaded in, which is what the user sees.
  const active = isLanguage(i18n.language) ? i18n.language : currentLanguage();
  return (
    <Segmented<Language>
      size="small"
      value={active}
      onChange={switchLanguage}
      aria-label={t('common.language')}
      data-testid="language-switch"
      options={LANGUAGES.map((lang) => ({ value: lang, label: t(`common.lang_${lang}`) }))}
    />
  );
}
