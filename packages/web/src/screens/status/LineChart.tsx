// A small hand-drawn SVG line chart: newest sample at the right edge, a
// missing sample breaks the line instead of drawing a false zero.
import { useId } from 'react';
import { HISTORY_LENGTH } from './history';

export interface LineChartProps {
  values: readonly (number | null)[];
  /** Fixed top of the scale (100 for percentages); otherwise it follows the data. */
  max?: number;
  color: string;
  label: string;
  height?: number;
  capacity?: number;
}

const W = 300;

export function LineChart({ values, max, color, label, height = 72, capacity = HISTORY_LENGTH }: LineChartProps) {
  const gradientId = `lc${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const H = height;
  const finite = values.filter((v): v is number => v !== null && Number.isFinite(v));
  const top = max ?? Math.max(1, ...finite) * 1.15;
  // Until the history is full the line spans the whole width; then it scrolls.
  const slots = Math.min(Math.max(values.length, 2), capacity);
  const step = W / (slots - 1);
  const x = (i: number) => W - (values.length - 1 - i) * step;
  const y = (v: number) => H - (Math.min(Math.max(v, 0), top) / top) * (H - 4) - 2;

  // Split into runs of consecutive known values.
  const runs: { i: number; v: number }[][] = [];
  let run: { i: number; v: number }[] = [];
  values.forEach((v, i) => {
    if (v === null || !Number.isFinite(v)) {
      if (run.length) runs.push(run);
      run = [];
    } else run.push({ i, v });
  });
  if (run.length) runs.push(run);
  // A single known sample is drawn as a flat line rather than an invisible point.
  const flat = finite.length === 1;

  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      preserveAspectRatio="none"
      width="100%"
      height={H}
      role="img"
      aria-label={label}
      className="line-chart"
    >
      <defs>
        <linearGradient id={gradientId} x1="0" x2="0" y1="0" y2="1">
          <stop offset="0%" stopColor={color} stopOpacity={0.28} />
          <stop offset="100%" stopColor={color} stopOpacity={0.02} />
        </linearGradient>
      </defs>
      {[0.25, 0.5, 0.75].map((f) => (
        <line
          key={f}
          x1={0}
          x2={W}
          y1={H * f}
          y2={H * f}
          // The grid follows the theme (a CSS variable works in `style`, not in the attribute).
          style={{ stroke: 'var(--ant-color-border-secondary)' }}
          strokeWidth={1}
          vectorEffect="non-scaling-stroke"
        />
      ))}
      {flat && (
        <line
          x1={0}
          x2={W}
          y1={y(finite[0])}
          y2={y(finite[0])}
          stroke={color}
          strokeWidth={1.6}
          vectorEffect="non-scaling-stroke"
        />
      )}
      {runs.map((r) => {
        const line = r.map((p) => `${x(p.i).toFixed(1)},${y(p.v).toFixed(1)}`).join(' ');
        const area = `M${x(r[0].i).toFixed(1)},${H} L${line.replaceAll(' ', ' L')} L${x(r[r.length - 1].i).toFixed(1)},${H} Z`;
        if (r.length === 1 && !flat) {
          return <circle key={r[0].i} cx={x(r[0].i)} cy={y(r[0].v)} r={1.8} fill={color} />;
        }
        return (
          <g key={r[0].i}>
            <path d={area} fill={`url(#${gradientId})`} stroke="none" />
            <polyline
              points={line}
              fill="none"
              stroke={color}
              strokeWidth={1.6}
              strokeLinejoin="round"
              vectorEffect="non-scaling-stroke"
            />
          </g>
        );
      })}
    </svg>
  );
}
