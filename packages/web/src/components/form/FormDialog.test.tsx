import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Form, Input } from 'antd';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { useFormErrors } from '../../hooks/useFormErrors';
import { renderWithProviders } from '../../test/render';
import { FormDialog, type FormDialogLoad, type FormDialogProps, queryLoad, type SaveHandler } from './FormDialog';

interface Values {
  name: string;
}

type HarnessProps = { onSave: SaveHandler; onClose?: () => void; load?: FormDialogLoad; labelWidth?: number } & Pick<
  FormDialogProps<Values>,
  'formChecks' | 'submitOnEnter' | 'modalTestId' | 'saveId'
>;

function Harness(props: HarnessProps) {
  const [form] = Form.useForm<Values>();
  const errors = useFormErrors(form, { ns: 'portforward' });
  return (
    <FormDialog<Values>
      open
      title="Demo"
      onClose={props.onClose ?? (() => {})}
      form={form}
      errors={errors}
      onSave={props.onSave}
      testId="demo"
      width={560}
      labelWidth={props.labelWidth}
      name="demo"
      initialValues={{ name: 'a' }}
      load={props.load}
      formChecks={props.formChecks}
      submitOnEnter={props.submitOnEnter}
      modalTestId={props.modalTestId}
      saveId={props.saveId}
    >
      <Form.Item name="name" label="name" rules={[{ required: true, message: 'name needed' }]}>
        <Input data-testid="demo-name" />
      </Form.Item>
    </FormDialog>
  );
}

const itemOf = (testId: string) => screen.getByTestId(testId).closest('.ant-form-item') as HTMLElement;
const save = () => fireEvent.click(screen.getByTestId('demo-save'));

