// Entry: pick the language, load only its messages and locales, then render.
import dayjs from 'dayjs';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createHashRouter, RouterProvider } from 'react-router';
import { configureClient } from './api/client';
import { createQueryClient, Providers } from './app/providers';
import { buildRoutes } from './app/routes';
import { currentLanguage, htmlLang, initI18n, loadMessages } from './i18n';
import './styles.css';

async function start() {
  const lang = currentLanguage();
  const [messages, antdLocale] = await Promise.all([
    loadMessages(lang),
    lang === 'en_US' ? import('antd/locale/en_US') : import('antd/locale/zh_CN'),
    lang === 'en_US' ? Promise.resolve() : import('dayjs/locale/zh-cn'),
  ]);
  dayjs.locale(lang === 'en_US' ? 'en' : 'zh-cn');
  await initI18n(lang, messages);
  document.documentElement.lang = htmlLang(lang);

  const router = createHashRouter(buildRoutes());
  configureClient({ goToLogin: () => void router.navigate('/login') });

  const root = document.getElementById('root');
  if (!root) throw new Error('#root missing from index.html');
  createRoot(root).render(
    <StrictMode>
      <Providers antdLocale={antdLocale.default} queryClient={createQueryClient()}>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
}

void start();
