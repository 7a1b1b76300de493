// Certificates of the core's store (/api/ssl): what HTTPS listeners pick from
// by SNI at each handshake. A list with domains, validity and fingerprint;
// switch, remark and delete per row; a dialog to add a PEM pair.
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Empty,
  Popconfirm,
  Space,
  Switch,
  Table,
  type TableColumnsType,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { type HTMLAttributes, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../components/CopyButton';
import { formatTime as formatDay } from '../../components/time';
import { CertAddDialog } from './CertAddDialog';
import {
  type CertValidity,
  type CertView,
  certKeys,
  certValidity,
  chainNames,
  deleteCert,
  fetchCerts,
  formatFingerprint,
  SOON_DAYS,
  setCertEnabled,
  setCertRemark,
  shortFingerprint,
} from './certs';
import { formatTime } from './time';

/** Leaf names shown as tags before the rest fold into "+n". */
const DOMAIN_TAGS = 4;
const REMARK_MAX = 256;

const day = (iso?: string) => formatDay(iso, 'YYYY-MM-DD', '-');

export function CertsTab() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [adding, setAdding] = useState(false);
  /** Rows with a switch or remark call on the way. */
  const [busy, setBusy] = useState<Record<string, boolean>>({});
  const certs = useQuery({ queryKey: certKeys.list, queryFn: ({ signal }) => fetchCerts(signal) });

  const refresh = () => qc.invalidateQueries({ queryKey: certKeys.list });
  const patch = (key: string, change: Partial<CertView>) =>
    qc.setQueryData<CertView[]>(certKeys.list, (old) => old?.map((c) => (c.Key === key ? { ...c, ...change } : c)));

  /** One row call; the client shows a refusal, the list then shows what the server has. */
  const rowCall = async (key: string, run: () => Promise<unknown>, done: string) => {
    setBusy((b) => ({ ...b, [key]: true }));
    try {
      await run();
      void message.success(done);
    } catch {
      // shown by the client
    } finally {
      setBusy(({ [key]: _, ...rest }) => rest);
      await refresh();
    }
  };

  const toggle = (c: CertView, on: boolean) => {
    patch(c.Key, { Enable: on });
    void rowCall(c.Key, () => setCertEnabled(c.Key, on), on ? t('safe.certSwitchedOn') : t('safe.certSwitchedOff'));
  };

  const saveRemark = (c: CertView, text: string) => {
    const remark = text.trim().slice(0, REMARK_MAX);
    if (remark === c.Remark) return;
    patch(c.Key, { Remark: remark });
    void rowCall(c.Key, () => setCertRemark(c.Key, remark), t('safe.certRemarkSaved'));
  };

  const remove = (c: CertView) => rowCall(c.Key, () => deleteCert(c.Key), t('safe.certDeleted'));

  const validityTag = (v: CertValidity) => {
    switch (v.state) {
      case 'expired':
        return <Tag color="error">{t('safe.certTagExpired')}</Tag>;
      case 'soon':
        return (
          <Tooltip title={t('safe.certSoonHelp', { days: SOON_DAYS })}>
            <Tag color="warning">{t('safe.certTagSoon')}</Tag>
          </Tooltip>
        );
      case 'notYetValid':
        return <Tag color="processing">{t('safe.certTagNotYetValid')}</Tag>;
      case 'unreadable':
        return (
          <Tooltip title={t('safe.certUnreadableHelp')}>
            <Tag color="error">{t('safe.certTagUnreadable')}</Tag>
          </Tooltip>
        );
      default:
        return null;
    }
  };

  const daysText = (v: CertValidity) => {
    if (v.daysLeft === undefined) return null;
    if (v.state === 'expired') {
      const ago = Math.abs(v.daysLeft);
      return (
        <Typography.Text type="danger">
          {ago === 1 ? t('safe.certExpiredOneDayAgo') : t('safe.certExpiredAgo', { count: ago })}
        </Typography.Text>
      );
    }
    if (v.state === 'notYetValid') {
      return <Typography.Text type="secondary">{t('safe.certStartsOn', { date: day(v.notBefore) })}</Typography.Text>;
    }
    return (
      <Typography.Text type={v.state === 'soon' ? 'warning' : 'secondary'}>
        {v.daysLeft === 0
          ? t('safe.certLastDay')
          : v.daysLeft === 1
            ? t('safe.certOneDayLeft')
            : t('safe.certDaysLeft', { count: v.daysLeft })}
      </Typography.Text>
    );
  };

  const columns: TableColumnsType<CertView> = [
    {
      title: t('safe.certDomains'),
      key: 'domains',
      render: (_, c) => {
        const names = c.CertsInfo[0]?.Domains ?? [];
        const rest = names.slice(DOMAIN_TAGS);
        const chain = chainNames(c);
        return (
          <div className="cert-domains">
            <div data-testid={`cert-domains-${c.Key}`}>
              {names.length === 0 && <Typography.Text type="secondary">-</Typography.Text>}
              {names.slice(0, DOMAIN_TAGS).map((d) => (
                <Tag key={d} className="mono">
                  {d}
                </Tag>
              ))}
              {rest.length > 0 && (
                <Tooltip title={rest.join(', ')}>
                  <Tag>+{rest.length}</Tag>
                </Tooltip>
              )}
            </div>
            {chain.length > 0 && (
              <Tooltip title={t('safe.certChainTip', { chain: chain.join(' → ') })}>
                <Typography.Text type="secondary" className="cert-issuer" data-testid={`cert-issuer-${c.Key}`}>
                  {t('safe.certIssuedBy', { name: chain[0] })}
                </Typography.Text>
              </Tooltip>
            )}
          </div>
        );
      },
    },
    {
      title: t('safe.certValidity'),
      key: 'validity',
      width: 200,
      sorter: (a, b) =>
        Date.parse(a.CertsInfo[0]?.NotAfterTime ?? '') - Date.parse(b.CertsInfo[0]?.NotAfterTime ?? '') || 0,
      render: (_, c) => {
        const v = certValidity(c);
        return (
          <div className="cert-validity" data-testid={`cert-validity-${c.Key}`}>
            {v.state !== 'unreadable' && (
              <Tooltip title={`${formatTime(v.notBefore)} ~ ${formatTime(v.notAfter)}`}>
                <span className="cert-dates">
                  {day(v.notBefore)} ~ {day(v.notAfter)}
                </span>
              </Tooltip>
            )}
            <span>
              {validityTag(v)}
              {daysText(v)}
            </span>
          </div>
        );
      },
    },
    {
      title: t('safe.certFingerprint'),
      key: 'fingerprint',
      width: 170,
      render: (_, c) =>
        c.Fingerprint ? (
          <span className="cert-fingerprint">
            <Tooltip title={`SHA-256 ${formatFingerprint(c.Fingerprint)}`}>
              <span className="mono" data-testid={`cert-fingerprint-${c.Key}`}>
                {shortFingerprint(c.Fingerprint)}
              </span>
            </Tooltip>
            <CopyButton
              iconOnly
              size="small"
              text={formatFingerprint(c.Fingerprint)}
              label={t('safe.certCopyFingerprint')}
              data-testid={`cert-fingerprint-copy-${c.Key}`}
            />
          </span>
        ) : (
          '-'
        ),
    },
    {
      title: t('safe.certRemark'),
      key: 'remark',
      width: 160,
      render: (_, c) => (
        <span data-testid={`cert-remark-${c.Key}`}>
          <Typography.Text
            type={c.Remark ? undefined : 'secondary'}
            editable={{
              text: c.Remark,
              maxLength: REMARK_MAX,
              tooltip: t('safe.certRemarkEdit'),
              onChange: (text) => saveRemark(c, text),
            }}
          >
            {c.Remark || '-'}
          </Typography.Text>
        </span>
      ),
    },
    {
      title: t('safe.certAddTime'),
      dataIndex: 'AddTime',
      width: 110,
      render: (v: string) => (
        <Tooltip title={formatTime(v)}>
          <span>{day(v)}</span>
        </Tooltip>
      ),
    },
    {
      title: t('safe.certEnabled'),
      key: 'enable',
      width: 64,
      render: (_, c) => (
        <Switch
          checked={c.Enable}
          loading={busy[c.Key]}
          onChange={(on) => toggle(c, on)}
          aria-label={t('safe.certEnabled')}
          data-testid={`cert-enable-${c.Key}`}
        />
      ),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      width: 80,
      render: (_, c) => (
        <Popconfirm
          title={t('safe.certDeleteConfirm')}
          okText={t('common.confirm')}
          cancelText={t('common.cancel')}
          okButtonProps={{ danger: true }}
          onConfirm={() => remove(c)}
        >
          <Button danger size="small" data-testid={`cert-delete-${c.Key}`}>
            {t('safe.certDelete')}
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <Card
      title={t('safe.certsTitle')}
      extra={
        <Space>
          <Button icon={<ReloadOutlined />} onClick={() => void certs.refetch()} loading={certs.isFetching}>
            {t('common.refresh')}
          </Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="cert-add">
            {t('safe.certAdd')}
          </Button>
        </Space>
      }
      data-testid="certs-tab"
    >
      <Typography.Paragraph type="secondary">{t('safe.certsHelp')}</Typography.Paragraph>
      <Table<CertView>
        rowKey="Key"
        className="cert-table"
        loading={certs.isPending}
        dataSource={certs.data}
        pagination={false}
        scroll={{ x: 1000 }}
        columns={columns}
        rowClassName={(c) => (c.Enable ? '' : 'cert-row-off')}
        onRow={(c) => ({ 'data-testid': `cert-row-${c.Key}` }) as HTMLAttributes<HTMLElement>}
        locale={{
          emptyText: certs.isPending ? (
            ' '
          ) : certs.isError ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('safe.certsLoadFailed')} />
          ) : (
            <Empty description={t('safe.certsEmpty')} data-testid="certs-empty">
              <Typography.Paragraph type="secondary">{t('safe.certsEmptyHelp')}</Typography.Paragraph>
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
                {t('safe.certAdd')}
              </Button>
            </Empty>
          ),
        }}
      />
      <CertAddDialog
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={() => {
          setAdding(false);
          void refresh();
        }}
      />
    </Card>
  );
}
