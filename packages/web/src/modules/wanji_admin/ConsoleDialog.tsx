// Add / edit a console: address, name, API token (a password field; on edit it reads `******`
// and is kept unless replaced), how the console's certificate is trusted, a note. "Check
// certificate" connects over TLS without sending anything and shows what the console presents;
// in pin mode the user confirms that fingerprint (trust on first use) and it is saved with the
// console; in CA mode the certificate must be valid for the host (system CAs or the PEM given).
import { SafetyCertificateOutlined } from '@ant-design/icons';
import {
  WANJI_ADMIN_LIMITS as L,
  SECRET_MASK,
  WANJI_ADMIN_MESSAGES,
  type WanjiConsoleInput,
  type WanjiConsoleView,
  type WanjiProbeResponse,
  type WanjiTlsMode,
  wanjiConsoleInputSchema,
} from '@lucky/shared';
import { Alert, Button, Descriptions, Form, Input, Radio, Space, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Failure } from '../../api/callErrors';
import { FormDialog } from '../../components/form/FormDialog';
import { PemInput } from '../../components/PemInput';
import { formatTime } from '../../components/time';
import { useFormErrors } from '../../hooks/useFormErrors';
import { createConsole, probe, updateConsole } from './api';

export interface ConsoleFormValues {
  name: string;
  url: string;
  token: string;
  tls: { mode: WanjiTlsMode; fingerprint: string; ca: string };
  note: string;
  enabled: boolean;
}

export function consoleToValues(c?: WanjiConsoleView): ConsoleFormValues {
  if (!c)
    return { name: '', url: '', token: '', tls: { mode: 'pin', fingerprint: '', ca: '' }, note: '', enabled: true };
  return { name: c.name, url: c.url, token: c.token, tls: { ...c.tls }, note: c.note, enabled: c.enabled };
}

/** The shared schema's own checks (the server runs the same): codes the module words, by field. */
export function checkConsoleValues(v: ConsoleFormValues): Failure[] {
  const r = wanjiConsoleInputSchema.safeParse(v);
  if (r.success) return [];
  return r.error.issues
    .filter((i) => Object.hasOwn(WANJI_ADMIN_MESSAGES, i.message))
    .map((i) => ({
      field: i.path.join('.'),
      code: i.message,
      params: (i as { params?: Record<string, unknown> }).params,
    }));
}

export interface ConsoleDialogProps {
  open: boolean;
  /** Absent: a new console. */
  console?: WanjiConsoleView;
  onClose: () => void;
  onSaved: (c: WanjiConsoleView) => void;
}

