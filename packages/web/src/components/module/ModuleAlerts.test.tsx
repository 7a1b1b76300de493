import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { ModuleAlerts } from './ModuleAlerts';

describe('ModuleAlerts', () => {
  it('shows nothing while the screen has its data and the module is on', () => {
    const { container } = renderWithProviders(<ModuleAlerts testId="demo" loadError={false} off={false} />);
    expect(container.querySelector('.ant-alert')).toBeNull();
    expect(container.querySelector('.ant-card-loading')).toBeNull();
  });

  it('shows the load failure with its text under the prefix’s test id', () => {
    renderWithProviders(
      <ModuleAlerts testId="demo" loadError={{ title: 'Could not load', description: 'timed out' }} />,
    );
    const alert = screen.getByTestId('demo-load-error');
    expect(alert.className).toContain('ant-alert-error');
    expect(alert.textContent).toContain('Could not load');
    expect(alert.textContent).toContain('timed out');
  });

  it('warns that the module is off and switches it on from its button', () => {
    const enable = vi.fn();
    renderWithProviders(
      <ModuleAlerts
        testId="demo"
        off={{ title: 'Demo is off', help: 'Nothing runs', enable: { text: 'Switch on', onClick: enable } }}
      />,
    );
    const alert = screen.getByTestId('demo-module-disabled');
    expect(alert.className).toContain('ant-alert-warning');
    expect(alert.textContent).toContain('Nothing runs');
    fireEvent.click(screen.getByTestId('demo-module-enable'));
    expect(enable).toHaveBeenCalledTimes(1);
  });

  it('keeps a screen’s own test ids and an info notice without a button', () => {
    renderWithProviders(
      <ModuleAlerts
        testId="acme"
        ids={{ off: 'rp-module-off', loadError: 'acme-failed' }}
        loadError={{ title: 'x' }}
        off={{ title: 'Off', type: 'info' }}
      />,
    );
    expect(screen.getByTestId('acme-failed')).toBeTruthy();
    const off = screen.getByTestId('rp-module-off');
    expect(off.className).toContain('ant-alert-info');
    expect(off.querySelector('button')).toBeNull();
    expect(screen.queryByTestId('acme-module-disabled')).toBeNull();
  });

  it('stands a loading card in for the first answer', () => {
    const { container } = renderWithProviders(<ModuleAlerts testId="demo" loading />);
    expect(container.querySelector('.ant-card-loading')).not.toBeNull();
  });
});
