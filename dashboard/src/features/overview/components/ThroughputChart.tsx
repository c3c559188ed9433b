import { useEffect, useState } from 'react';
import { recentRate } from '../../live/api/throughput';
import { useMonitor } from '../../live/components/MonitorProvider';

const WIDTH = 600;
const HEIGHT = 160;

/** A polyline through one value per second, scaled to the chart. */
export function linePoints(values: number[], max: number, width = WIDTH, height = HEIGHT): string {
  if (values.length === 0) return '';
  const step = values.length > 1 ? width / (values.length - 1) : width;
  return values.map((value, index) => `${(index * step).toFixed(1)},${(height - (value / max) * height).toFixed(1)}`).join(' ');
}

/** A round ceiling for the y axis, so its label reads well (1, 2, 5, 10, 20, 50…). */
export function niceMax(value: number): number {
  if (value <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= value) ?? 10 * magnitude;
}

const rate = (value: number) => (value >= 10 ? value.toFixed(0) : value.toFixed(1));

export function ThroughputChart({ windowSeconds = 300 }: { windowSeconds?: number }) {
  const { throughput, status } = useMonitor();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);

  const series = throughput.series(now);
  const published = series.published.slice(-windowSeconds);
  const acked = series.acked.slice(-windowSeconds);
  const max = niceMax(Math.max(...published, ...acked));
  const publishedRate = recentRate(published);
  const ackedRate = recentRate(acked);
  const summary = `Over the last 10 seconds: ${rate(publishedRate)} published and ${rate(ackedRate)} acked per second.`;

  return (
    <figure>
      <div className="mb-3 flex flex-wrap gap-x-6 gap-y-1 text-sm">
        <Legend colour="bg-indigo-500" label="Published" value={`${rate(publishedRate)}/s`} />
        <Legend colour="bg-emerald-500" label="Acked" value={`${rate(ackedRate)}/s`} />
      </div>
      <div className="relative">
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" className="h-40 w-full overflow-visible" role="img" aria-label={summary}>
          {[0.25, 0.5, 0.75].map((fraction) => (
            <line key={fraction} x1={0} x2={WIDTH} y1={HEIGHT * fraction} y2={HEIGHT * fraction} className="stroke-slate-100" strokeWidth={1} vectorEffect="non-scaling-stroke" />
          ))}
          <line x1={0} x2={WIDTH} y1={HEIGHT} y2={HEIGHT} className="stroke-slate-300" strokeWidth={1} vectorEffect="non-scaling-stroke" />
          <polyline points={linePoints(published, max)} fill="none" className="stroke-indigo-500" strokeWidth={2} vectorEffect="non-scaling-stroke" strokeLinejoin="round" />
          <polyline points={linePoints(acked, max)} fill="none" className="stroke-emerald-500" strokeWidth={2} vectorEffect="non-scaling-stroke" strokeLinejoin="round" />
        </svg>
        <span className="absolute left-1 top-0 text-xs text-slate-400">{max}/s</span>
      </div>
      <div className="mt-1 flex justify-between text-xs text-slate-500" aria-hidden>
        <span>{Math.round(windowSeconds / 60)} min ago</span>
        <span>now</span>
      </div>
      <figcaption className="mt-1 text-xs text-slate-500">
        {status === 'open' ? 'Messages per second, counted from the live feed since this page was opened.' : 'Waiting for the live feed…'}
      </figcaption>
    </figure>
  );
}

function Legend({ colour, label, value }: { colour: string; label: string; value: string }) {
  return (
    <span className="inline-flex items-center gap-2 text-slate-600">
      <span className={`h-1 w-4 rounded-full ${colour}`} aria-hidden />
      {label}
      <strong className="font-semibold tabular-nums text-slate-900">{value}</strong>
    </span>
  );
}
