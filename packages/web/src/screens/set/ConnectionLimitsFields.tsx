// The connection caps and time-outs of the admin and web service listeners (issue 12 §4):
// fields of the general settings form, validated by the same schema as the server.
import { CONNECTION_LIMITS as C } from '@lucky/shared';
import { Divider, Form, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { settingRule } from './validators';

type Field = keyof typeof C;

export const CONNECTION_FIELDS = Object.keys(C) as Field[];

const SECONDS: readonly Field[] = ['handshakeTimeout', 'headerTimeout'];

export function ConnectionLimitsFields() {
  const { t } = useTranslation();
  return (
    <>
      <Divider titlePlacement="start">{t('set.sectionConnections')}</Divider>
      {CONNECTION_FIELDS.map((f) => {
        const { min, max } = C[f];
        return (
          <Form.Item
            key={f}
            name={f}
            label={t(`set.${f}`)}
            extra={t(`set.${f}Help`)}
            rules={[settingRule(f, t('common.rangeError', { min, max }))]}
          >
            <InputNumber<number>
              precision={0}
              suffix={SECONDS.includes(f) ? t('common.secondsShort') : undefined}
              style={{ width: 180 }}
            />
          </Form.Item>
        );
      })}
    </>
  );
}
