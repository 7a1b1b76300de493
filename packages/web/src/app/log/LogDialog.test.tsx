import { act, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import LogDialog from './LogDialog';

let net: FakeFetch;

function setWindow(width: number, height: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
  Object.defineProperty(window, 'innerHeight', { configurable: true, value: height });
  window.dispatchEvent(new Event('resize'));
}

const logs = (starttime: string, ...lines: [string, string][]) => ({
  body: { ret: 0, starttime, logs: lines.map(([timestamp, log]) => ({ timestamp, log })) },
});

/** Lets pending promises and the given timer time run. */
async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  net = installFakeFetch();
  resetClient();
  setWindow(1300, 900);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** The dialog with a button that closes it from outside. */
function Harness() {
  const [open, setOpen] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setOpen(false)}>
        close-it
      </button>
      <LogDialog open={open} onClose={() => setOpen(false)} />
    </>
  );
}

const queryOf = (n: number) => new URL(net.call(n).url, 'http://x/').searchParams;

describe('program log dialog', () => {
  it('shows a loading indicator until the first reply, then the lines', async () => {
    net.plan(logs('s1', ['100', 'first line'], ['200', 'second line']));
    renderWithProviders(<LogDialog open onClose={() => {}} />);
    expect(screen.getByTestId('log-loading')).toBeTruthy();
    await advance(0);
    expect(screen.queryByTestId('log-loading')).toBeNull();
    expect(screen.getByTestId('log-text').textContent).toBe('first line\nsecond line');
    expect(net.call(0).url).toMatch(/^api\/logs\?/);
    expect(queryOf(0).get('pre')).toBe('0');
  });

  it('polls every second with the last timestamp and appends new lines', async () => {
    net.plan(logs('s1', ['100', 'a']), logs('s1', ['150', 'b'], ['170', 'c']), logs('s1'));
    renderWithProviders(<LogDialog open onClose={() => {}} />);
    await advance(0);
    expect(net.fn).toHaveBeenCalledTimes(1);
    await advance(999);
    expect(net.fn).toHaveBeenCalledTimes(1);
    await advance(1);
    expect(net.fn).toHaveBeenCalledTimes(2);
    expect(queryOf(1).get('pre')).toBe('100');
    expect(screen.getByTestId('log-text').textContent).toBe('a\nb\nc');
    await advance(1000);
    expect(queryOf(2).get('pre')).toBe('170');
    expect(screen.getByTestId('log-text').textContent).toBe('a\nb\nc');
  });

  it('clears the text when the starttime changes (the program restarted)', async () => {
    net.plan(logs('s1', ['100', 'before restart']), logs('s2', ['5', 'after restart']));
    renderWithProviders(<LogDialog open onClose={() => {}} />);
    await advance(0);
    expect(screen.getByTestId('log-text').textContent).toBe('before restart');
    await advance(1000);
    expect(screen.getByTestId('log-text').textContent).toBe('after restart');
  });

  it('keeps polling after an error and shows "error getting log" once', async () => {
    net.plan({ networkError: true }, { networkError: true }, logs('s1', ['1', 'ok']));
    renderWithProviders(<LogDialog open onClose={() => {}} />);
    await advance(0);
    await advance(1000);
    await advance(1000);
    expect(net.fn).toHaveBeenCalledTimes(3);
    expect(screen.getAllByText('获取日志出错')).toHaveLength(1);
    expect(screen.getByTestId('log-text').textContent).toBe('ok');
  });

  it('stops polling when closed', async () => {
    net.plan(logs('s1', ['1', 'x']), logs('s1'), logs('s1'));
    renderWithProviders(<Harness />);
    await advance(0);
    expect(net.fn).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByText('close-it'));
    await advance(5000);
    expect(net.fn).toHaveBeenCalledTimes(1);
  });

  it('is (width − 100) × (height − 350) on a desktop window, capped at 1300 px wide', async () => {
    net.plan(logs('s1'));
    setWindow(1000, 800);
    renderWithProviders(<LogDialog open onClose={() => {}} />);
    await advance(0);
    const modal = document.querySelector('.log-dialog') as HTMLElement;
    expect(modal.style.width).toBe('900px');
    // The whole dialog box, title included, is the spec's height.
    const box = document.querySelector('.log-dialog .ant-modal-container') as HTMLElement;
    expect(box.style.height).toBe('450px');
    expect(screen.getByTestId('log-text').style.maxHeight).toBe('65vh');
  });

  it('caps the width at 1300 px on a wide window', async () => {
    net.plan(logs('s1'));
    setWindow(1920, 1080);
    renderWithProviders(<LogDialog open onClose={() => {}} />);
    await advance(0);
    expect((document.querySelector('.log-dialog') as HTMLElement).style.width).toBe('1300px');
  });

  it('is full size on windows up to 768 px', async () => {
    net.plan(logs('s1'));
    setWindow(768, 1000);
    renderWithProviders(<LogDialog open onClose={() => {}} />);
    await advance(0);
    const modal = document.querySelector('.log-dialog') as HTMLElement;
    expect(modal.classList.contains('log-dialog-full')).toBe(true);
    expect(modal.style.width).toBe('100vw');
  });

  it('can be dragged by its title bar', async () => {
    net.plan(logs('s1'));
    renderWithProviders(<LogDialog open onClose={() => {}} />);
    await advance(0);
    const frame = screen.getByTestId('log-dialog');
    expect(frame.style.transform).toBe('translate(0px, 0px)');
    fireEvent.pointerDown(screen.getByTestId('log-dialog-title'), { button: 0, clientX: 100, clientY: 100 });
    fireEvent.pointerMove(window, { clientX: 160, clientY: 130 });
    fireEvent.pointerUp(window);
    expect(frame.style.transform).toBe('translate(60px, 30px)');
  });

  it('closes with the close button and with a click outside', async () => {
    net.plan(logs('s1'));
    const onClose = vi.fn();
    renderWithProviders(<LogDialog open onClose={onClose} />);
    await advance(0);
    fireEvent.click(document.querySelector('.ant-modal-close') as HTMLElement);
    expect(onClose).toHaveBeenCalledTimes(1);
    const wrap = document.querySelector('.ant-modal-wrap') as HTMLElement;
    fireEvent.mouseDown(wrap);
    fireEvent.mouseUp(wrap);
    fireEvent.click(wrap);
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});
