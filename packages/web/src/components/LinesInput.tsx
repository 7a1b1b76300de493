// A list edited as text, one entry per line: for entries that may hold spaces
// (user agents, paths) or are long (URLs), where tags would split or crowd.
// The value keeps the lines as typed (blank ones too, so Enter works while
// typing); whoever sends the list trims it and drops the blanks.
import { Input } from 'antd';

export interface LinesInputProps {
  value?: string[];
  onChange?: (v: string[]) => void;
  id?: string;
  placeholder?: string;
  rows?: number;
  'data-testid'?: string;
}

export const linesOf = (text: string): string[] => text.split(/\r?\n/);

/** Text of a list for a plain text area: one entry per line. */
export const joinLines = (list: readonly string[] | undefined) => (list ?? []).join('\n');
/** Entries of a plain text area: trimmed lines, blanks dropped (what is sent). */
export const splitLines = (text: string | undefined) =>
  linesOf(text ?? '')
    .map((s) => s.trim())
    .filter(Boolean);

export function LinesInput({ value = [], onChange, id, placeholder, rows = 3, ...rest }: LinesInputProps) {
  return (
    <Input.TextArea
      id={id}
      className="mono lines-input"
      value={value.join('\n')}
      onChange={(e) => onChange?.(linesOf(e.target.value))}
      placeholder={placeholder}
      autoSize={{ minRows: rows, maxRows: 12 }}
      spellCheck={false}
      style={{ maxWidth: 560 }}
      data-testid={rest['data-testid']}
    />
  );
}
