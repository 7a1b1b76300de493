import { act, fireEvent, screen } from '@testing-library/react';
import { Button } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { formatTime } from '../time';
import { HEADER_NARROW_WIDTH, ModuleHeader, type ModuleHeaderQuery } from './ModuleHeader';

// 2026-11-26 08:09:10 in whatever zone the test runs: the header shows the same clock as formatTime.
const UPDATED = new Date(2026, 10, 26, 8, 9, 10).getTime();
const query = (over: Partial<ModuleHeaderQuery> = {}): ModuleHeaderQuery => ({
  dataUpdatedAt: UPDATED,
  isFetching: false,
  refetch: vi.fn(),
  ...over,
});

const setWidth = (width: number) => {
  act(() => {
    Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
    window.dispatchEvent(new Event('resize'));
  });
};
afterEach(() => setWidth(1024));

describe('ModuleHeader', () => {
  it('shows the title, the switch with its on word, and calls back when switched', () => {
    const onChange = vi.fn();
    renderWithProviders(
      <ModuleHeader
        title="网络唤醒"
        prefix="demo"
        moduleSwitch={{
          checked: true,
          onChange,
          label: 'Module switch',
          testId: 'demo-module-switch',
          words: { on: '已开启', off: '已关闭' },
        }}
      />,
    );
    expect(screen.getByRole('heading', { name: '网络唤醒' })).toBeTruthy();
    const sw = screen.getByTestId('demo-module-switch');
    expect(sw.getAttribute('aria-checked')).toBe('true');
    expect(sw.getAttribute('aria-label')).toBe('Module switch');
    expect(screen.getByText('已开启')).toBeTruthy();
    expect(screen.queryByText('已关闭')).toBeNull();
    fireEvent.click(sw);
    expect(onChange).toHaveBeenCalledWith(false);
  });

  it('shows the off word, a fixed caption, and spins while the switch call runs', () => {
    renderWithProviders(
      <ModuleHeader
        title="T"
        prefix="demo"
        moduleSwitch={{
          checked: false,
          onChange: () => {},
          busy: true,
          label: 'sw',
          testId: 'demo-switch',
          words: { on: 'on', off: 'off' },
          caption: '模块开关',
        }}
      />,
    );
    const sw = screen.getByTestId('demo-switch');
    expect(sw.getAttribute('aria-checked')).toBe('false');
    expect(sw.className).toContain('ant-switch-loading');
    expect(screen.getByText('off')).toBeTruthy();
    expect(screen.getByText('模块开关')).toBeTruthy();
  });

  it('shows when the query last answered, under the prefix’s class, and nothing before it has', () => {
    const { container, unmount } = renderWithProviders(
      <ModuleHeader title="T" prefix="wol" query={query()} updatedAtKey="wol.ui_updatedAt" />,
    );
    const updated = container.querySelector('.wol-updated');
    expect(updated?.textContent).toBe(`更新于 ${formatTime(UPDATED, 'HH:mm:ss')}`);
    expect(updated?.textContent).toContain('08:09:10');
    unmount();
    const fresh = renderWithProviders(
      <ModuleHeader title="T" prefix="wol" query={query({ dataUpdatedAt: 0 })} updatedAtKey="wol.ui_updatedAt" />,
    );
    expect(fresh.container.querySelector('.wol-updated')).toBeNull();
  });

  it('refetches the query from the refresh button, or runs the screen’s own refresh', () => {
    const q = query();
    const { unmount } = renderWithProviders(<ModuleHeader title="T" prefix="pf" query={q} />);
    const button = screen.getByTestId('pf-refresh');
    expect(button.textContent).toContain('刷新');
    fireEvent.click(button);
    expect(q.refetch).toHaveBeenCalledTimes(1);
    unmount();

    const own = vi.fn();
    const q2 = query();
    renderWithProviders(<ModuleHeader title="T" prefix="ftp" query={q2} onRefresh={own} compactRefresh />);
    const compact = screen.getByTestId('ftp-refresh');
    expect(compact.getAttribute('aria-label')).toBe('刷新');
    expect(compact.textContent).not.toContain('刷新');
    fireEvent.click(compact);
    expect(own).toHaveBeenCalledTimes(1);
    expect(q2.refetch).not.toHaveBeenCalled();
  });

  it('spins the refresh button while the query fetches and offers the interval picker when asked', () => {
    const onInterval = vi.fn();
    renderWithProviders(
      <ModuleHeader
        title="T"
        prefix="stun"
        query={query({ isFetching: true })}
        interval={{ value: 5000, onChange: onInterval }}
      />,
    );
    expect(screen.getByTestId('stun-refresh').className).toContain('ant-btn-loading');
    expect(screen.getByTestId('refresh-select')).toBeTruthy();
  });

  it('has no refresh button, interval or switch where the screen gives none', () => {
    renderWithProviders(<ModuleHeader title="T" prefix="demo" />);
    expect(screen.queryByTestId('demo-refresh')).toBeNull();
    expect(screen.queryByTestId('refresh-select')).toBeNull();
    expect(screen.queryByRole('switch')).toBeNull();
  });

  it('renders the screen’s own buttons after its refresh button', () => {
    const onLogs = vi.fn();
    renderWithProviders(
      <ModuleHeader title="T" prefix="demo" query={query()}>
        <Button data-testid="demo-open-logs" onClick={onLogs}>
          Logs
        </Button>
        <Button data-testid="demo-add">Add</Button>
      </ModuleHeader>,
    );
    const buttons = [...screen.getByTestId('demo-header').querySelectorAll('button')].map((b) =>
      b.getAttribute('data-testid'),
    );
    expect(buttons).toEqual(['demo-refresh', 'demo-open-logs', 'demo-add']);
    fireEvent.click(screen.getByTestId('demo-open-logs'));
    expect(onLogs).toHaveBeenCalledTimes(1);
  });

  it('keeps the screen’s class and wraps the buttons under the title on a narrow window', () => {
    setWidth(HEADER_NARROW_WIDTH + 200);
    renderWithProviders(<ModuleHeader title="T" prefix="wol" className="wol-toolbar" />);
    const row = screen.getByTestId('wol-header');
    expect(row.className).toContain('module-header');
    expect(row.className).toContain('wol-toolbar');
    expect(row.className).not.toContain('module-header-narrow');
    setWidth(390);
    expect(row.className).toContain('module-header-narrow');
    setWidth(HEADER_NARROW_WIDTH + 1);
    expect(row.className).not.toContain('module-header-narrow');
  });

  it('leaves "updated at" out on a narrow window only where the screen asks so', () => {
    setWidth(390);
    const { container } = renderWithProviders(
      <>
        <ModuleHeader title="A" prefix="wol" query={query()} updatedAtKey="wol.ui_updatedAt" wideOnlyUpdatedAt />
        <ModuleHeader title="B" prefix="pf" query={query()} updatedAtKey="portforward.updatedAt" />
      </>,
    );
    expect(container.querySelector('.wol-updated')).toBeNull();
    expect(container.querySelector('.pf-updated')).not.toBeNull();
    setWidth(HEADER_NARROW_WIDTH + 200);
    expect(container.querySelector('.wol-updated')).not.toBeNull();
  });
});
