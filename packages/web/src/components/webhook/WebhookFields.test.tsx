// The webhook form any module embeds: switched on it shows the request, proxy and call options;
// a preset fills the request; the test button refuses an uncallable webhook on its field in the
// module's form, and shows a call's outcome (status, reason with its cause, answer) in Chinese.
// Every webhook code and reason has a text in both languages with the server's params.
import {
  PROXY_TYPES,
  WEBHOOK_MESSAGES,
  WEBHOOK_REASONS,
  type WebhookPreset,
  type WebhookTestResponse,
  webhookReason,
  webhookSchemas,
} from '@lucky/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Form } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { useFormErrors } from '../../hooks/useFormErrors';
import enUS from '../../i18n/en_US.json';
import zhCN from '../../i18n/zh_CN.json';
import { renderWithProviders } from '../../test/render';
import { useWebhookTest } from './useWebhookTest';
import { WebhookFields } from './WebhookFields';
import {
  newWebhookValues,
  testProblems,
  valuesToWebhook,
  type WebhookFormValues,
  webhookToValues,
} from './webhookForm';

/** A module's schemas with an own proxy type, as STUN or DDNS would have. */
const { testSchema } = webhookSchemas({ proxyTypes: ['rule'] });
const PRESET: WebhookPreset = {
  id: 'notify',
  method: 'POST',
  url: 'https://push.example/<key>',
  headers: ['X-Kind:notice'],
  body: '{"text":"#{addr}"}',
  successStrings: ['"ok":true'],
};

/** A module's form: its own namespace (`demo`, which has no webhook texts of its own). */
function ModuleForm({ onCall }: { onCall: (w: WebhookFormValues) => Promise<WebhookTestResponse> }) {
  const [form] = Form.useForm<{ hook: WebhookFormValues }>();
  const errors = useFormErrors(form, {
    ns: 'demo',
    // A list entry (`hook.headers.0`) belongs to its text area.
    nameOf: (field) => field.split('.').filter((p) => !/^\d+$/.test(p)),
    reveal: (names) => {
      if (names.some((n) => n[0] === 'hook')) form.setFieldValue(['hook', 'enabled'], true);
    },
  });
  const test = useWebhookTest('demo');
  const onTest = () => {
    const values = form.getFieldValue('hook') as WebhookFormValues;
    const problems = testProblems(testSchema, valuesToWebhook(values), 'hook.');
    if (problems.length > 0) errors.show(problems);
    else void test.run(() => onCall(values));
  };
  return (
    <Form form={form} initialValues={{ hook: newWebhookValues() }}>
      <WebhookFields
        prefix={['hook']}
        vars="#{addr} #{time}"
        presets={[PRESET]}
        presetLabel={() => '通知预设'}
        moduleProxyTypes={[{ value: 'rule', label: '规则的代理' }]}
        testing={test.testing}
        onTest={onTest}
        testId="demo-hook"
      />
      {test.resultModal}
    </Form>
  );
}

describe('webhook form values', () => {
  it('lists are edited one per line and sent trimmed without blanks; a module keeps its own fields', () => {
    const base = { ...newWebhookValues(), callOnIpFail: false };
    const v = webhookToValues(
      { headers: ['A:1', 'B:2'], successStrings: ['ok'], proxy: { type: 'rule', address: '', user: '', password: '' } },
      base,
    );
    expect(v).toMatchObject({
      headers: 'A:1\nB:2',
      successStrings: 'ok',
      callOnIpFail: false,
      timeout: 20,
      retries: 2,
    });
    const sent = valuesToWebhook({ ...v, url: ' https://h.example/ ', headers: 'A:1\n\n  B:2 ', callOnIpFail: true });
    expect(sent).toMatchObject({
      url: 'https://h.example/',
      headers: ['A:1', 'B:2'],
      successStrings: ['ok'],
      callOnIpFail: true,
    });
    expect(testProblems(testSchema, sent, 'hook.')).toEqual([]);
    expect(testProblems(testSchema, { ...sent, url: '', headers: ['nocolon'] }, 'hook.')).toEqual([
      { field: 'hook.url', code: 'webhookUrlRequired', params: {} },
      { field: 'hook.headers.0', code: 'headerInvalid', params: {} },
    ]);
  });
});

