import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button, Form, Input, Switch } from 'antd';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { renderWithProviders } from '../test/render';
import { type FormErrors, useFormErrors } from './useFormErrors';

const refusal = (reply: Record<string, unknown>) =>
  new ApiError('ret', String(reply.msg), { ret: Number(reply.ret), status: 400, reply: reply as never });

let api: FormErrors;

/** A form with a field always on screen and one that shows only when `more` is switched on. */
function Harness({ withNameOf = true }: { withNameOf?: boolean }) {
  const [form] = Form.useForm();
  const [more, setMore] = useState(false);
  api = useFormErrors(form, {
    ns: 'portforward',
    nameOf: withNameOf ? (field) => [field.split('.')[0]] : undefined,
    reveal: (names) => {
      if (names.some((n) => n[0] === 'hidden')) setMore(true);
    },
  });
  return (
    <Form form={form} onValuesChange={api.onValuesChange} initialValues={{ name: '', hidden: '' }}>
      <Form.Item name="name" label="name">
        <Input data-testid="name" />
      </Form.Item>
      <Switch checked={more} onChange={setMore} />
      {more && (
        <Form.Item name="hidden" label="hidden">
          <Input data-testid="hidden" />
        </Form.Item>
      )}
      <Button>ok</Button>
    </Form>
  );
}

const itemOf = (testId: string) => screen.getByTestId(testId).closest('.ant-form-item') as HTMLElement;

describe('useFormErrors', () => {
  it('puts a refusal beside the field it names, in the form’s words, and focuses that field', async () => {
    renderWithProviders(<Harness />);
    await screen.findByTestId('name');
    api.show(
      refusal({ ret: 1, msg: 'name: listening port cannot be empty', field: 'name', code: 'listenPortsRequired' }),
    );
    expect(await within(itemOf('name')).findByText('监听端口不能为空')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('name')));
  });

  it('waits for a field a switch shows, then puts the error on it (no timer)', async () => {
    renderWithProviders(<Harness />);
    await screen.findByTestId('name');
    api.show(
      refusal({ ret: 1, msg: 'hidden: not an IP address or CIDR', field: 'hidden.2', code: 'accessListInvalid' }),
    );
    // Revealed, registered, and the error went on: the Plain text, since no entry was named.
    expect(
      await within(await waitFor(() => itemOf('hidden'))).findByText('地址列表中有无效的 IP 或 CIDR'),
    ).toBeTruthy();
  });

  it('falls back to the generic code, then to the server’s text', async () => {
    renderWithProviders(<Harness />);
    await screen.findByTestId('name');
    api.show({ field: 'name', code: 'tooBig', params: { max: 5 } });
    expect(await within(itemOf('name')).findByText('不能大于 5')).toBeTruthy();
    // A number refused with its whole range reads as the range (the core's errors.outOfRange).
    api.show(
      refusal({ ret: 1, msg: 'name: must be 1-65535', field: 'name', code: 'tooBig', params: { min: 1, max: 65535 } }),
    );
    expect(await within(itemOf('name')).findByText('取值范围 1-65535')).toBeTruthy();
    api.show(refusal({ ret: 1, msg: 'name: something only the server says', field: 'name', code: 'notACode' }));
    expect(await within(itemOf('name')).findByText('something only the server says')).toBeTruthy();
    // The earlier error went: one failure's errors at a time.
    await waitFor(() => expect(within(itemOf('name')).queryByText('不能大于 5')).toBeNull());
  });

  it('shows a failure without a field as a message; a success takes it and the field errors away', async () => {
    renderWithProviders(<Harness />);
    await screen.findByTestId('name');
    api.show(refusal({ ret: 1, msg: 'no such rule', code: 'ruleNotFound' }));
    expect(await screen.findByText('规则不存在（可能已被删除）')).toBeTruthy();
    api.show(refusal({ ret: 1, msg: 'x', field: 'name', code: 'listenPortsRequired' }));
    expect(await within(itemOf('name')).findByText('监听端口不能为空')).toBeTruthy();
    api.clear();
    await waitFor(() => expect(within(itemOf('name')).queryByText('监听端口不能为空')).toBeNull());
    // The message leaves (jsdom runs no leave animation: the notice is marked leaving).
    await waitFor(() => {
      const notice = screen.queryByText('规则不存在（可能已被删除）')?.closest('.ant-message-notice');
      expect(!notice || /leave/.test(notice.className)).toBe(true);
    });
  });

  it('a core code reads errors.<code>; a field not on this form becomes a message', async () => {
    renderWithProviders(<Harness withNameOf={false} />);
    await screen.findByTestId('name');
    api.show(refusal({ ret: 1, msg: 'wrong', field: 'name', code: 'currentPasswordWrong' }));
    expect(await within(itemOf('name')).findByText('当前密码错误')).toBeTruthy();
    api.show(refusal({ ret: 1, msg: 'elsewhere: value too large', field: 'elsewhere' }));
    expect(await screen.findByText('value too large')).toBeTruthy();
  });

  it('an edited field loses the refusal beside it', async () => {
    renderWithProviders(<Harness />);
    const input = await screen.findByTestId('name');
    api.show({ field: 'name', code: 'listenPortsRequired' });
    expect(await within(itemOf('name')).findByText('监听端口不能为空')).toBeTruthy();
    await userEvent.type(input, '8080');
    await waitFor(() => expect(within(itemOf('name')).queryByText('监听端口不能为空')).toBeNull());
  });
});
