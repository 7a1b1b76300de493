// The task's schedule: a cron expression typed raw or built with the five pickers (both views of
// one text, so either edits the other), in words, with the next five runs from the server's
// preview (the scheduler's own reading, in the zone it runs in); or an interval.
import { CRON_INTERVAL_UNITS, type CronSchedule } from '@lucky/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, Input, InputNumber, Radio, Select, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureOf, type Translate } from '../../api/callErrors';
import { formatTime } from '../../components/time';
import { failureText } from '../../hooks/useFormErrors';
import { htmlLang, isLanguage } from '../../i18n';
import { cronKeys, fetchPreview } from './api';
import { FIELD_NAMES, type FieldName, parseSchedule, type Schedule, scheduleText } from './cronFields';
import { describeSchedule, monthName, weekdayName } from './describe';
import { FieldPicker } from './FieldPicker';

export interface ScheduleEditorProps {
  value?: CronSchedule;
  onChange?: (value: CronSchedule) => void;
}

/** The text after the person stopped typing for a moment (no preview call per key). */
function useSettled(text: string, ms = 400): string {
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const id = setTimeout(() => setSettled(text), ms);
    return () => clearTimeout(id);
  }, [text, ms]);
  return settled;
}

export function ScheduleEditor({ value, onChange }: ScheduleEditorProps) {
  const { t, i18n } = useTranslation();
  const lang = htmlLang(isLanguage(i18n.language) ? i18n.language : 'zh_CN');
  const schedule: CronSchedule = value ?? { kind: 'cron', expression: '' };
  const expression = schedule.kind === 'cron' ? schedule.expression : '';
  const parsed = parseSchedule(expression);
  const settled = useSettled(expression.trim());
  const preview = useQuery({
    queryKey: cronKeys.preview(settled),
    queryFn: ({ signal }) => fetchPreview(settled, signal),
    enabled: schedule.kind === 'cron' && settled !== '',
    retry: false,
    staleTime: 30_000,
  });

  const setPicker = (name: FieldName, spec: Schedule[FieldName]) => {
    if (!parsed) return;
    onChange?.({ kind: 'cron', expression: scheduleText({ ...parsed, [name]: spec }) });
  };
  const labelOf = (name: FieldName) =>
    name === 'month'
      ? (m: number) => monthName(lang, m)
      : name === 'weekday'
        ? (d: number) => weekdayName(lang, d)
        : String;

  return (
    <div className="cron-schedule" data-testid="cron-schedule">
      <Radio.Group
        value={schedule.kind}
        optionType="button"
        size="small"
        data-testid="cron-schedule-kind"
        options={[
          { value: 'cron', label: t('cron.ui_kindCron') },
          { value: 'interval', label: t('cron.ui_kindInterval') },
        ]}
        onChange={(e) =>
          onChange?.(
            e.target.value === 'interval'
              ? { kind: 'interval', every: 60, unit: 'minutes' }
              : { kind: 'cron', expression: '0 3 * * *' },
          )
        }
      />
      {schedule.kind === 'interval' ? (
        <Space className="cron-interval">
          <span>{t('cron.ui_intervalEvery')}</span>
          <InputNumber
            // No min / max: the schema's range refuses (with its message) instead of clamping.
            precision={0}
            value={schedule.every}
            data-testid="cron-interval-every"
            onChange={(every) => onChange?.({ ...schedule, every: typeof every === 'number' ? every : 0 })}
          />
          <Select
            value={schedule.unit ?? 'minutes'}
            data-testid="cron-interval-unit"
            options={CRON_INTERVAL_UNITS.map((u) => ({ value: u, label: t(`cron.ui_unit_${u}`) }))}
            onChange={(unit) => onChange?.({ ...schedule, unit })}
          />
        </Space>
      ) : (
        <>
          <Input
            value={expression}
            placeholder="0 3 * * *"
            data-testid="cron-expression"
            className="cron-mono"
            spellCheck={false}
            onChange={(e) => onChange?.({ kind: 'cron', expression: e.target.value })}
          />
          <Typography.Text type="secondary" className="cron-words" data-testid="cron-words">
            {parsed ? describeSchedule(t, lang, parsed) : t('cron.ui_beyondPickers')}
          </Typography.Text>
          {parsed && (
            <div className="cron-pickers">
              {FIELD_NAMES.map((name) => (
                <FieldPicker
                  key={name}
                  name={name}
                  spec={parsed[name]}
                  label={labelOf(name)}
                  onChange={(spec) => setPicker(name, spec)}
                />
              ))}
            </div>
          )}
          <NextRuns
            loading={preview.isFetching || settled !== expression.trim()}
            times={preview.data?.times}
            zone={preview.data?.zone}
            error={preview.error ? previewProblem(t, preview.error) : undefined}
          />
        </>
      )}
    </div>
  );
}

/** Why the preview refused the expression, in the user's language (cron.err_<code>). */
function previewProblem(t: Translate, err: unknown): string {
  const f = failureOf(err);
  return f ? failureText(t, 'cron', f) : t('cron.ui_previewFailed');
}

function NextRuns({
  times,
  zone,
  error,
  loading,
}: {
  times?: string[];
  zone?: string;
  error?: string;
  loading: boolean;
}) {
  const { t } = useTranslation();
  if (error && !loading) return <Alert type="error" showIcon title={error} data-testid="cron-preview-error" />;
  return (
    <div className="cron-next" data-testid="cron-next-runs">
      <Typography.Text strong>{t('cron.ui_nextRuns')}</Typography.Text>
      {zone && <Typography.Text type="secondary"> ({zone})</Typography.Text>}
      <ol>
        {(times ?? []).map((iso) => (
          <li key={iso} className="cron-mono">
            {formatTime(iso)}
          </li>
        ))}
      </ol>
      {times && times.length === 0 && <Typography.Text type="secondary">{t('cron.ui_neverRuns')}</Typography.Text>}
    </div>
  );
}
