// The list view: one row per entry (checkbox, icon, name, size, modified), virtualised so a folder
// of 10,000 entries renders only the rows in sight. The header sorts by name, size or modified.
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { type FilebrowserEntry, formatSize } from '@lucky/shared';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Checkbox } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useDisplayTimeZone } from '../../components/time';
import { FileIcon } from './FileIcon';
import type { Selection, Sort, SortKey } from './listModel';
import { type RowHandlers, useRowGestures } from './rowGestures';

export const ROW_HEIGHT = 40;

export interface FileListProps extends RowHandlers {
  rows: FilebrowserEntry[];
  selection: Selection;
  sort: Sort;
  phone: boolean;
  onSort: (key: SortKey) => void;
  onToggle: (name: string) => void;
  onToggleAll: (all: boolean) => void;
}

export function FileList({ rows, selection, sort, phone, onSort, onToggle, onToggleAll, ...h }: FileListProps) {
  const { t } = useTranslation();
  useDisplayTimeZone();
  const scroller = useRef<HTMLDivElement>(null);
  const gestures = useRowGestures(phone, h);
  const v = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    getItemKey: (i) => rows[i].name,
  });
  const focusIndex = selection.focus === undefined ? -1 : rows.findIndex((e) => e.name === selection.focus);
  useEffect(() => {
    if (focusIndex >= 0) v.scrollToIndex(focusIndex, { align: 'auto' });
  }, [focusIndex, v]);

  const all = rows.length > 0 && selection.names.size === rows.length;
  const some = selection.names.size > 0 && !all;
  const head = (key: SortKey, label: string, cls: string) => (
    <button
      type="button"
      className={`fb-col ${cls} fb-sort`}
      onClick={() => onSort(key)}
      data-testid={`fb-sort-${key}`}
    >
      {label}
      {sort.key === key && (sort.desc ? <ArrowDownOutlined /> : <ArrowUpOutlined />)}
    </button>
  );

  return (
    <div className={`fb-list${phone ? ' fb-phone' : ''}`} data-testid="fb-list">
      <div className="fb-row fb-head">
        <span className="fb-col fb-check">
          <Checkbox
            checked={all}
            indeterminate={some}
            onChange={(e) => onToggleAll(e.target.checked)}
            aria-label={t('filebrowser.browse_selectAll')}
            data-testid="fb-check-all"
          />
        </span>
        {head('name', t('filebrowser.browse_name'), 'fb-name')}
        {head('size', t('filebrowser.browse_size'), 'fb-size')}
        {!phone && head('mtime', t('filebrowser.browse_modified'), 'fb-mtime')}
      </div>
      <div className="fb-scroll" ref={scroller} data-testid="fb-scroll">
        <div style={{ height: v.getTotalSize(), position: 'relative' }}>
          {v.getVirtualItems().map((vi) => {
            const e = rows[vi.index];
            const selected = selection.names.has(e.name);
            return (
              <div
                key={vi.key}
                data-selected={selected}
                className={`fb-row${selected ? ' fb-selected' : ''}${selection.focus === e.name ? ' fb-focus' : ''}`}
                style={{ transform: `translateY(${vi.start}px)`, height: ROW_HEIGHT }}
                data-testid="filebrowser-row"
                data-name={e.name}
                {...gestures(e.name)}
              >
                <span className="fb-col fb-check">
                  <Checkbox checked={selected} onChange={() => onToggle(e.name)} aria-label={e.name} />
                </span>
                <span className="fb-col fb-name" title={e.name}>
                  <FileIcon type={e.type} />
                  <span className="fb-name-text">{e.name}</span>
                </span>
                <span className="fb-col fb-size">{e.kind === 'dir' ? '' : formatSize(e.size)}</span>
                {!phone && <span className="fb-col fb-mtime">{formatTime(e.mtimeMs, 'YYYY-MM-DD HH:mm:ss', '')}</span>}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
