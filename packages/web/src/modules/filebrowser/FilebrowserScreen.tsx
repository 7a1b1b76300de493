// The file manager (/filebrowser): every storage of storage management, browsed in the hash
// router (`#/filebrowser?storage=K&path=/a/b`, so back and forward work), as a virtualised list or
// a grid of thumbnails; multi-select with mouse and keyboard, a clipboard that survives changing
// folders and storages, uploads over tus with a progress panel, downloads through ticket links.
import { FileTextOutlined, HomeOutlined, SettingOutlined, ShareAltOutlined } from '@ant-design/icons';
import type { FilebrowserBatchResponse, FilebrowserEntry, FilebrowserSettingsResponse } from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Breadcrumb, Button, Empty, Select, Space, Spin, Typography } from 'antd';
import { type DragEvent, type KeyboardEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { get } from '../../api/client';
import { useWindowSize } from '../../hooks/useWindowSize';
import { deleteEntries, existingNames, fileUrl, makeDir, makeTextFile, renameEntry, transfer, zipUrl } from './api';
import { useConflictAsk } from './ConflictDialog';
import { codedText, errorText } from './errors';
import { FileGrid } from './FileGrid';
import { FileList } from './FileList';
import { LogDrawer } from './LogDrawer';
import {
  type ClickMods,
  clickSelect,
  emptySelection,
  moveFocus,
  pruneSelection,
  type Selection,
  type Sort,
  type SortKey,
  selectAll,
  toggleSelect,
  visibleEntries,
} from './listModel';
import { NameDialog } from './NameDialog';
import { PreviewModal } from './PreviewModal';
import { crumbsOf, freeName, joinPath, parentOf } from './paths';
import { SettingsDialog } from './SettingsDialog';
import { ShareDialog } from './ShareDialog';
import { SharesPanel } from './SharesPanel';
import { type ToolAction, Toolbar } from './Toolbar';
import { UploadPanel } from './UploadPanel';
import { filesOfDrop, filesOfInput, topNames, uploadQueue } from './uploads';
import { useListing, useRoots, useTicket } from './useFilebrowser';
import './filebrowser.css';

interface Clipboard {
  op: 'move' | 'copy';
  storage: string;
  dir: string;
  names: string[];
}
type NameAsk = { kind: 'rename'; entry: FilebrowserEntry } | { kind: 'newFolder' } | { kind: 'newText' };

const PHONE_WIDTH = 768;

export default function FilebrowserScreen() {
  const { t } = useTranslation();
  const { message, modal, notification } = App.useApp();
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  const { width } = useWindowSize();
  const phone = width <= PHONE_WIDTH;

  const roots = useRoots();
  const rootList = roots.data?.list ?? [];
  const storage = params.get('storage') ?? '';
  const path = params.get('path') || '/';
  const root = rootList.find((r) => r.key === storage);
  const listing = useListing(root ? storage : '', path);
  const ticket = useTicket(root ? storage : '');
  const settings = useQuery({
    queryKey: ['filebrowser', 'settings'],
    queryFn: ({ signal }) => get<FilebrowserSettingsResponse>('api/filebrowser/settings', { signal, silent: true }),
  });

  const [view, setView] = useState<'list' | 'grid'>('list');
  const [filter, setFilter] = useState('');
  const [sort, setSort] = useState<Sort>({ key: 'name', desc: false });
  const [selection, setSelection] = useState<Selection>(emptySelection);
  const [clipboard, setClipboard] = useState<Clipboard | undefined>();
  const [nameAsk, setNameAsk] = useState<NameAsk | undefined>();
  const [preview, setPreview] = useState<number | undefined>();
  const [share, setShare] = useState<{ path: string; kind: 'file' | 'dir' } | undefined>();
  const [sharesOpen, setSharesOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [logsOpen, setLogsOpen] = useState(false);
  const [dragging, setDragging] = useState(false);
  const conflict = useConflictAsk();
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const surface = useRef<HTMLDivElement>(null);

  const go = useCallback(
    (nextStorage: string, nextPath: string, replace = false) =>
      setParams({ storage: nextStorage, path: nextPath }, { replace }),
    [setParams],
  );
  // No storage chosen (or one that is gone): the first one.
  useEffect(() => {
    if (rootList.length > 0 && !root) go(rootList[0].key, '/', true);
  }, [rootList, root, go]);
  // A new folder starts unfiltered and unselected.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on a change of folder only
  useEffect(() => {
    setSelection(emptySelection);
    setFilter('');
    setPreview(undefined);
  }, [storage, path]);

  const data =
    listing.data && listing.data.storage === storage && listing.data.path === path ? listing.data : undefined;
  const rows = useMemo(() => visibleEntries(data?.entries ?? [], filter, sort), [data, filter, sort]);
  useEffect(() => setSelection((s) => pruneSelection(s, rows)), [rows]);
  const readOnly = (root?.readOnly ?? false) || (data?.readOnly ?? false);
  const chosen = rows.filter((e) => selection.names.has(e.name));
  const one = chosen.length === 1 ? chosen[0] : undefined;

  const reload = useCallback(
    (s = storage) => qc.invalidateQueries({ queryKey: ['filebrowser', 'list', s] }),
    [qc, storage],
  );
  useEffect(() => {
    uploadQueue.onFinished = (s) => void reload(s);
  }, [reload]);

  const fail = (err: unknown) => {
    const text = errorText(err, t);
    if (text) message.error(text);
  };
  /** Per-item outcome of a batch: a line for each failure, a short note otherwise. */
  const report = (res: FilebrowserBatchResponse, doneKey: string) => {
    const failed = res.results.filter((r) => r.result === 'failed');
    const done = res.results.filter((r) => r.result === 'done').length;
    const skipped = res.results.filter((r) => r.result === 'skipped').length;
    if (failed.length === 0) {
      message.success(
        t(doneKey, { count: done }) + (skipped ? ` ${t('filebrowser.browse_skipped', { count: skipped })}` : ''),
      );
      return;
    }
    notification.error({
      title: t('filebrowser.browse_someFailed', { count: failed.length, total: res.results.length }),
      description: (
        <ul className="fb-failures" data-testid="fb-failures">
          {failed.slice(0, 20).map((r) => (
            <li key={r.name}>
              {r.name}: {codedText(r.reason, t)}
            </li>
          ))}
        </ul>
      ),
      duration: 0,
    });
  };

  const open = (name: string) => {
    const e = rows.find((r) => r.name === name);
    if (!e) return;
    if (e.kind === 'dir') go(storage, joinPath(path, e.name));
    else setPreview(rows.indexOf(e));
  };
  const select = (name: string, mods: ClickMods) => setSelection((s) => clickSelect(s, rows, name, mods));

  const startUpload = async (files: { file: File; relativePath: string }[]) => {
    if (!root || files.length === 0 || readOnly) return;
    const dir = path;
    let policy: 'skip' | 'replace' | 'keepBoth' = 'keepBoth';
    let taken: string[] = [];
    try {
      taken = (await existingNames(storage, dir, topNames(files))).existing;
    } catch (err) {
      return fail(err);
    }
    if (taken.length > 0) {
      const p = await conflict.ask(taken);
      if (!p) return;
      policy = p;
    }
    const skipped = new Set(policy === 'skip' ? taken : []);
    uploadQueue.add(
      files
        .filter((f) => !skipped.has(f.relativePath.split('/')[0]))
        .map((f) => ({ file: f.file, storage, dir, relativePath: f.relativePath, conflict: policy })),
    );
  };

  const paste = async () => {
    if (!clipboard || !root || readOnly) return;
    const to = { storage, dir: path };
    const same = clipboard.storage === storage && clipboard.dir === path;
    if (same && clipboard.op === 'move') return setClipboard(undefined);
    let policy: 'skip' | 'replace' | 'keepBoth' = 'keepBoth';
    try {
      // A copy into its own folder makes "name (1)" without asking.
      const taken = same ? [] : (await existingNames(storage, path, clipboard.names)).existing;
      if (taken.length > 0) {
        const p = await conflict.ask(taken);
        if (!p) return;
        policy = p;
      }
      const hide = message.loading(t('filebrowser.browse_pasting', { count: clipboard.names.length }), 0);
      try {
        const { storage: fromStorage, dir: fromDir, names } = clipboard;
        const res = await transfer(clipboard.op, { storage: fromStorage, dir: fromDir, names }, to, policy);
        report(res, clipboard.op === 'move' ? 'filebrowser.browse_moved' : 'filebrowser.browse_copied');
      } finally {
        hide();
      }
      if (clipboard.op === 'move') {
        setClipboard(undefined);
        void reload(clipboard.storage);
      }
      void reload(storage);
    } catch (err) {
      fail(err);
    }
  };

  const remove = () => {
    if (chosen.length === 0 || readOnly) return;
    const names = chosen.map((e) => e.name);
    const trash = settings.data?.settings.trash ?? false;
    modal.confirm({
      title: t('filebrowser.browse_deleteTitle', { count: names.length }),
      content: (
        <div>
          <Typography.Paragraph>
            {trash ? t('filebrowser.browse_deleteTrash') : t('filebrowser.browse_deleteForGood')}
          </Typography.Paragraph>
          <Typography.Text code>{names.slice(0, 5).join(', ') + (names.length > 5 ? ' …' : '')}</Typography.Text>
        </div>
      ),
      okText: t('filebrowser.browse_delete'),
      okButtonProps: { danger: true, ...{ 'data-testid': 'fb-delete-ok' } },
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          report(await deleteEntries(storage, path, names), 'filebrowser.browse_deleted');
        } catch (err) {
          fail(err);
        }
        void reload();
      },
    });
  };

  const download = () => {
    if (!ticket) return;
    const href =
      one && one.kind === 'file'
        ? fileUrl(storage, joinPath(path, one.name), ticket, true)
        : zipUrl(
            storage,
            path,
            chosen.map((e) => e.name),
            ticket,
          );
    const a = document.createElement('a');
    a.href = href;
    a.rel = 'noopener';
    a.download = '';
    document.body.append(a);
    a.click();
    a.remove();
  };

  const can: Record<ToolAction, boolean> = {
    uploadFiles: !!root && !readOnly,
    uploadFolder: !!root && !readOnly,
    newFolder: !!root && !readOnly,
    newText: !!root && !readOnly,
    download: !!root && !!ticket,
    cut: chosen.length > 0 && !readOnly,
    copy: chosen.length > 0,
    paste: !!clipboard && !!root && !readOnly,
    rename: !!one && !readOnly,
    delete: chosen.length > 0 && !readOnly,
    share: !!root && chosen.length <= 1,
    refresh: !!root,
  };
  const act = (a: ToolAction) => {
    if (!can[a]) return;
    switch (a) {
      case 'uploadFiles':
        return filesInput.current?.click();
      case 'uploadFolder':
        return folderInput.current?.click();
      case 'newFolder':
      case 'newText':
        return setNameAsk({ kind: a });
      case 'download':
        return download();
      case 'cut':
      case 'copy':
        setClipboard({ op: a === 'cut' ? 'move' : 'copy', storage, dir: path, names: chosen.map((e) => e.name) });
        return message.info(
          t(a === 'cut' ? 'filebrowser.browse_cutDone' : 'filebrowser.browse_copyDone', { count: chosen.length }),
        );
      case 'paste':
        return void paste();
      case 'rename':
        return one && setNameAsk({ kind: 'rename', entry: one });
      case 'delete':
        return remove();
      case 'share':
        return setShare(one ? { path: joinPath(path, one.name), kind: one.kind } : { path, kind: 'dir' });
      case 'refresh':
        return void reload();
    }
  };

  const onKey = (e: KeyboardEvent) => {
    const target = e.target as HTMLElement;
    if (target.closest('input, textarea, [contenteditable=true], .ant-modal')) return;
    const mod = e.ctrlKey || e.metaKey;
    const handled = () => {
      e.preventDefault();
      e.stopPropagation();
    };
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (e.altKey && e.key === 'ArrowUp') {
        if (path !== '/') go(storage, parentOf(path));
        return handled();
      }
      setSelection((s) => moveFocus(s, rows, e.key === 'ArrowDown' ? 1 : -1, e.shiftKey));
      return handled();
    }
    if (e.key === 'Enter' && selection.focus !== undefined) {
      open(selection.focus);
      return handled();
    }
    if (e.key === 'Backspace') {
      if (path !== '/') go(storage, parentOf(path));
      return handled();
    }
    const k = e.key.toLowerCase();
    const keyed: Record<string, () => void> = {
      delete: () => act('delete'),
      f2: () => act('rename'),
      escape: () => setSelection(emptySelection),
    };
    const modded: Record<string, () => void> = {
      a: () => setSelection((s) => selectAll(rows, s)),
      c: () => act('copy'),
      x: () => act('cut'),
      v: () => act('paste'),
    };
    const run = mod ? modded[k] : keyed[k];
    if (run) {
      handled();
      run();
    }
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (readOnly || !root) return;
    void filesOfDrop(e.dataTransfer.items).then(startUpload, fail);
  };

  const submitName = async (name: string): Promise<string | undefined> => {
    if (!nameAsk) return undefined;
    try {
      if (nameAsk.kind === 'rename') await renameEntry(storage, joinPath(path, nameAsk.entry.name), name);
      else if (nameAsk.kind === 'newFolder') await makeDir(storage, path, name);
      else await makeTextFile(storage, joinPath(path, name));
      await reload();
      setSelection(clickSelect(emptySelection, [], name, { toggle: false, range: false }));
      return undefined;
    } catch (err) {
      return errorText(err, t) ?? '';
    }
  };
  const taken = new Set((data?.entries ?? []).map((e) => e.name));

  if (roots.data && !roots.data.enabled)
    return (
      <div className="screen fb-screen" data-testid="filebrowser-screen">
        <Alert type="info" showIcon title={t('filebrowser.err_moduleDisabled')} data-testid="fb-disabled" />
      </div>
    );

  return (
    <div className="screen fb-screen" data-testid="filebrowser-screen">
      <div className="fb-top">
        <Typography.Title level={4} className="screen-title">
          {t('filebrowser.title')}
        </Typography.Title>
        <Space wrap size={4}>
          <Button icon={<ShareAltOutlined />} onClick={() => setSharesOpen((o) => !o)} data-testid="fb-open-shares">
            {!phone && t('filebrowser.browse_shares')}
          </Button>
          <Button icon={<SettingOutlined />} onClick={() => setSettingsOpen(true)} data-testid="fb-open-settings">
            {!phone && t('filebrowser.browse_settings')}
          </Button>
          <Button icon={<FileTextOutlined />} onClick={() => setLogsOpen(true)} data-testid="fb-open-logs">
            {!phone && t('filebrowser.browse_logs')}
          </Button>
        </Space>
      </div>
      {sharesOpen && <SharesPanel />}

      {roots.isSuccess && rootList.length === 0 ? (
        <Empty description={t('filebrowser.browse_noStorage')} data-testid="fb-no-storage">
          <Button type="primary" href="#/storagemanagement">
            {t('filebrowser.browse_addStorage')}
          </Button>
        </Empty>
      ) : (
        // biome-ignore lint/a11y/noStaticElementInteractions: the surface takes the file list's keyboard shortcuts and drops
        <div
          className={`fb-surface${dragging ? ' fb-dragging' : ''}`}
          ref={surface}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: focusable so the shortcuts reach it
          tabIndex={0}
          onKeyDown={onKey}
          onDragOver={(e) => {
            if (readOnly) return;
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={(e) => {
            if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
          }}
          onDrop={onDrop}
          data-testid="fb-surface"
        >
          <div className="fb-nav">
            <Select
              className="fb-storage"
              value={root ? storage : undefined}
              placeholder={t('filebrowser.err_storageRequired')}
              onChange={(k: string) => go(k, '/')}
              options={rootList.map((r) => ({
                value: r.key,
                label: r.readOnly ? `${r.name} (${t('filebrowser.browse_readOnly')})` : r.name,
              }))}
              data-testid="fb-storage"
            />
            <Breadcrumb
              className="fb-crumbs"
              data-testid="fb-crumbs"
              items={[
                {
                  title: <HomeOutlined />,
                  href: '#',
                  onClick: (e) => {
                    e.preventDefault();
                    go(storage, '/');
                  },
                },
                ...crumbsOf(path).map((c) => ({
                  title: c.name,
                  href: '#',
                  onClick: (e: React.MouseEvent) => {
                    e.preventDefault();
                    go(storage, c.path);
                  },
                })),
              ]}
            />
          </div>
          <Toolbar
            can={can}
            onAction={act}
            view={view}
            onView={setView}
            filter={filter}
            onFilter={setFilter}
            phone={phone}
            refreshing={listing.isFetching}
            clipboard={clipboard?.names.length ?? 0}
          />
          {readOnly && (
            <Alert
              type="info"
              showIcon
              banner
              title={t('filebrowser.err_storage_readOnly')}
              data-testid="fb-readonly"
            />
          )}
          {listing.isError && (
            <Alert type="error" showIcon title={errorText(listing.error, t)} data-testid="fb-list-error" />
          )}
          <div className="fb-status" data-testid="fb-status">
            {t('filebrowser.browse_count', { count: rows.length })}
            {selection.names.size > 0 && ` · ${t('filebrowser.browse_selected', { count: selection.names.size })}`}
            {clipboard &&
              ` · ${t(clipboard.op === 'move' ? 'filebrowser.browse_clipCut' : 'filebrowser.browse_clipCopy', { count: clipboard.names.length })}`}
          </div>
          <Spin spinning={listing.isPending && !!root}>
            {view === 'list' ? (
              <FileList
                rows={rows}
                selection={selection}
                sort={sort}
                phone={phone}
                onSort={(key: SortKey) => setSort((s) => ({ key, desc: s.key === key ? !s.desc : key !== 'name' }))}
                onSelect={select}
                onOpen={open}
                onToggle={(n) => setSelection((s) => toggleSelect(s, n))}
                onToggleAll={(all) => setSelection((s) => (all ? selectAll(rows, s) : emptySelection))}
              />
            ) : (
              <FileGrid
                rows={rows}
                selection={selection}
                phone={phone}
                storage={storage}
                dir={path}
                ticket={ticket}
                thumbnails={settings.data?.settings.thumbnails ?? true}
                onSelect={select}
                onOpen={open}
                onToggle={(n) => setSelection((s) => toggleSelect(s, n))}
              />
            )}
          </Spin>
          {data && rows.length === 0 && (
            <Empty
              className="fb-empty"
              description={filter ? t('filebrowser.browse_noMatch') : t('filebrowser.browse_emptyFolder')}
            />
          )}
        </div>
      )}

      <UploadPanel />
      <input
        ref={filesInput}
        type="file"
        multiple
        hidden
        data-testid="fb-input-files"
        onChange={(e) => {
          const files = e.target.files ? filesOfInput(e.target.files) : [];
          e.target.value = '';
          void startUpload(files);
        }}
      />
      <input
        ref={folderInput}
        type="file"
        multiple
        hidden
        data-testid="fb-input-folder"
        {...{ webkitdirectory: '', directory: '' }}
        onChange={(e) => {
          const files = e.target.files ? filesOfInput(e.target.files) : [];
          e.target.value = '';
          void startUpload(files);
        }}
      />

      {nameAsk && (
        <NameDialog
          title={t(`filebrowser.browse_${nameAsk.kind}`)}
          initial={
            nameAsk.kind === 'rename'
              ? nameAsk.entry.name
              : freeName(
                  nameAsk.kind === 'newFolder'
                    ? t('filebrowser.browse_newFolderName')
                    : t('filebrowser.browse_newTextName'),
                  taken,
                )
          }
          onSubmit={submitName}
          onClose={() => {
            setNameAsk(undefined);
            surface.current?.focus();
          }}
        />
      )}
      {conflict.element}
      {preview !== undefined && rows[preview] && (
        <PreviewModal
          storage={storage}
          dir={path}
          entries={rows}
          index={preview}
          ticket={ticket}
          onClose={() => setPreview(undefined)}
          onSaved={() => void reload()}
        />
      )}
      {share && (
        <ShareDialog storage={storage} path={share.path} kind={share.kind} onClose={() => setShare(undefined)} />
      )}
      <SettingsDialog open={settingsOpen} onClose={() => setSettingsOpen(false)} />
      <LogDrawer open={logsOpen} onClose={() => setLogsOpen(false)} />
    </div>
  );
}
