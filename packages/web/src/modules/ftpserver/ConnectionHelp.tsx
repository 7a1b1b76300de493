// How to connect: the address to type into each client, with copy buttons, in the current TLS
// mode; FileZilla's settings spelled out, and what plain-only clients (Explorer, Finder, cameras,
// scanners) can and cannot do. Folded to the addresses until asked for every client (the screen
// is read far more often than a client is set up).

import { DownOutlined, UpOutlined } from '@ant-design/icons';
import type { FtpTlsMode } from '@lucky/shared';
import { Alert, Button, Card, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../components/CopyButton';
import { type HelpLine, helpLines } from './helpLines';

export interface ConnectionHelpProps {
  address: string;
  port: number;
  mode: FtpTlsMode;
  user?: string;
  /** The host this console was opened with; the browser's own by default. */
  consoleHost?: string;
}

export function ConnectionHelp({ address, port, mode, user, consoleHost }: ConnectionHelpProps) {
  const { t } = useTranslation();
  const [all, setAll] = useState(false);
  const lines = helpLines({ address, port, mode, user, consoleHost: consoleHost ?? window.location.hostname });
  const shown = all ? lines : lines.filter((l) => l.client === 'url' || l.client === 'ftpes');
  return (
    <Card
      size="small"
      title={t('ftpserver.helpTitle')}
      className="ftp-help"
      data-testid="ftp-help"
      extra={
        <Button
          size="small"
          type="link"
          icon={all ? <UpOutlined /> : <DownOutlined />}
          iconPlacement="end"
          onClick={() => setAll(!all)}
          aria-expanded={all}
          data-testid="ftp-help-more"
        >
          {t(all ? 'ftpserver.helpLess' : 'ftpserver.helpMore')}
        </Button>
      }
    >
      <dl className="ftp-help-list">
        {shown.map((l) => (
          <HelpRow key={l.client} line={l} mode={mode} port={port} />
        ))}
      </dl>
      {all && <Alert type="info" showIcon title={t('ftpserver.helpDevices')} className="ftp-help-devices" />}
    </Card>
  );
}

function HelpRow({ line, mode, port }: { line: HelpLine; mode: FtpTlsMode; port: number }) {
  const { t } = useTranslation();
  const tls = mode !== 'off';
  const note = {
    url: t(tls ? 'ftpserver.help_url_tls' : 'ftpserver.help_url'),
    ftpes: t('ftpserver.help_ftpes'),
    filezilla: t(tls ? 'ftpserver.help_filezilla_tls' : 'ftpserver.help_filezilla', { port }),
    lftp: t(tls ? 'ftpserver.help_lftp_tls' : 'ftpserver.help_lftp'),
    curl: t(tls ? 'ftpserver.help_curl_tls' : 'ftpserver.help_curl'),
    explorer: t(line.blocked ? 'ftpserver.help_plainOnlyBlocked' : 'ftpserver.help_explorer'),
    finder: t(line.blocked ? 'ftpserver.help_plainOnlyBlocked' : 'ftpserver.help_finder'),
  }[line.client];
  return (
    <div className="ftp-help-row" data-testid={`ftp-help-${line.client}`}>
      <dt>{t(`ftpserver.helpClient_${line.client}`)}</dt>
      <dd>
        {line.text && (
          <span className="ftp-help-text">
            <Typography.Text code className="ftp-help-code" data-testid={`ftp-help-text-${line.client}`}>
              {line.text}
            </Typography.Text>
            <CopyButton text={line.text} iconOnly size="small" data-testid={`ftp-help-copy-${line.client}`} />
          </span>
        )}
        <Typography.Text type={line.blocked ? 'warning' : 'secondary'} className="ftp-help-note">
          {note}
        </Typography.Text>
      </dd>
    </div>
  );
}
