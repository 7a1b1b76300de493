import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import { pageTitle, routeTitleKey } from '../title';

export function useDocumentTitle(): void {
  const { t } = useTranslation();
  const key = routeTitleKey(useMatches());
  const title = pageTitle(key ? t(key) : undefined);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
