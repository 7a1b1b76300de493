// Running the port-mapping clients inside the lab's home namespace (run.ts through runInNs).
import type { Lab } from '../natlab/lab.js';
import { runInNs } from '../natlab/lab.js';
import type { Call } from './run.js';

const RUN = new URL('./run.ts', import.meta.url).pathname;

export interface CodedFailure {
  code: string;
  params: Record<string, unknown>;
  text: string;
}

export type Outcome<T> = { ok: T; error?: undefined } | { ok?: undefined; error: CodedFailure };

/** The call's result in home; a coded failure comes back as `error`. */
export function inHome<T>(lab: Lab, call: Call): Promise<Outcome<T>> {
  return runInNs<Outcome<T>>(lab.home, RUN, [JSON.stringify(call)]);
}

/** The result of a call that must succeed. */
export async function okInHome<T>(lab: Lab, call: Call): Promise<T> {
  const out = await inHome<T>(lab, call);
  if (out.error) throw new Error(`${call.op} failed in home: ${out.error.code}: ${out.error.text}`);
  return out.ok as T;
}
