import os from 'node:os';
import type { LoadResult } from './http.js';

export interface Row {
  scenario: string;
  result: LoadResult;
}

const int = (value: number) => Math.round(value).toLocaleString('en-US');

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)];
}

export function machineFacts(postgresVersion: string): string[] {
  const cpus = os.cpus();
  return [
    `cpu:        ${cpus.length} cores, ${cpus[0]?.model.trim() ?? 'unknown model'}`,
    `memory:     ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `os:         ${os.type()} ${os.release()} (${os.arch()})`,
    `node:       ${process.version}`,
    // Other work on the machine takes cores from the run: the figures mean little without this.
    `load:       ${os.loadavg()[0].toFixed(2)} (1-minute average, at the end of the run)`,
    `postgresql: ${postgresVersion}`,
  ];
}

export function throughputTable(rows: Row[]): string[] {
  const header = ['scenario', 'messages', 'requests', 'seconds', 'msgs/s'];
  const cells = rows.map(({ scenario, result }) => [
    scenario,
    int(result.messages),
    int(result.requests),
    result.seconds.toFixed(2),
    int(result.messages / result.seconds),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((row) => row[column].length)));
  const line = (row: string[]) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ');
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...cells.map(line)];
}

export function latencyLines(label: string, latencies: number[]): string[] {
  const sorted = [...latencies].sort((a, b) => a - b);
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  return [
    `${label} (${sorted.length} samples): p50 ${ms(percentile(sorted, 50))}   p99 ${ms(percentile(sorted, 99))}   max ${ms(sorted[sorted.length - 1])}`,
  ];
}
