import type { PortforwardLogLevel } from '@lucky/shared';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { LEVEL_COLOR, levelKey } from './levels';

export function LevelTag({ level }: { level: number }) {
  const { t } = useTranslation();
  return (
    <Tag color={LEVEL_COLOR[level as PortforwardLogLevel] ?? 'default'} className="pf-level-tag">
      {t(levelKey(level))}
    </Tag>
  );
}
