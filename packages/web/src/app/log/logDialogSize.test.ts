import { describe, expect, it } from 'vitest';
import { logDialogSize } from './logDialogSize';

describe('log dialog size (spec §2)', () => {
  it('is full size up to 768 px wide', () => {
    expect(logDialogSize(768, 1000)).toEqual({ fullScreen: true });
    expect(logDialogSize(375, 667)).toEqual({ fullScreen: true });
  });

  it('is window width − 100 by window height − 350 above that', () => {
    expect(logDialogSize(769, 900)).toEqual({ fullScreen: false, width: 669, height: 550 });
    expect(logDialogSize(1000, 800)).toEqual({ fullScreen: false, width: 900, height: 450 });
    expect(logDialogSize(1300, 900)).toEqual({ fullScreen: false, width: 1200, height: 550 });
  });

  it('caps the width at 1300 px', () => {
    expect(logDialogSize(1400, 900)).toMatchObject({ width: 1300 });
    expect(logDialogSize(2560, 1440)).toEqual({ fullScreen: false, width: 1300, height: 1090 });
  });
});
