// The one way a form shows what the server (or its own whole-form check) refused: the problem goes
// beside the field it names, in the user's language, and that field is scrolled to and focused;
// a problem with no field on this form is a message. A success clears what the last failure put
// up (field errors and message), so an old refusal never stands beside a success.
//
// A field may not be on screen yet (a folded panel, a mode or switch that shows it): `reveal` makes
// it show, and its error goes on when the form registers it. The form tells its watchers about
// every field that registers, so that is an event, not a timer.
import { App, Form, type FormInstance } from 'antd';
import { useCallback, useEffect, useId, useRef } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { errorDuration, type Failure, failureOf, type Translate } from '../api/callErrors';
import { ApiError } from '../api/client';
import { codedKey, codedText } from '../i18n/coded';

export type { Failure } from '../api/callErrors';
export type NamePath = (string | number)[];

export interface FormErrorsOptions {
  /** i18n namespace of the form's own codes: a code reads `<ns>.err_<code>` (then the generic ones). */
  ns: string;
  /**
   * The form item of a server path (`targetAddresses.1` → `['targetAddresses']`); undefined when
   * this form has no such item, and the problem becomes a message. Without it: the dotted path
   * itself, when the form has that item on screen.
   */
  nameOf?: (field: string) => NamePath | undefined;
  /** The form's own wording of a failure (the entry it names, a field's spec text …); undefined = the code's text. */
  describe?: (failure: Failure) => string | undefined;
  /** Makes these items show before their errors go on: opens folded panels, switches a mode on. */
  reveal?: (names: NamePath[]) => void;
}

/**
 * A failure in the user's language through the one coded-text helper (i18n/coded.ts:
 * `<ns>.err_<code>`, `errors.<code>`, `common.err_<code>`). Before it: a code whose text names the
 * entry at fault has a `…Plain` text for a failure that does not name it (no `token`), and a number
 * refused with its whole range reads as the range (`errors.outOfRange`). Numbers a text wants but
 * the failure lacks show as `?`. A code without a text: the server's own words without their
 * `field: ` prefix.
 */
export function failureText(t: Translate, ns: string, f: Failure): string {
  const params = f.params ?? {};
  if (f.code) {
    const ranged =
      (f.code === 'tooSmall' || f.code === 'tooBig') &&
      typeof params.min === 'number' &&
      typeof params.max === 'number';
    const plain = `${f.code}Plain`;
    const code = ranged ? 'outOfRange' : !params.token && codedKey(ns, 'err', plain) ? plain : f.code;
    if (codedKey(ns, 'err', code)) return codedText(ns, 'err', { code, params }).replace(/\{\{\s*[\w.]+\s*\}\}/g, '?');
  }
  const msg = (f.msg ?? '').trim();
  const own = f.field && msg.startsWith(`${f.field}: `) ? msg.slice(f.field.length + 2) : msg;
  return own || t('common.requestFailed', { ret: f.ret ?? 1 });
}

const keyOf = (name: NamePath) => name.join('.');
const dotted = (field: string): NamePath => field.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));
const within = (a: NamePath, b: NamePath) => a.length <= b.length && a.every((p, i) => b[i] === p);

/** Paths of the leaves of an `onValuesChange` object (`{a: {b: 1}}` → `['a', 'b']`). */
function changedPaths(changed: unknown, prefix: NamePath = [], out: NamePath[] = []): NamePath[] {
  if (changed && typeof changed === 'object' && !(changed instanceof Date)) {
    const entries = Array.isArray(changed)
      ? changed.map((v, i) => [i, v] as const).filter(([i]) => i in changed)
      : Object.entries(changed);
    if (entries.length === 0) out.push(prefix);
    for (const [k, v] of entries) changedPaths(v, [...prefix, k], out);
  } else out.push(prefix);
  return out;
}

interface Pending {
  name: NamePath;
  errors: string[];
}

