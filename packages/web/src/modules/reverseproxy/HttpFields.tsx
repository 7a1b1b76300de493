// Advanced: CORS answers, caching headers and a robots.txt of the site's own.
import { CACHE_MODES, DEFAULT_CORS_METHODS, REVERSEPROXY_LIMITS as L } from '@lucky/shared';
import { Form, Input, InputNumber, Radio, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { TagListInput } from '../../components/TagListInput';
import type { NamePath } from './serviceForm';
import { rangeRule } from './validators';

const METHODS = [...DEFAULT_CORS_METHODS, 'HEAD', 'PATCH'];

export function CorsFields({ prefix }: { prefix: NamePath }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const n = (...p: NamePath): NamePath => [...prefix, 'cors', ...p];
  const enabled = Form.useWatch(n('enabled'), form) ?? false;
  return (
    <>
      <Form.Item
        name={n('enabled')}
        label={t('reverseproxy.cors')}
        valuePropName="checked"
        extra={t('reverseproxy.corsHelp')}
      >
        <Switch />
      </Form.Item>
      <Form.Item
        name={n('origins')}
        label={t('reverseproxy.corsOrigins')}
        hidden={!enabled}
        extra={t('reverseproxy.corsOriginsHelp')}
      >
        <TagListInput placeholder="https://app.example.com" />
      </Form.Item>
      <Form.Item name={n('methods')} label={t('reverseproxy.corsMethods')} hidden={!enabled}>
        <Select
          mode="tags"
          style={{ maxWidth: 560 }}
          tokenSeparators={[',', ' ']}
          options={METHODS.map((m) => ({ value: m, label: m }))}
        />
      </Form.Item>
    </>
  );
}

export function CacheRobotsFields({ prefix }: { prefix: NamePath }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const c = (...p: NamePath): NamePath => [...prefix, 'cache', ...p];
  const r = (...p: NamePath): NamePath => [...prefix, 'robots', ...p];
  const mode = Form.useWatch(c('mode'), form) ?? 'default';
  const robots = Form.useWatch(r('enabled'), form) ?? false;
  return (
    <>
      <Form.Item name={c('mode')} label={t('reverseproxy.cacheMode')} extra={t(`reverseproxy.cacheHelp_${mode}`)}>
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          options={CACHE_MODES.map((m) => ({ value: m, label: t(`reverseproxy.cache_${m}`) }))}
        />
      </Form.Item>
      <Form.Item
        name={c('maxAge')}
        label={t('reverseproxy.cacheMaxAge')}
        hidden={mode !== 'maxAge'}
        rules={[rangeRule(t, L.cacheMaxAge.min, L.cacheMaxAge.max)]}
      >
        <InputNumber<number> precision={0} suffix={t('common.unitSecond')} style={{ width: 200 }} />
      </Form.Item>
      <Form.Item
        name={r('enabled')}
        label={t('reverseproxy.robots')}
        valuePropName="checked"
        extra={t('reverseproxy.robotsHelp')}
      >
        <Switch />
      </Form.Item>
      <Form.Item name={r('text')} label={t('reverseproxy.robotsText')} hidden={!robots}>
        <Input.TextArea className="mono" autoSize={{ minRows: 2, maxRows: 8 }} style={{ maxWidth: 560 }} />
      </Form.Item>
    </>
  );
}
