import { readdirSync, readFileSync } from 'node:fs';
import { clockTicksPerSecond } from './broker.js';

/**
 * How much of the machine something other than this run used during a workload. On a shared
 * 2-core machine, a test suite started by someone else halves every figure; this says which rows
 * it touched. "This run" is this process and all its descendants: the brokers, the embedded
 * PostgreSQL and its backends (a server given by BENCH_DATABASE_URL counts as "other").
 * Linux only (/proc); elsewhere it reports nothing.
 */
export interface CpuSnapshot {
  /** Busy CPU seconds of the whole machine (all cores). */
  machine: number;
  /** CPU seconds used by this process tree, including children that already exited. */
  ours: number;
  at: number;
}

interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime + cutime + cstime, in ticks: a reaped child's time lives on in its parent's. */
  ticks: number;
}

function readProc(pid: string): ProcStat | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the name: state(0) ppid(1) ... utime(11) stime(12) cutime(13) cstime(14)
    return { pid: Number(pid), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]) };
  } catch {
    return null; // exited while we looked
  }
}

function machineBusySeconds(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
  // cpu user nice system idle iowait irq softirq steal ...
  const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  return (user + nice + system + irq + softirq + (steal ?? 0)) / clockTicksPerSecond();
}

export function cpuSnapshot(): CpuSnapshot | null {
  try {
    const processes = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(readProc)
      .filter((p): p is ProcStat => p !== null);
    const children = new Map<number, ProcStat[]>();
    for (const p of processes) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
    let ticks = 0;
    const self = processes.find((p) => p.pid === process.pid);
    const stack = self ? [self] : [];
    while (stack.length) {
      const p = stack.pop()!;
      ticks += p.ticks;
      stack.push(...(children.get(p.pid) ?? []));
    }
    return { machine: machineBusySeconds(), ours: ticks / clockTicksPerSecond(), at: Date.now() };
  } catch {
    return null;
  }
}

/** Mean number of cores busy with other work between two snapshots. */
export function otherCores(before: CpuSnapshot | null, after: CpuSnapshot | null): number | null {
  if (!before || !after || after.at <= before.at) return null;
  const other = after.machine - before.machine - (after.ours - before.ours);
  return Math.max(0, other) / ((after.at - before.at) / 1000);
}
