// Advanced: client addresses allowed (whitelist) or refused (blacklist).
import { ACCESS_MODES, isCidrOrIp } from '@lucky/shared';
import { Form, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { TagListInput } from '../../components/TagListInput';
import { checkAccessList, type RuleFormValues } from './ruleForm';
import { issueRule } from './validators';

export function RuleAccessFields() {
  const { t } = useTranslation();
  const form = Form.useFormInstance<RuleFormValues>();
  const mode = Form.useWatch('accessMode', form) ?? 'off';
  return (
    <>
      <Form.Item name="accessMode" label={t('portforward.accessMode')} extra={t(`portforward.accessHelp_${mode}`)}>
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          options={ACCESS_MODES.map((m) => ({ value: m, label: t(`portforward.access_${m}`) }))}
        />
      </Form.Item>
      <Form.Item
        name="accessList"
        label={t('portforward.accessList')}
        hidden={mode === 'off'}
        dependencies={['accessMode']}
        extra={t('portforward.accessListHelp')}
        rules={[issueRule(t, (v, get) => checkAccessList(get('accessMode') as string, v as string[]))]}
      >
        <TagListInput
          placeholder={t('portforward.accessListPlaceholder')}
          isValid={isCidrOrIp}
          data-testid="pf-access-list"
        />
      </Form.Item>
    </>
  );
}