export function useFormErrors(form: FormInstance, options: FormErrorsOptions) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const messageKey = `form-errors-${useId()}`;
  const opts = useRef(options);
  opts.current = options;
  /** Errors waiting for their field to be on screen. */
  const pending = useRef(new Map<string, Pending>());
  /** Fields that carry an error put up here (cleared by a success or an edit). */
  const shown = useRef(new Map<string, NamePath>());
  /** The field to scroll to and focus once its error is on. */
  const focus = useRef<string | undefined>(undefined);

  const apply = useCallback(() => {
    for (const [k, { name, errors }] of pending.current) {
      form.setFields([{ name, errors }]);
      // An item that is not registered yet keeps no error: it waits for the next registration.
      if (form.getFieldError(name).length === 0) continue;
      pending.current.delete(k);
      shown.current.set(k, name);
      if (focus.current === k) {
        focus.current = undefined;
        form.scrollToField(name, { block: 'center', focus: true });
      }
    }
  }, [form]);

  // Called by the form for every field that registers (mounts) and every value change.
  Form.useWatch(
    useCallback(() => {
      if (pending.current.size > 0) apply();
      return 0;
    }, [apply]),
    form,
  );
  // And after every render of the form's owner (a panel opened through React state).
  useEffect(() => {
    if (pending.current.size > 0) apply();
  });

  const textOf = useCallback(
    (f: Failure): string => opts.current.describe?.(f) ?? failureText(t, opts.current.ns, f),
    [t],
  );

  /** Opens what hides these items, rendered at once (a panel's items mount now; a mode's after its watch). */
  const reveal = useCallback((names: NamePath[]) => {
    const open = opts.current.reveal;
    if (open) flushSync(() => open(names));
  }, []);

  /** Takes away what the last failure put up: the field errors and the message. */
  const clear = useCallback(() => {
    const names = [...shown.current.values()];
    shown.current.clear();
    pending.current.clear();
    focus.current = undefined;
    if (names.length > 0) form.setFields(names.map((name) => ({ name, errors: [] })));
    message.destroy(messageKey);
  }, [form, message, messageKey]);

  /**
   * Shows a failed call (an ApiError, or any error) or the problems a whole-form check found
   * (failures in the API's shape). Nothing is shown when the session ended or the call was
   * cancelled: the request client has said so already.
   */
  const show = useCallback(
    (problem: unknown) => {
      clear();
      let failures: Failure[];
      let duration = 10;
      if (problem instanceof ApiError) {
        if (problem.kind === 'session' || problem.kind === 'aborted') return;
        duration = errorDuration(problem);
        failures = [failureOf(problem) ?? { msg: problem.message }];
      } else if (problem instanceof Error) failures = [{ msg: problem.message }];
      else failures = (Array.isArray(problem) ? problem : [problem]) as Failure[];

      const loose: string[] = [];
      const byName = new Map<string, Pending>();
      for (const f of failures) {
        const text = textOf(f);
        const name = f.field ? (opts.current.nameOf ? opts.current.nameOf(f.field) : dotted(f.field)) : undefined;
        if (!name || name.length === 0) {
          if (!loose.includes(text)) loose.push(text);
          continue;
        }
        const entry = byName.get(keyOf(name)) ?? { name, errors: [] };
        if (!entry.errors.includes(text)) entry.errors.push(text);
        byName.set(keyOf(name), entry);
      }
      if (byName.size > 0) {
        reveal([...byName.values()].map((p) => p.name));
        pending.current = byName;
        focus.current = [...byName.keys()][0];
        apply();
        // Without `nameOf` only the items on screen count; the rest of the path is not on this form.
        if (!opts.current.nameOf) {
          for (const [k, p] of pending.current) {
            pending.current.delete(k);
            loose.push(...p.errors);
          }
        }
      }
      if (loose.length > 0) void message.error({ content: loose.join('\n'), key: messageKey, duration });
    },
    [apply, clear, message, messageKey, reveal, textOf],
  );

  /** Runs the form's own checks; on failure shows the refused items (opening their panels) and focuses the first. */
  const validate = useCallback(async (): Promise<boolean> => {
    try {
      await form.validateFields();
      return true;
    } catch (err) {
      const names = ((err as { errorFields?: { name: NamePath }[] }).errorFields ?? []).map((f) => f.name);
      if (names.length === 0) return false;
      reveal(names);
      form.scrollToField(names[0], { block: 'center', focus: true });
      return false;
    }
  }, [form, reveal]);

  /** For the form's `onValuesChange`: an edited field loses the refusal put beside it. */
  const onValuesChange = useCallback(
    (changed: unknown) => {
      if (shown.current.size === 0 && pending.current.size === 0) return;
      const paths = changedPaths(changed);
      const stale: NamePath[] = [];
      for (const [k, name] of shown.current)
        if (paths.some((p) => within(p, name) || within(name, p))) {
          shown.current.delete(k);
          stale.push(name);
        }
      for (const [k, p] of pending.current) if (paths.some((c) => within(c, p.name))) pending.current.delete(k);
      if (stale.length > 0) form.setFields(stale.map((name) => ({ name, errors: [] })));
    },
    [form],
  );

  return { show, clear, validate, onValuesChange, textOf };
}

export type FormErrors = ReturnType<typeof useFormErrors>;
