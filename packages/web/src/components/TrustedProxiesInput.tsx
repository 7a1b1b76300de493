// Editor for the trusted proxy list (IPs or CIDRs), used on the settings and
// security screens.
import { isCidrOrIp } from '@lucky/shared';
import { Select } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';

export interface TrustedProxiesInputProps {
  value?: string[];
  onChange?: (v: string[]) => void;
  id?: string;
}

export function TrustedProxiesInput({ value, onChange, id }: TrustedProxiesInputProps) {
  const { t } = useTranslation();
  return (
    <Select
      id={id}
      mode="tags"
      value={value}
      onChange={(v: string[]) => onChange?.(v.map((s) => s.trim()).filter(Boolean))}
      tokenSeparators={[',', ' ', '\n', ';']}
      open={false}
      suffixIcon={null}
      placeholder={t('set.trustedProxiesPlaceholder')}
      style={{ width: '100%', maxWidth: 560 }}
      data-testid="trusted-proxies"
    />
  );
}

/** Rejects the first entry that is not an IP or CIDR, naming it. */
export function trustedProxiesRule(t: (k: string, o?: Record<string, unknown>) => string): Rule {
  return {
    validator: (_, value: string[] | undefined) => {
      const list = value ?? [];
      const bad = list.find((p) => !isCidrOrIp(p));
      if (bad) return Promise.reject(new Error(t('set.trustedProxiesInvalid', { value: bad })));
      if (list.length > 64) return Promise.reject(new Error(t('set.trustedProxiesTooMany', { max: 64 })));
      return Promise.resolve();
    },
  };
}
