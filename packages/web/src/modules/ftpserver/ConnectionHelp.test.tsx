import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { ConnectionHelp } from './ConnectionHelp';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('connection help card', () => {
  it('copies the ftpes:// address and spells out FileZilla’s TLS choice and the camera note', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    vi.stubGlobal('isSecureContext', true);
    renderWithProviders(<ConnectionHelp address="" port={2121} mode="explicit" user="alice" consoleHost="nas.lan" />);
    const card = await screen.findByTestId('ftp-help');
    // Folded: the addresses only.
    expect(within(card).queryByTestId('ftp-help-filezilla')).toBeNull();
    await userEvent.click(within(card).getByTestId('ftp-help-copy-ftpes'));
    expect(writeText).toHaveBeenCalledWith('ftpes://nas.lan:2121');
    await userEvent.click(within(card).getByTestId('ftp-help-more'));
    expect(within(card).getByTestId('ftp-help-filezilla').textContent).toContain('要求显式的 FTP over TLS');
    expect(within(card).getByTestId('ftp-help-filezilla').textContent).toContain('被动');
    expect(card.textContent).toContain('摄像头、扫描仪等设备通常只支持明文 FTP');
  });

  it('says Explorer and Finder cannot log in while TLS is required', async () => {
    renderWithProviders(<ConnectionHelp address="" port={2121} mode="required" consoleHost="nas.lan" />);
    await userEvent.click(await screen.findByTestId('ftp-help-more'));
    const explorer = await screen.findByTestId('ftp-help-explorer');
    expect(explorer.textContent).toBe('Windows 资源管理器只支持明文 FTP：TLS 设为强制时无法登录');
    expect(screen.queryByTestId('ftp-help-url')).toBeNull();
    expect(screen.getByTestId('ftp-help-finder').textContent).toContain('无法登录');
  });
});
