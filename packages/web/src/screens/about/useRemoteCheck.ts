// Runs the remote check once per visit of the about page, stores the result
// (spec §3 stored values) and reports it to the server, logging the answer.
import { type BaseConfigureView, DEFAULT_ABOUT_HOSTS } from '@lucky/shared';
import { useEffect, useState } from 'react';
import { get, post } from '../../api/client';
import { getItem, setItems } from '../../api/storage';
import { checkRemoteInfo, fetchRemoteJson, type RemoteCheckResult } from './remoteCheck';

async function aboutHosts(): Promise<readonly string[]> {
  try {
    const r = await get<{ ret: number; baseconfigure: BaseConfigureView }>('api/baseconfigure', { silent: true });
    const hosts = r.baseconfigure?.aboutHosts;
    if (Array.isArray(hosts) && hosts.length === 3 && hosts.every((h) => typeof h === 'string' && h)) return hosts;
  } catch {
    // fall back to the built-in hosts
  }
  return DEFAULT_ABOUT_HOSTS;
}

// One check at a time: a remount (or React's dev double effect) joins the running one.
let running: Promise<RemoteCheckResult> | null = null;

export function runRemoteCheck(): Promise<RemoteCheckResult> {
  running ??= doRemoteCheck().finally(() => {
    running = null;
  });
  return running;
}

async function doRemoteCheck(): Promise<RemoteCheckResult> {
  const result = await checkRemoteInfo(await aboutHosts(), { fetchJson: fetchRemoteJson, log: console.log });
  setItems(result);
  try {
    const answer = await post(
      'api/v2l',
      {
        lastVersion: result.lastVersion,
        V2L: result.V2L,
        staticHost: result.staticHost,
      },
      { silent: true },
    );
    console.log('v2l', answer);
  } catch (err) {
    console.log('v2l failed', err);
  }
  return result;
}

/** The stored result right away, then the fresh one. */
export function useRemoteCheck(): { result: RemoteCheckResult | null; checking: boolean } {
  const [result, setResult] = useState<RemoteCheckResult | null>(() => storedResult());
  const [checking, setChecking] = useState(true);
  useEffect(() => {
    let alive = true;
    void runRemoteCheck().then((r) => {
      if (!alive) return;
      setResult(r);
      setChecking(false);
    });
    return () => {
      alive = false;
    };
  }, []);
  return { result, checking };
}

function storedResult(): RemoteCheckResult | null {
  const lastVersion = getItem('lastVersion');
  if (!Array.isArray(lastVersion)) return null;
  return {
    lastVersion,
    V2L: getItem('V2L') ?? '',
    staticHost: getItem('staticHost') ?? '',
    appinfourl: getItem('appinfourl') ?? '',
    showAboutView: getItem('showAboutView') === true,
    showLocalView: getItem('showLocalView') !== false,
  };
}
