// A switch that calls the API: it spins while the call runs and shows what the
// server answered (the list is patched with the answer), not what was clicked.
import { Switch } from 'antd';
import { useState } from 'react';

export interface AsyncSwitchProps {
  checked: boolean;
  onChange: (on: boolean) => Promise<unknown>;
  label: string;
  testId?: string;
  size?: 'small' | 'default';
}

export function AsyncSwitch({ checked, onChange, label, testId, size }: AsyncSwitchProps) {
  const [busy, setBusy] = useState(false);
  const toggle = async (on: boolean) => {
    setBusy(true);
    try {
      await onChange(on);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Switch
      checked={checked}
      loading={busy}
      size={size}
      onChange={(on) => void toggle(on)}
      aria-label={label}
      data-testid={testId}
    />
  );
}
