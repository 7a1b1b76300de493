// How to connect, per client: the exact text to type on Windows, macOS, phones, rclone, davfs2 and
// Linux file managers, each line with a copy button. Over plain HTTP it says what Windows needs
// (Basic auth over HTTP is off there by default) and that passwords cross the network readable.
import { Alert, Card, Tabs, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../components/CopyButton';
import { type ConnectTarget, connectLines } from './connectHelp';

function Line({ text, testId }: { text: string; testId?: string }) {
  return (
    <div className="webdav-line">
      <code className="mono" data-testid={testId}>
        {text}
      </code>
      <CopyButton text={text} iconOnly size="small" />
    </div>
  );
}

function Step({ children }: { children: ReactNode }) {
  return <Typography.Paragraph className="webdav-step">{children}</Typography.Paragraph>;
}

export function ConnectHelp({ target }: { target: ConnectTarget }) {
  const { t } = useTranslation();
  const l = connectLines(target);
  const plain = !target.https;
  const tabs = [
    {
      key: 'windows',
      label: 'Windows',
      children: (
        <>
          <Step>{t('webdav.helpWindowsMap')}</Step>
          <Line text={l.windowsUnc} testId="webdav-help-windows" />
          <Step>{t('webdav.helpWindowsUrl')}</Step>
          <Line text={l.url} />
          {plain && <Alert type="warning" showIcon title={t('webdav.helpWindowsBasicAuth')} />}
          <Step>{t('webdav.helpWindowsLimits')}</Step>
        </>
      ),
    },
    {
      key: 'macos',
      label: 'macOS',
      children: (
        <>
          <Step>{t('webdav.helpFinder')}</Step>
          <Line text={l.finder} testId="webdav-help-finder" />
        </>
      ),
    },
    {
      key: 'mobile',
      label: t('webdav.helpMobileTab'),
      children: (
        <>
          <Step>{t('webdav.helpMobile')}</Step>
          <Line text={l.url} />
        </>
      ),
    },
    {
      key: 'rclone',
      label: 'rclone',
      children: (
        <>
          <Step>{t('webdav.helpRclone')}</Step>
          {l.rclone.map((x) => (
            <Line key={x} text={x} testId="webdav-help-rclone" />
          ))}
        </>
      ),
    },
    {
      key: 'davfs2',
      label: 'davfs2',
      children: (
        <>
          <Step>{t('webdav.helpDavfs2')}</Step>
          <Line text={l.davfs2[0]} testId="webdav-help-davfs2" />
          <Step>{t('webdav.helpDavfs2Secrets')}</Step>
          <Line text={l.davfs2[1]} />
        </>
      ),
    },
    {
      key: 'linux',
      label: t('webdav.helpLinuxTab'),
      children: (
        <>
          <Step>{t('webdav.helpGnome')}</Step>
          <Line text={l.gnome} />
          <Step>{t('webdav.helpKde')}</Step>
          <Line text={l.kde} />
        </>
      ),
    },
  ];
  return (
    <Card size="small" title={t('webdav.connectHelp')} data-testid="webdav-help">
      {target.https && <Typography.Paragraph type="secondary">{t('webdav.helpTrustedCert')}</Typography.Paragraph>}
      <Tabs size="small" items={tabs} />
    </Card>
  );
}
