// The text editor of the preview: a monospace textarea (Tab puts spaces in, Ctrl/Cmd+S saves).
// A save replaces the file only while it is the version that was opened; when someone changed it
// meanwhile the editor keeps the edits and offers to reload the file (dropping them) or to save
// them under another name.
import { isFileName } from '@lucky/shared';
import { Alert, App, Button, Input, Space } from 'antd';
import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createTextFile, saveTextFile } from './api';
import { errorText, issueCodeOf } from './errors';

const TAB = '  ';

export interface TextEditorProps {
  storage: string;
  dir: string;
  name: string;
  /** The text as read, and the version it was read at. */
  initial: string;
  etag: string;
  /** After a save: the text and version now on disk. */
  onSaved: (content: string, etag: string) => void;
  /** Someone else changed the file: read it again, dropping the edits. */
  onReload: () => void;
  /** Saved under another name (the folder changed; the editor stays on the old file). */
  onSavedAs: () => void;
  onCancel: () => void;
  /** Whether the text differs from what is on disk (for the close question). */
  onDirty: (dirty: boolean) => void;
}

export const joinPath = (dir: string, name: string) => (dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`);

/** `notes.txt` → `notes (copy).txt`: the name offered for "save as". */
export function copyName(name: string, suffix: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${suffix})${name.slice(dot)}` : `${name} (${suffix})`;
}

export function TextEditor(props: TextEditorProps) {
  const { storage, dir, name, initial, etag } = props;
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [draft, setDraft] = useState(initial);
  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState(false);
  const [saveAsName, setSaveAsName] = useState<string | undefined>(undefined);
  const area = useRef<HTMLTextAreaElement | null>(null);
  /** Where the caret goes after a Tab (set once React has put the new text in). */
  const caret = useRef<number | undefined>(undefined);

  useLayoutEffect(() => {
    if (caret.current !== undefined && area.current) {
      area.current.selectionStart = area.current.selectionEnd = caret.current;
      caret.current = undefined;
    }
  });

  const change = (text: string) => {
    setDraft(text);
    props.onDirty(text !== initial);
  };

  const save = async () => {
    if (saving) return;
    setSaving(true);
    try {
      const res = await saveTextFile(storage, joinPath(dir, name), draft, etag);
      setConflict(false);
      props.onDirty(false);
      void message.success(t('filebrowser.preview_saved'));
      props.onSaved(draft, res.entry.etag);
    } catch (err) {
      if (issueCodeOf(err) === 'changedOnDisk') setConflict(true);
      else {
        const text = errorText(err, t);
        if (text) void message.error(text);
      }
    } finally {
      setSaving(false);
    }
  };

  const saveAs = async () => {
    const target = (saveAsName ?? '').trim();
    if (!isFileName(target)) {
      void message.error(t('filebrowser.err_nameInvalid'));
      return;
    }
    setSaving(true);
    try {
      await createTextFile(storage, joinPath(dir, target), draft);
      void message.success(t('filebrowser.preview_savedAs', { name: target }));
      props.onDirty(false);
      props.onSavedAs();
    } catch (err) {
      const text = errorText(err, t);
      if (text) void message.error(text);
    } finally {
      setSaving(false);
    }
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLTextAreaElement>) => {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
      // The browser's own "save page" is never what is meant here.
      e.preventDefault();
      void save();
    } else if (e.key === 'Tab' && !e.shiftKey && !e.ctrlKey && !e.altKey && !e.metaKey) {
      e.preventDefault();
      const el = e.currentTarget;
      const { selectionStart: start, selectionEnd: end } = el;
      caret.current = start + TAB.length;
      change(draft.slice(0, start) + TAB + draft.slice(end));
    }
  };

  return (
    <div className="fb-editor" data-testid="fb-editor">
      {conflict && (
        <Alert
          type="error"
          showIcon
          className="fb-editor-conflict"
          data-testid="fb-editor-conflict"
          title={t('filebrowser.err_changedOnDisk')}
          description={
            saveAsName === undefined ? (
              <Space wrap>
                <Button danger onClick={props.onReload} data-testid="fb-editor-reload">
                  {t('filebrowser.preview_reload')}
                </Button>
                <Button
                  onClick={() => setSaveAsName(copyName(name, t('filebrowser.preview_copySuffix')))}
                  data-testid="fb-editor-save-as"
                >
                  {t('filebrowser.preview_saveAs')}
                </Button>
              </Space>
            ) : (
              <Space.Compact style={{ width: '100%', maxWidth: 480 }}>
                <Input
                  value={saveAsName}
                  onChange={(e) => setSaveAsName(e.target.value)}
                  onPressEnter={() => void saveAs()}
                  aria-label={t('filebrowser.preview_saveAsName')}
                  data-testid="fb-editor-save-as-name"
                />
                <Button
                  type="primary"
                  loading={saving}
                  onClick={() => void saveAs()}
                  data-testid="fb-editor-save-as-ok"
                >
                  {t('common.save')}
                </Button>
              </Space.Compact>
            )
          }
        />
      )}
      <textarea
        ref={area}
        className="fb-editor-area"
        value={draft}
        spellCheck={false}
        onChange={(e) => change(e.target.value)}
        onKeyDown={onKeyDown}
        aria-label={name}
        data-testid="fb-editor-area"
      />
      <Space className="fb-editor-bar">
        <Button type="primary" loading={saving} onClick={() => void save()} data-testid="fb-editor-save">
          {t('common.save')}
        </Button>
        <Button onClick={props.onCancel} data-testid="fb-editor-cancel">
          {t('filebrowser.preview_stopEditing')}
        </Button>
      </Space>
    </div>
  );
}
