// A text file in the preview: read with the session's token, shown as source (markdown too: no
// HTML is ever rendered from a file) with syntax colours once highlight.js has loaded, and an
// "edit" switch to the editor. Larger than FILEBROWSER_LIMITS.editBytes: only a download.
import { EditOutlined } from '@ant-design/icons';
import { FILEBROWSER_LIMITS, type FilebrowserEntry } from '@lucky/shared';
import { Alert, Button, Spin } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useThemeMode } from '../../app/theme';
import { readTextFile, type TextFile } from './api';
import { errorText } from './errors';
import { highlightText } from './highlight';
import { joinPath, TextEditor } from './TextEditor';

export interface TextPreviewProps {
  storage: string;
  dir: string;
  entry: FilebrowserEntry;
  downloadButton: React.ReactNode;
  /** The file was written (saved, or saved as a new file): the folder's listing is stale. */
  onSaved: () => void;
  onDirty: (dirty: boolean) => void;
}

type Loaded = { state: 'loading' } | { state: 'failed'; text: string } | ({ state: 'ready' } & TextFile);

export function TextPreview({ storage, dir, entry, downloadButton, onSaved, onDirty }: TextPreviewProps) {
  const { t } = useTranslation();
  // highlight.js's light colours on a dark page glare: the dark theme gets its own (parts.css).
  const dark = useThemeMode().mode === 'dark';
  const codeClass = dark ? 'hljs fb-code-dark' : 'hljs';
  const [file, setFile] = useState<Loaded>({ state: 'loading' });
  // The colours are kept with the text they were made for: after a save the text changes at
  // once, and the old colours must not show for even one render (they would be the old text).
  const [coloured, setColoured] = useState<{ of: string; html: string | undefined } | undefined>(undefined);
  const [editing, setEditing] = useState(false);
  const [generation, setGeneration] = useState(0);
  const tooBig = entry.size > FILEBROWSER_LIMITS.editBytes.max;
  const path = joinPath(dir, entry.name);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `generation` is the "read it again" trigger
  useEffect(() => {
    if (tooBig) return;
    const abort = new AbortController();
    setFile({ state: 'loading' });
    readTextFile(storage, path, entry.etag, abort.signal).then(
      (f) => setFile({ state: 'ready', ...f }),
      (err: unknown) => {
        const text = errorText(err, t);
        if (text !== undefined && !abort.signal.aborted) setFile({ state: 'failed', text });
      },
    );
    return () => abort.abort();
  }, [storage, path, entry.etag, tooBig, generation, t]);

  const content = file.state === 'ready' ? file.content : undefined;
  useEffect(() => {
    if (content === undefined) return;
    let current = true;
    // No colours is still a readable file: a grammar that fails to load leaves plain text.
    highlightText(entry.name, content).then(
      (h) => current && setColoured({ of: content, html: h }),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [entry.name, content]);
  const html = coloured !== undefined && coloured.of === content ? coloured.html : undefined;

  const reload = useCallback(() => {
    setEditing(false);
    onDirty(false);
    setGeneration((g) => g + 1);
  }, [onDirty]);

  if (tooBig)
    return (
      <Alert
        type="info"
        showIcon
        data-testid="fb-preview-too-big"
        title={t('filebrowser.err_tooBigToEdit', { max: FILEBROWSER_LIMITS.editBytes.max })}
        action={downloadButton}
      />
    );
  if (file.state === 'loading') return <Spin data-testid="fb-preview-loading" />;
  if (file.state === 'failed') return <Alert type="error" showIcon title={file.text} data-testid="fb-preview-failed" />;

  if (editing)
    return (
      <TextEditor
        storage={storage}
        dir={dir}
        name={entry.name}
        initial={file.content}
        etag={file.etag}
        onSaved={(saved, etag) => {
          setFile({ state: 'ready', content: saved, etag });
          setEditing(false);
          onSaved();
        }}
        onReload={reload}
        onSavedAs={() => {
          setEditing(false);
          onSaved();
        }}
        onCancel={() => {
          setEditing(false);
          onDirty(false);
        }}
        onDirty={onDirty}
      />
    );

  return (
    <div className="fb-text" data-testid="fb-text">
      <div className="fb-text-bar">
        <Button icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="fb-text-edit">
          {t('filebrowser.preview_edit')}
        </Button>
        {downloadButton}
      </div>
      <pre className={dark ? 'fb-text-source fb-text-dark' : 'fb-text-source'}>
        {html === undefined ? (
          <code data-testid="fb-text-plain">{file.content}</code>
        ) : (
          // highlight.js escapes every character of the file and adds only its own <span class="hljs-…">.
          // biome-ignore lint/security/noDangerouslySetInnerHtml: highlight.js output, see above
          <code className={codeClass} data-testid="fb-text-highlighted" dangerouslySetInnerHTML={{ __html: html }} />
        )}
      </pre>
    </div>
  );
}