export function ConsoleDialog({ open, console: editing, onClose, onSaved }: ConsoleDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ConsoleFormValues>();
  const errors = useFormErrors(form, { ns: 'wanji_admin' });
  const initial = consoleToValues(editing);
  const mode = (Form.useWatch(['tls', 'mode'], form) ?? initial.tls.mode) as WanjiTlsMode;
  const fingerprint = (Form.useWatch(['tls', 'fingerprint'], form) ?? initial.tls.fingerprint) as string;
  const [probing, setProbing] = useState(false);
  const [seen, setSeen] = useState<WanjiProbeResponse | undefined>();

  const values = (): ConsoleFormValues => ({ ...initial, ...form.getFieldsValue(true) });

  const check = async () => {
    const v = values();
    setProbing(true);
    setSeen(undefined);
    try {
      const r = await probe({ url: v.url, ca: v.tls.mode === 'ca' ? v.tls.ca : '' });
      errors.clear();
      setSeen(r);
    } catch (err) {
      errors.show(err);
    } finally {
      setProbing(false);
    }
  };

  const trust = () => {
    if (!seen) return;
    form.setFieldValue(['tls', 'fingerprint'], seen.fingerprint);
    errors.onValuesChange({ tls: { fingerprint: seen.fingerprint } });
  };

  const save = async (saved: (text: string) => void): Promise<Failure[] | undefined> => {
    const v = values();
    const local = checkConsoleValues(v);
    if (local.length > 0) return local;
    const input: WanjiConsoleInput = v;
    const r = editing ? await updateConsole(editing.key, input) : await createConsole(input);
    saved(t('wanji_admin.ui_saved', { name: r.console.name }));
    onSaved(r.console);
    return undefined;
  };

  const pinned = seen !== undefined && seen.fingerprint === fingerprint;

  return (
    <FormDialog<ConsoleFormValues>
      open={open}
      title={t(editing ? 'wanji_admin.dialog_editTitle' : 'wanji_admin.dialog_addTitle')}
      onClose={onClose}
      form={form}
      errors={errors}
      onSave={save}
      testId="wanji-console"
      width={720}
      labelWidth={150}
      name="wanjiConsole"
      initialValues={initial}
      formProps={{ onValuesChange: (changed) => (changed as Partial<ConsoleFormValues>).url && setSeen(undefined) }}
    >
      <Form.Item
        name="url"
        label={t('wanji_admin.dialog_url')}
        extra={t('wanji_admin.dialog_urlHelp')}
        rules={[{ required: true, whitespace: true, message: t('wanji_admin.err_urlInvalid') }]}
      >
        <Input
          className="mono"
          placeholder="https://192.168.1.2:16601"
          maxLength={L.url.max}
          data-testid="wanji-console-url"
        />
      </Form.Item>
      <Form.Item
        name="name"
        label={t('wanji_admin.dialog_name')}
        rules={[{ required: true, whitespace: true, message: t('wanji_admin.err_nameRequired') }]}
      >
        <Input maxLength={L.name.max} data-testid="wanji-console-name" />
      </Form.Item>
      <Form.Item
        name="token"
        label={t('wanji_admin.dialog_token')}
        extra={editing ? t('wanji_admin.dialog_tokenKept', { mask: SECRET_MASK }) : t('wanji_admin.dialog_tokenHelp')}
        rules={[{ required: true, message: t('wanji_admin.err_tokenRequired') }]}
      >
        <Input.Password autoComplete="new-password" maxLength={L.token.max} data-testid="wanji-console-token" />
      </Form.Item>
      <Form.Item name={['tls', 'mode']} label={t('wanji_admin.dialog_tlsMode')}>
        <Radio.Group optionType="button" data-testid="wanji-console-mode">
          <Radio.Button value="pin">{t('wanji_admin.dialog_modePin')}</Radio.Button>
          <Radio.Button value="ca">{t('wanji_admin.dialog_modeCa')}</Radio.Button>
        </Radio.Group>
      </Form.Item>
      {mode === 'ca' && (
        <Form.Item name={['tls', 'ca']} label={t('wanji_admin.dialog_ca')} extra={t('wanji_admin.dialog_caHelp')}>
          <PemInput placeholder="-----BEGIN CERTIFICATE-----" data-testid="wanji-console-ca" />
        </Form.Item>
      )}
      <Form.Item label={t('wanji_admin.dialog_certificate')} extra={t(`wanji_admin.dialog_checkHelp_${mode}`)}>
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Button
            icon={<SafetyCertificateOutlined />}
            loading={probing}
            onClick={() => void check()}
            data-testid="wanji-console-probe"
          >
            {t('wanji_admin.dialog_check')}
          </Button>
          {seen && <ProbeResult seen={seen} mode={mode} pinned={pinned} onTrust={trust} />}
        </Space>
      </Form.Item>
      {mode === 'pin' && (
        <Form.Item
          name={['tls', 'fingerprint']}
          label={t('wanji_admin.dialog_fingerprint')}
          extra={t('wanji_admin.dialog_fingerprintHelp')}
        >
          <Input className="mono" placeholder="AB:CD:…" data-testid="wanji-console-fingerprint" />
        </Form.Item>
      )}
      <Form.Item name="note" label={t('wanji_admin.dialog_note')}>
        <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} maxLength={L.note.max} />
      </Form.Item>
      <Form.Item name="enabled" label={t('wanji_admin.dialog_enabled')} valuePropName="checked">
        <Switch />
      </Form.Item>
    </FormDialog>
  );
}

function ProbeResult({
  seen,
  mode,
  pinned,
  onTrust,
}: {
  seen: WanjiProbeResponse;
  mode: WanjiTlsMode;
  pinned: boolean;
  onTrust: () => void;
}) {
  const { t } = useTranslation();
  const caOk = seen.caValid;
  return (
    <Alert
      type={mode === 'ca' ? (caOk ? 'success' : 'error') : pinned ? 'success' : 'warning'}
      showIcon
      data-testid="wanji-console-probe-result"
      title={
        mode === 'ca'
          ? t(caOk ? 'wanji_admin.dialog_caValid' : 'wanji_admin.dialog_caNotValid', { error: seen.caError ?? '' })
          : t(pinned ? 'wanji_admin.dialog_pinned' : 'wanji_admin.dialog_confirmPin')
      }
      description={
        <div className="wanji-probe">
          <Typography.Text className="mono wanji-fingerprint" copyable data-testid="wanji-console-seen-fingerprint">
            {seen.fingerprint}
          </Typography.Text>
          <Descriptions
            size="small"
            column={1}
            items={[
              { key: 'subject', label: t('wanji_admin.dialog_subject'), children: seen.subject },
              {
                key: 'issuer',
                label: t('wanji_admin.dialog_issuer'),
                children: seen.selfSigned ? t('wanji_admin.dialog_selfSigned') : seen.issuer,
              },
              {
                key: 'valid',
                label: t('wanji_admin.dialog_validity'),
                children: `${formatTime(seen.validFrom, 'YYYY-MM-DD')} – ${formatTime(seen.validTo, 'YYYY-MM-DD')}`,
              },
              { key: 'names', label: t('wanji_admin.dialog_altNames'), children: seen.altNames.join(', ') || '-' },
            ]}
          />
          {mode === 'pin' && !pinned && (
            <Button type="primary" size="small" onClick={onTrust} data-testid="wanji-console-trust">
              {t('wanji_admin.dialog_trust')}
            </Button>
          )}
        </div>
      }
    />
  );
}
