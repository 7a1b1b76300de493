// The grid view: tiles with an image's thumbnail (made lazily by the server, loaded by the browser
// only when the tile comes into sight) or the type's icon; virtualised by rows of tiles.
import { type FilebrowserEntry, formatSize } from '@lucky/shared';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Checkbox } from 'antd';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { thumbUrl } from './api';
import { FileIcon } from './FileIcon';
import type { Selection } from './listModel';
import { joinPath } from './paths';
import { type RowHandlers, useRowGestures } from './rowGestures';

const TILE_WIDTH = 140;
const TILE_HEIGHT = 150;

export interface FileGridProps extends RowHandlers {
  rows: FilebrowserEntry[];
  selection: Selection;
  phone: boolean;
  storage: string;
  dir: string;
  ticket: string;
  thumbnails: boolean;
  onToggle: (name: string) => void;
}

export function FileGrid({ rows, selection, phone, storage, dir, ticket, thumbnails, onToggle, ...h }: FileGridProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(800);
  const gestures = useRowGestures(phone, h);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const measure = () => setWidth(el.clientWidth || 800);
    measure();
    const ro = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure);
    ro?.observe(el);
    return () => ro?.disconnect();
  }, []);
  const cols = Math.max(2, Math.floor(width / TILE_WIDTH));
  const lines = Math.ceil(rows.length / cols);
  const v = useVirtualizer({
    count: lines,
    getScrollElement: () => scroller.current,
    estimateSize: () => TILE_HEIGHT,
    overscan: 3,
  });
  const focusIndex = selection.focus === undefined ? -1 : rows.findIndex((e) => e.name === selection.focus);
  useEffect(() => {
    if (focusIndex >= 0) v.scrollToIndex(Math.floor(focusIndex / cols), { align: 'auto' });
  }, [focusIndex, cols, v]);

  return (
    <div className="fb-scroll fb-grid" ref={scroller} data-testid="fb-grid">
      <div style={{ height: v.getTotalSize(), position: 'relative' }}>
        {v.getVirtualItems().map((line) => (
          <div
            key={line.key}
            className="fb-grid-line"
            style={{
              transform: `translateY(${line.start}px)`,
              height: TILE_HEIGHT,
              gridTemplateColumns: `repeat(${cols}, 1fr)`,
            }}
          >
            {rows.slice(line.index * cols, line.index * cols + cols).map((e) => {
              const selected = selection.names.has(e.name);
              return (
                <div
                  key={e.name}
                  className={`fb-tile${selected ? ' fb-selected' : ''}${selection.focus === e.name ? ' fb-focus' : ''}`}
                  data-selected={selected}
                  data-testid="fb-tile"
                  data-name={e.name}
                  title={e.name}
                  {...gestures(e.name)}
                >
                  <span className="fb-tile-check">
                    <Checkbox checked={selected} onChange={() => onToggle(e.name)} aria-label={e.name} />
                  </span>
                  <div className="fb-thumb">
                    {thumbnails && e.type === 'image' && ticket ? (
                      <img
                        loading="lazy"
                        alt=""
                        src={thumbUrl(storage, joinPath(dir, e.name), ticket)}
                        draggable={false}
                      />
                    ) : (
                      <FileIcon type={e.type} />
                    )}
                  </div>
                  <div className="fb-tile-name">{e.name}</div>
                  <div className="fb-tile-size">{e.kind === 'dir' ? '\u00a0' : formatSize(e.size)}</div>
                </div>
              );
            })}
          </div>
        ))}
      </div>
    </div>
  );
}
