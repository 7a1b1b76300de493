import { describe, expect, it } from 'vitest';
import { hostNamesRule } from './validators';

const t = (k: string, o?: Record<string, unknown>) => `${k}:${JSON.stringify(o ?? {})}`;
const check = (value: string[]) =>
  (hostNamesRule(t) as { validator: (r: unknown, v: string[]) => Promise<void> }).validator({}, value);

describe('hostNamesRule', () => {
  it('accepts host names, wildcards and a trailing dot', async () => {
    await expect(check(['nas.example.com', '*.lan', 'Box.Local.', 'nas'])).resolves.toBeUndefined();
  });
  it('names the first bad entry', async () => {
    await expect(check(['ok.example', 'bad name', 'x_y'])).rejects.toThrow(
      'set.adminHostNamesInvalid:{"value":"bad name"}',
    );
    await expect(check(['http://nas'])).rejects.toThrow('http://nas');
    await expect(check(['nas:8080'])).rejects.toThrow('nas:8080');
  });
  it('refuses more than 64 names', async () => {
    await expect(check(Array.from({ length: 65 }, (_, i) => `n${i}.lan`))).rejects.toThrow('TooMany');
  });
});