describe('FormDialog', () => {
  it('runs the form’s own checks first: a refused field keeps the save from running', async () => {
    const onSave = vi.fn(async () => undefined);
    renderWithProviders(<Harness onSave={onSave} />);
    fireEvent.change(await screen.findByTestId('demo-name'), { target: { value: '' } });
    save();
    expect(await within(itemOf('demo-name')).findByText('name needed')).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();
  });

  it('shows what the whole-form check returns beside its field and stays open', async () => {
    const onClose = vi.fn();
    renderWithProviders(
      <Harness onSave={async () => [{ field: 'name', code: 'tooBig', params: { max: 5 } }]} onClose={onClose} />,
    );
    await screen.findByTestId('demo-name');
    save();
    expect(await within(itemOf('demo-name')).findByText('不能大于 5')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByTestId('demo-form')).toBeTruthy();
  });

  it('puts a server refusal beside the field it names and lets the user save again', async () => {
    const refusal = new ApiError('ret', 'name: listening port cannot be empty', {
      ret: 1,
      status: 400,
      reply: {
        ret: 1,
        msg: 'name: listening port cannot be empty',
        field: 'name',
        code: 'listenPortsRequired',
      } as never,
    });
    const onSave = vi.fn<SaveHandler>(async () => {
      throw refusal;
    });
    renderWithProviders(<Harness onSave={onSave} />);
    await screen.findByTestId('demo-name');
    save();
    expect(await within(itemOf('demo-name')).findByText('监听端口不能为空')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('demo-save').className).not.toContain('ant-btn-loading'));
    save();
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(2));
  });

  it('holds cancel while saving; a success clears the last refusal and shows its message', async () => {
    let finish: () => void = () => {};
    const saved = vi.fn();
    let calls = 0;
    const onSave: SaveHandler = async (done) => {
      calls += 1;
      if (calls === 1) return [{ field: 'name', code: 'tooBig', params: { max: 5 } }];
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
      done('Saved it');
      saved();
    };
    renderWithProviders(<Harness onSave={onSave} />);
    await screen.findByTestId('demo-name');
    save();
    expect(await within(itemOf('demo-name')).findByText('不能大于 5')).toBeTruthy();
    save();
    const cancel = screen.getByRole('button', { name: /取\s*消/ });
    await waitFor(() => expect((cancel as HTMLButtonElement).disabled).toBe(true));
    finish();
    expect(await screen.findByText('Saved it')).toBeTruthy();
    expect(saved).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(within(itemOf('demo-name')).queryByText('不能大于 5')).toBeNull());
    await waitFor(() => expect((cancel as HTMLButtonElement).disabled).toBe(false));
  });

  it('waits for fetched values: a skeleton, then the failure, with save disabled until they are here', async () => {
    let setLoad: (l: FormDialogLoad) => void = () => {};
    function Loading() {
      const [load, set] = useState<FormDialogLoad>({ ready: false, pending: true });
      setLoad = set;
      return <Harness onSave={async () => undefined} load={load} />;
    }
    renderWithProviders(<Loading />);
    await screen.findByTestId('demo-save');
    expect(document.querySelector('.ant-skeleton')).not.toBeNull();
    expect(screen.queryByTestId('demo-form')).toBeNull();
    expect((screen.getByTestId('demo-save') as HTMLButtonElement).disabled).toBe(true);
    act(() => setLoad({ ready: false, pending: false, error: { title: 'Could not read' } }));
    expect(await screen.findByText('Could not read')).toBeTruthy();
    expect(screen.queryByTestId('demo-form')).toBeNull();
    act(() => setLoad({ ready: true, pending: false }));
    expect(await screen.findByTestId('demo-form')).toBeTruthy();
    expect((screen.getByTestId('demo-save') as HTMLButtonElement).disabled).toBe(false);
  });

  it('puts labels beside the fields on a wide window when given a label width, above them otherwise', async () => {
    const { unmount } = renderWithProviders(<Harness onSave={async () => undefined} labelWidth={150} />);
    const form = await screen.findByTestId('demo-form');
    expect(form.className).toContain('ant-form-horizontal');
    expect((form.querySelector('.ant-form-item-label') as HTMLElement).style.flex).toContain('150px');
    unmount();
    renderWithProviders(<Harness onSave={async () => undefined} />);
    expect((await screen.findByTestId('demo-form')).className).toContain('ant-form-vertical');
  });

  it('with formChecks off the save runs although a field rule refuses (the save checks the whole input)', async () => {
    const onSave = vi.fn(async () => undefined);
    renderWithProviders(<Harness onSave={onSave} formChecks={false} />);
    fireEvent.change(await screen.findByTestId('demo-name'), { target: { value: '' } });
    save();
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(within(itemOf('demo-name')).queryByText('name needed')).toBeNull();
  });

  it('with submitOnEnter, Enter (the form’s submit) saves after the form’s own checks', async () => {
    const onSave = vi.fn(async () => undefined);
    renderWithProviders(<Harness onSave={onSave} submitOnEnter />);
    const input = await screen.findByTestId('demo-name');
    fireEvent.change(input, { target: { value: '' } });
    fireEvent.submit(screen.getByTestId('demo-form'));
    expect(await within(itemOf('demo-name')).findByText('name needed')).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: 'b' } });
    fireEvent.submit(screen.getByTestId('demo-form'));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
  });

  it('keeps a dialog’s older ids: a test id on the dialog, an id on the save button', async () => {
    renderWithProviders(<Harness onSave={async () => undefined} modalTestId="demo-dialog" saveId="demo-save-button" />);
    const dialog = await screen.findByTestId('demo-dialog');
    expect(within(dialog).getByTestId('demo-form')).toBeTruthy();
    expect(document.getElementById('demo-save-button')).toBe(screen.getByTestId('demo-save'));
  });

  it('queryLoad: pending while the query runs, ready with its data, its failure worded by the dialog', () => {
    const word = (err: unknown) => ({ title: `failed: ${String(err)}` });
    expect(queryLoad({ isPending: true, isError: false, error: null }, word)).toEqual({
      ready: false,
      pending: true,
      error: undefined,
    });
    expect(queryLoad({ data: { a: 1 }, isPending: false, isError: false, error: null }, word).ready).toBe(true);
    expect(queryLoad({ isPending: false, isError: true, error: 'E' }, word)).toEqual({
      ready: false,
      pending: false,
      error: { title: 'failed: E' },
    });
  });
});
