// Forward types as two rows (TCP, UDP): IPv4, IPv6, or both on one socket.
// "Both" cannot be combined with the single-family forms (as the schema says),
// so ticking one side clears the other.
import type { ForwardType } from '@lucky/shared';
import { Checkbox, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { toggleForwardType } from './ruleForm';

const ROWS: { proto: 'tcp' | 'udp'; types: ForwardType[] }[] = [
  { proto: 'tcp', types: ['tcp4', 'tcp6', 'tcp'] },
  { proto: 'udp', types: ['udp4', 'udp6', 'udp'] },
];

export interface ForwardTypesInputProps {
  value?: ForwardType[];
  onChange?: (types: ForwardType[]) => void;
  id?: string;
}

export function ForwardTypesInput({ value = [], onChange, id }: ForwardTypesInputProps) {
  const { t } = useTranslation();
  return (
    <div className="pf-types" id={id} data-testid="pf-forward-types">
      {ROWS.map(({ proto, types }) => (
        <div className="pf-types-row" key={proto}>
          <span className="pf-types-proto">{proto.toUpperCase()}</span>
          {types.map((type) => {
            const box = (
              <Checkbox
                key={type}
                checked={value.includes(type)}
                data-testid={`pf-type-${type}`}
                onChange={(e) => onChange?.(toggleForwardType(value, type, e.target.checked))}
              >
                {t(`portforward.type_${type}`)}
              </Checkbox>
            );
            return type === proto ? (
              <Tooltip key={type} title={t('portforward.typeDualHelp')}>
                <span>{box}</span>
              </Tooltip>
            ) : (
              box
            );
          })}
        </div>
      ))}
    </div>
  );
}
