import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { ModulesCard } from './ModulesCard';
import { normalizeStatus } from './statusData';

describe('modules card', () => {
  it("shows each module's true state and its reason in the UI language, not the server's English", async () => {
    const data = normalizeStatus({
      modules: [
        { key: 'ddns', state: 'disabled' },
        {
          key: 'portforward',
          state: 'error',
          reason: { code: 'portsNotRunning', params: { count: 2 } },
          error: '2 ports or rules are not running',
        },
        { key: 'reverseproxy', state: 'error', reason: { code: 'startFailed', params: { detail: 'EACCES' } } },
      ],
    });
    renderWithProviders(<ModulesCard data={data} />);
    expect((await screen.findByTestId('module-ddns')).dataset.state).toBe('disabled');
    expect(screen.getByTestId('module-portforward-reason').textContent).toBe(
      '2 个端口或规则未能启动，详见端口转发列表',
    );
    // A core code (the supervisor's) falls back to errors.<code>.
    expect(screen.getByTestId('module-reverseproxy-reason').textContent).toBe('无法启动：EACCES');
  });
});
