// A list of short entries (addresses, CIDRs, origins) typed as tags, used by
// the module screens. Comma, space, semicolon or a new line separate entries;
// text still in the box when it loses focus is kept too, so nothing typed is
// silently dropped. Entries the check refuses are shown in red.
import { Select, Tag } from 'antd';
import { useState } from 'react';

export interface TagListInputProps {
  value?: string[];
  onChange?: (v: string[]) => void;
  id?: string;
  placeholder?: string;
  isValid?: (entry: string) => boolean;
  'data-testid'?: string;
}

const SEPARATORS = /[\s,;]+/;

export function splitEntries(text: string): string[] {
  return text
    .split(SEPARATORS)
    .map((s) => s.trim())
    .filter(Boolean);
}

export function TagListInput({ value = [], onChange, id, placeholder, isValid, ...rest }: TagListInputProps) {
  const [search, setSearch] = useState('');
  const commit = (list: string[]) => onChange?.([...new Set(list.flatMap(splitEntries))]);
  return (
    <Select
      id={id}
      mode="tags"
      value={value}
      searchValue={search}
      onSearch={setSearch}
      onChange={(v: string[]) => {
        setSearch('');
        commit(v);
      }}
      onBlur={() => {
        if (search.trim()) commit([...value, search]);
        setSearch('');
      }}
      tokenSeparators={[',', ' ', '\n', ';']}
      open={false}
      suffixIcon={null}
      placeholder={placeholder}
      style={{ width: '100%', maxWidth: 560 }}
      data-testid={rest['data-testid']}
      tagRender={({ label, value: entry, closable, onClose }) => (
        <Tag
          color={isValid && !isValid(String(entry)) ? 'error' : undefined}
          closable={closable}
          onClose={onClose}
          onMouseDown={(e) => e.preventDefault()}
          className="mono tag-list-entry"
        >
          {label}
        </Tag>
      )}
    />
  );
}