describe('webhook fields', () => {
  it('switched on: a preset fills the request, and the test call goes out with it', async () => {
    const onCall = vi.fn(
      async (_values: WebhookFormValues): Promise<WebhookTestResponse> => ({
        ret: 0,
        ok: true,
        status: 200,
        reason: webhookReason('webhookOk'),
        response: '{"ok":true}',
      }),
    );
    renderWithProviders(<ModuleForm onCall={onCall} />);
    expect(screen.queryByTestId('demo-hook-url')).toBeNull();
    await userEvent.click(screen.getByTestId('demo-hook-enabled'));
    const url = await screen.findByTestId('demo-hook-url');
    await userEvent.hover(screen.getByText('预设模板'));
    await userEvent.click(await screen.findByText('通知预设'));
    await waitFor(() => expect((url as HTMLInputElement).value).toBe('https://push.example/<key>'));
    expect(screen.getByText('请求体')).toBeTruthy();
    expect(screen.getByText('可用变量：#{addr} #{time}')).toBeTruthy();

    await userEvent.click(screen.getByTestId('demo-hook-test'));
    const result = await screen.findByTestId('webhook-result');
    expect(within(result).getByText('Webhook 调用成功')).toBeTruthy();
    expect(within(result).getByText('调用成功')).toBeTruthy();
    expect(within(result).getByText('{"ok":true}')).toBeTruthy();
    expect(onCall.mock.calls[0][0]).toMatchObject({
      method: 'POST',
      headers: 'X-Kind:notice',
      body: '{"text":"#{addr}"}',
    });
  });

  it("the module's own proxy type takes no address; a standard one asks for it", async () => {
    renderWithProviders(<ModuleForm onCall={vi.fn()} />);
    await userEvent.click(screen.getByTestId('demo-hook-enabled'));
    await userEvent.click(await screen.findByRole('combobox', { name: '代理' }));
    await userEvent.click(await screen.findByText('规则的代理'));
    expect(screen.queryByPlaceholderText('主机:端口')).toBeNull();
    await userEvent.click(screen.getByRole('combobox', { name: '代理' }));
    await userEvent.click(await screen.findByText('SOCKS5'));
    expect(await screen.findByPlaceholderText('主机:端口')).toBeTruthy();
    expect(screen.getByPlaceholderText('用户名')).toBeTruthy();
  });

  it('an uncallable webhook is refused on its field (in the webhook words); a failed call shows its cause', async () => {
    const onCall = vi.fn(
      async (): Promise<WebhookTestResponse> => ({
        ret: 0,
        ok: false,
        status: 500,
        reason: webhookReason('webhookCallError', { cause: webhookReason('answerNotSuccess', { status: 500 }) }),
        response: 'boom',
      }),
    );
    renderWithProviders(<ModuleForm onCall={onCall} />);
    await userEvent.click(screen.getByTestId('demo-hook-test'));
    // Switched on to show the field the refusal names.
    expect(await screen.findByText('Webhook 地址不能为空')).toBeTruthy();
    expect(onCall).not.toHaveBeenCalled();
    await userEvent.type(screen.getByTestId('demo-hook-url'), 'http://127.0.0.1:9/x');
    const success = document.getElementById('hook_successStrings');
    expect(success).toBeInstanceOf(HTMLTextAreaElement);
    await userEvent.type(success as HTMLTextAreaElement, 'ok');
    await userEvent.click(screen.getByTestId('demo-hook-test'));
    const result = await screen.findByTestId('webhook-result');
    expect(within(result).getByText('Webhook 调用出错：HTTP 500：答复不表示成功')).toBeTruthy();
    expect(within(result).getByText('500')).toBeTruthy();
    expect(onCall).toHaveBeenCalledTimes(1);
  });
});

describe('webhook words', () => {
  const server = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  const locale = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
  it('every code, reason and proxy type has a text in both languages, with the params of its English', () => {
    for (const [lang, ns] of [
      ['zh_CN', zhCN.webhook],
      ['en_US', enUS.webhook],
    ] as const) {
      const texts = ns as Record<string, string>;
      for (const [kind, templates] of [
        ['err', WEBHOOK_MESSAGES],
        ['reason', WEBHOOK_REASONS],
      ] as const)
        for (const [code, english] of Object.entries(templates)) {
          const text = texts[`${kind}_${code}`];
          expect(text, `${lang} webhook.${kind}_${code}`).toBeTypeOf('string');
          expect(locale(text), `${lang} webhook.${kind}_${code}`).toEqual(server(english));
        }
      for (const p of PROXY_TYPES) expect(texts[`proxy_${p}`], `${lang} webhook.proxy_${p}`).toBeTypeOf('string');
    }
  });
});
