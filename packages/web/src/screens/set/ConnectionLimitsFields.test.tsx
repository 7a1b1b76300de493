import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button, Form } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { CONNECTION_FIELDS, ConnectionLimitsFields } from './ConnectionLimitsFields';

function Harness({ onFinish }: { onFinish: (v: unknown) => void }) {
  const [form] = Form.useForm();
  return (
    <Form
      form={form}
      initialValues={{
        adminMaxConnsPerAddress: 64,
        adminMaxConns: 1024,
        webMaxConnsPerAddress: 256,
        webMaxConns: 4096,
        handshakeTimeout: 10,
        headerTimeout: 15,
      }}
      onFinish={onFinish}
    >
      <ConnectionLimitsFields />
      <Button htmlType="submit" data-testid="go">
        go
      </Button>
    </Form>
  );
}

describe('connection limit fields', () => {
  it('shows every cap and time-out, and refuses a typed value outside its range instead of moving it', async () => {
    expect(CONNECTION_FIELDS).toEqual([
      'adminMaxConnsPerAddress',
      'adminMaxConns',
      'webMaxConnsPerAddress',
      'webMaxConns',
      'handshakeTimeout',
      'headerTimeout',
    ]);
    const onFinish = vi.fn();
    renderWithProviders(<Harness onFinish={onFinish} />);
    const label = await screen.findByText('管理端：每地址连接数');
    for (const text of [
      '管理端：总连接数',
      'Web 服务：每地址连接数',
      'Web 服务：总连接数',
      'TLS 握手超时',
      '请求头超时',
    ])
      expect(screen.getByText(text)).toBeTruthy();
    const item = label.closest('.ant-form-item') as HTMLElement;
    const input = within(item).getByRole('spinbutton');
    await userEvent.clear(input);
    await userEvent.type(input, '2');
    const header = screen.getByText('请求头超时').closest('.ant-form-item') as HTMLElement;
    const headerInput = within(header).getByRole('spinbutton');
    await userEvent.clear(headerInput);
    await userEvent.type(headerInput, '30');
    await userEvent.click(screen.getByTestId('go'));
    // Below the schema's minimum (4): the range message, the 2 stays, nothing is submitted.
    expect(await within(item).findByText('取值范围 4-65535')).toBeTruthy();
    expect((input as HTMLInputElement).value).toBe('2');
    expect(onFinish).not.toHaveBeenCalled();
    await userEvent.clear(input);
    await userEvent.type(input, '8');
    await userEvent.click(screen.getByTestId('go'));
    await waitFor(() => expect(onFinish).toHaveBeenCalledTimes(1));
    expect(onFinish.mock.calls[0][0]).toMatchObject({
      adminMaxConnsPerAddress: 8,
      headerTimeout: 30,
      webMaxConns: 4096,
    });
  });
});
