// The toolbar: uploads, new folder / text file, download, clipboard, rename, delete, share,
// refresh, the view switch and the name filter. On a phone the actions fold into one menu.
import {
  AppstoreOutlined,
  CopyOutlined,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  FileAddOutlined,
  FolderAddOutlined,
  FolderOpenOutlined,
  MoreOutlined,
  ReloadOutlined,
  ScissorOutlined,
  ShareAltOutlined,
  SnippetsOutlined,
  UnorderedListOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { Button, Dropdown, Input, Segmented, Space, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export type ToolAction =
  | 'uploadFiles'
  | 'uploadFolder'
  | 'newFolder'
  | 'newText'
  | 'download'
  | 'cut'
  | 'copy'
  | 'paste'
  | 'rename'
  | 'delete'
  | 'share'
  | 'refresh';

export interface ToolbarProps {
  /** Actions that can run now (the rest are greyed). */
  can: Record<ToolAction, boolean>;
  onAction: (a: ToolAction) => void;
  view: 'list' | 'grid';
  onView: (v: 'list' | 'grid') => void;
  filter: string;
  onFilter: (f: string) => void;
  phone: boolean;
  refreshing: boolean;
  /** How many entries wait on the clipboard (shown on paste). */
  clipboard: number;
}

const ICONS: Record<ToolAction, ReactNode> = {
  uploadFiles: <UploadOutlined />,
  uploadFolder: <FolderOpenOutlined />,
  newFolder: <FolderAddOutlined />,
  newText: <FileAddOutlined />,
  download: <DownloadOutlined />,
  cut: <ScissorOutlined />,
  copy: <CopyOutlined />,
  paste: <SnippetsOutlined />,
  rename: <EditOutlined />,
  delete: <DeleteOutlined />,
  share: <ShareAltOutlined />,
  refresh: <ReloadOutlined />,
};
/** Groups, with a gap between them. */
const GROUPS: ToolAction[][] = [
  ['uploadFiles', 'uploadFolder', 'newFolder', 'newText'],
  ['download', 'cut', 'copy', 'paste'],
  ['rename', 'delete', 'share'],
];

export function Toolbar({ can, onAction, view, onView, filter, onFilter, phone, refreshing, clipboard }: ToolbarProps) {
  const { t } = useTranslation();
  const label = (a: ToolAction) =>
    a === 'paste' && clipboard > 0
      ? t('filebrowser.browse_pasteCount', { count: clipboard })
      : t(`filebrowser.browse_${a}`);
  const viewSwitch = (
    <Segmented
      value={view}
      onChange={(v) => onView(v as 'list' | 'grid')}
      options={[
        { value: 'list', icon: <UnorderedListOutlined />, title: t('filebrowser.browse_viewList') },
        { value: 'grid', icon: <AppstoreOutlined />, title: t('filebrowser.browse_viewGrid') },
      ]}
      data-testid="fb-view"
    />
  );
  const filterBox = (
    <Input.Search
      allowClear
      placeholder={t('filebrowser.browse_filter')}
      value={filter}
      onChange={(e) => onFilter(e.target.value)}
      className="fb-filter"
      data-testid="fb-filter"
    />
  );
  const refresh = (
    <Tooltip title={t('filebrowser.browse_refresh')}>
      <Button
        icon={<ReloadOutlined />}
        loading={refreshing}
        onClick={() => onAction('refresh')}
        aria-label={t('filebrowser.browse_refresh')}
        data-testid="fb-act-refresh"
      />
    </Tooltip>
  );

  if (phone) {
    return (
      <div className="fb-toolbar fb-toolbar-phone">
        <Dropdown
          trigger={['click']}
          menu={{
            items: GROUPS.flatMap((g, i) => [
              ...(i > 0 ? [{ type: 'divider' as const }] : []),
              ...g.map((a) => ({
                key: a,
                icon: ICONS[a],
                label: label(a),
                disabled: !can[a],
                'data-testid': `fb-menu-${a}`,
              })),
            ]),
            onClick: ({ key }) => onAction(key as ToolAction),
          }}
        >
          <Button icon={<MoreOutlined />} data-testid="fb-menu">
            {t('filebrowser.browse_actions')}
          </Button>
        </Dropdown>
        {filterBox}
        {refresh}
        {viewSwitch}
      </div>
    );
  }
  return (
    <div className="fb-toolbar">
      {GROUPS.map((g) => (
        <Space.Compact key={g[0]}>
          {g.map((a) => (
            <Tooltip key={a} title={label(a)}>
              <Button
                icon={ICONS[a]}
                disabled={!can[a]}
                onClick={() => onAction(a)}
                aria-label={label(a)}
                data-testid={`fb-act-${a}`}
              >
                {a === 'uploadFiles' || (a === 'paste' && clipboard > 0) ? label(a) : null}
              </Button>
            </Tooltip>
          ))}
        </Space.Compact>
      ))}
      {refresh}
      <span className="fb-toolbar-gap" />
      {filterBox}
      {viewSwitch}
    </div>
  );
}
