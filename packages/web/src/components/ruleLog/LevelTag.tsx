import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { LEVEL_COLOR, levelKey } from './levels';

export function LevelTag({ level }: { level: number }) {
  const { t } = useTranslation();
  return (
    <Tag color={LEVEL_COLOR[level] ?? 'default'} className="rule-log-level-tag">
      {t(levelKey(level))}
    </Tag>
  );
}
