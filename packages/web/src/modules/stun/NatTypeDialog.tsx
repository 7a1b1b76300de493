// NAT type detection (RFC 5780): on demand from a channel chosen here, or through a rule's own
// channel and servers (then it starts as the dialog opens). It takes up to ~20 s; the verdict is
// shown in plain words with the behaviour behind it.
import { RadarChartOutlined } from '@ant-design/icons';
import { STUN_LIMITS as L, type StunNatTypeView } from '@lucky/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Modal, Spin, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDialogLayout } from '../../hooks/useDialogLayout';
import { detectNatType, detectRuleNatType, stunKeys } from './api';
import { ChannelFields } from './ChannelFields';
import { errorText } from './errors';
import { NatTypeView } from './NatTypeView';

export interface NatTypeDialogProps {
  open: boolean;
  /** Detect through this rule's channel; absent = the channel chosen in the dialog. */
  rule?: { key: string; name: string };
  onClose: () => void;
}

interface ChannelValues {
  channelMode: 'ip' | 'interface';
  channelIp: string;
  channelInterface: string;
}

export function NatTypeDialog({ open, rule, onClose }: NatTypeDialogProps) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const layout = useDialogLayout(720);
  const [form] = Form.useForm<ChannelValues>();
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<StunNatTypeView>();
  const [failure, setFailure] = useState<string>();
  const started = useRef(false);

  const channelBody = () => {
    const v = form.getFieldsValue(true) as ChannelValues;
    return {
      channelMode: v.channelMode,
      channelIp: (v.channelIp ?? '').trim(),
      channelInterface: (v.channelInterface ?? '').trim(),
      timeoutMs: L.timeoutMs.default,
    };
  };

  const run = async () => {
    if (!rule) {
      try {
        await form.validateFields();
      } catch {
        return;
      }
    }
    setRunning(true);
    setFailure(undefined);
    try {
      const r = rule ? await detectRuleNatType(rule.key) : await detectNatType(channelBody());
      setResult(r.natType);
      // The rule's card shows its newest verdict.
      if (rule) void qc.invalidateQueries({ queryKey: stunKeys.rules });
    } catch (err) {
      setResult(undefined);
      setFailure(errorText(err, t));
    } finally {
      setRunning(false);
    }
  };

  // A rule's detection needs no choice: it starts as the dialog opens (once per opening).
  useEffect(() => {
    if (open && rule && !started.current) {
      started.current = true;
      void run();
    }
  });

  return (
    <Modal
      open={open}
      title={rule ? t('stun.natTypeOfRule', { name: rule.name }) : t('stun.natTypeTitle')}
      onCancel={onClose}
      width={layout.width}
      style={layout.style}
      className={layout.className}
      mask={{ closable: false }}
      destroyOnHidden
      footer={[
        <Button key="close" onClick={onClose}>
          {t('stun.close')}
        </Button>,
        <Button
          key="run"
          type="primary"
          icon={<RadarChartOutlined />}
          loading={running}
          onClick={() => void run()}
          data-testid="stun-nat-run"
        >
          {result || failure ? t('stun.detectAgain') : t('stun.detect')}
        </Button>,
      ]}
    >
      <Typography.Paragraph type="secondary">
        {rule ? t('stun.natTypeRuleHelp') : t('stun.natTypeHelp')}
      </Typography.Paragraph>
      {!rule && (
        <Form<ChannelValues>
          form={form}
          name="stunNatType"
          initialValues={{ channelMode: 'ip', channelIp: '', channelInterface: '' }}
          layout={layout.fullScreen ? 'vertical' : 'horizontal'}
          labelCol={layout.fullScreen ? undefined : { flex: '150px' }}
          labelWrap
          colon={false}
          data-testid="stun-nat-form"
        >
          <ChannelFields />
        </Form>
      )}
      {running && (
        <div className="stun-nat-running">
          <Spin />
          <Typography.Text type="secondary">{t('stun.detecting')}</Typography.Text>
        </div>
      )}
      {!running && failure && <Alert type="error" showIcon title={failure} data-testid="stun-nat-error" />}
      {!running && result && <NatTypeView nat={result} testId="stun-nat-result" />}
    </Modal>
  );
}
