// What the rule and sub rule dialogs share: the folded panels, and putting a
// problem — from the form's checks, the shared schema or the server — on the
// form item it belongs to (opening its panel), or in a message when the form
// has no such item.
import { App, type FormInstance } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorDuration, errorText, type FieldIssue, issueOfError, issueText } from './errors';
import { entryAt, type FormSpot, type NamePath, type PanelKey, panelOf } from './serviceForm';

const startsWith = (name: NamePath, prefix: NamePath) => prefix.every((p, i) => name[i] === p);

/**
 * `prefix`: where the service editor's fields sit in this form (`['defaultRule']`
 * in the rule dialog, `[]` in the sub rule dialog); `spotOf`: the form item of a
 * dotted server path.
 */
export function useFormIssues(form: FormInstance, prefix: NamePath, spotOf: (path: string) => FormSpot | undefined) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [panels, setPanels] = useState<PanelKey[]>([]);

  /** Opens the folded panels that hold these fields, so their errors are seen. */
  const reveal = (names: NamePath[]) => {
    const needed = names
      .filter((n) => startsWith(n, prefix))
      .map((n) => panelOf(n.slice(prefix.length)))
      .filter((p): p is PanelKey => p !== undefined);
    if (needed.some((p) => !panels.includes(p))) setPanels((open) => [...new Set([...open, ...needed])]);
  };

  const showIssue = (issue: FieldIssue, sent: unknown) => {
    const spot = spotOf(issue.field);
    const token = issue.params?.token ?? (spot ? entryAt(sent, spot.name, spot.index) : undefined);
    const text = issueText(t, { ...issue, params: { ...issue.params, ...(token ? { token } : {}) } });
    if (!spot) {
      void message.error({ content: text, duration: 10 });
      return;
    }
    reveal([spot.name]);
    form.setFields([{ name: spot.name, errors: [text] }]);
    // After the panel has opened.
    setTimeout(() => form.scrollToField(spot.name, { block: 'center' }), 0);
  };

  /** Runs the form's own checks; on failure opens the panels of the refused fields. */
  const validate = async (): Promise<boolean> => {
    try {
      await form.validateFields();
      return true;
    } catch (err) {
      const fields = (err as { errorFields?: { name: NamePath }[] }).errorFields ?? [];
      reveal(fields.map((f) => f.name));
      if (fields[0]) setTimeout(() => form.scrollToField(fields[0].name, { block: 'center' }), 0);
      return false;
    }
  };

  /** A refused save: on its field when the server named one this form has, else as a message. */
  const failed = (err: unknown, sent: unknown) => {
    const issue = issueOfError(err);
    if (issue) {
      showIssue(issue, sent);
      return;
    }
    const text = errorText(err, t);
    if (text) void message.error({ content: text, duration: errorDuration(err) });
  };

  return { panels, setPanels, validate, showIssue, failed };
}
