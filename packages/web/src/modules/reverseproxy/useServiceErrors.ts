// How the rule and sub rule dialogs configure the one form-error hook (hooks/useFormErrors.ts):
// where a server path lives in the form (`spotOf`), the folded panels that hold it, and the
// wording of this module's codes with the list entry a refusal names by index.
import type { FormInstance } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormErrors } from '../../hooks/useFormErrors';
import { issueOfFailure, issueText } from './errors';
import { entryAt, type FormSpot, type NamePath, type PanelKey, panelOf } from './serviceForm';

const startsWith = (name: NamePath, prefix: NamePath) => prefix.every((p, i) => name[i] === p);

/**
 * `prefix`: where the service editor's fields sit in this form (`['defaultRule']` in the rule
 * dialog, `[]` in the sub rule dialog); `spotOf`: the form item of a dotted server path.
 */
export function useServiceErrors(form: FormInstance, prefix: NamePath, spotOf: (path: string) => FormSpot | undefined) {
  const { t } = useTranslation();
  const [panels, setPanels] = useState<PanelKey[]>([]);
  /** What the last save sent: a refusal by index names the entry it refused. */
  const sent = useRef<unknown>(undefined);
  const errors = useFormErrors(form, {
    ns: 'reverseproxy',
    nameOf: (field) => spotOf(field)?.name,
    describe: (f) => {
      const issue = issueOfFailure(f);
      if (!issue) return undefined;
      const spot = spotOf(issue.field);
      const token = issue.params?.token ?? (spot ? entryAt(sent.current, spot.name, spot.index) : undefined);
      return issueText(t, { ...issue, params: { ...issue.params, ...(token ? { token } : {}) } });
    },
    // Opens the folded panels that hold these fields, so their errors are seen.
    reveal: (names) => {
      const needed = names
        .filter((n) => startsWith(n, prefix))
        .map((n) => panelOf(n.slice(prefix.length)))
        .filter((p): p is PanelKey => p !== undefined);
      if (needed.some((p) => !panels.includes(p))) setPanels((open) => [...new Set([...open, ...needed])]);
    },
  });

  /** Records what a save sends, so a refusal of it by index names the entry (FormDialog shows the refusal). */
  const sending = (input: unknown) => {
    sent.current = input;
  };

  return { ...errors, sending, panels, setPanels };
}
