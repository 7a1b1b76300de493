// A live figure on a rule card (connections, bytes, rates): a small grey label (with an optional
// explanation on hover) over a bold tabular number, with an optional secondary value beside it.
// `Figures` lays several out in a wrapping row.
import { Tooltip } from 'antd';
import type { ReactNode } from 'react';
import './figure.css';

export interface FigureProps {
  label: string;
  value: string;
  /** Shown after the value, smaller (a rate next to a total). */
  sub?: string;
  /** Explains the label on hover. */
  hint?: string;
  testId?: string;
}

export function Figure({ label, value, sub, hint, testId }: FigureProps) {
  const head = <span className="figure-label">{label}</span>;
  return (
    <div className="figure-item" data-testid={testId}>
      {hint ? <Tooltip title={hint}>{head}</Tooltip> : head}
      <span className="figure-value">
        {value}
        {sub && <span className="figure-sub">{sub}</span>}
      </span>
    </div>
  );
}

export function Figures({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div className="figures" data-testid={testId}>
      {children}
    </div>
  );
}
