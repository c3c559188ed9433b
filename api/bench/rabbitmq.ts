import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as amqp from 'amqplib';
import { freePort } from '../src/db/embedded.js';
import { processCpuSeconds, processPeakRss } from './broker.js';

/**
 * A RabbitMQ node of the run's own, the reference MiniQueue's streams are read against: Debian's
 * `rabbitmq-server` package if it is installed (the bench installs nothing), started from its
 * scripts with its data, logs, cookie and config in a fresh temp dir, listening on 127.0.0.1 only,
 * on ports of its own (AMQP, distribution, and an epmd the bench starts and ends itself), so a
 * system node or another run's node is never touched. As root it runs as the `rabbitmq` user.
 * It is stopped with `rabbitmqctl stop`, and killed if that fails; the temp dir is deleted.
 */
export const RABBITMQ_SERVER = '/usr/lib/rabbitmq/bin/rabbitmq-server';
const RABBITMQ_CTL = '/usr/lib/rabbitmq/bin/rabbitmqctl';

export interface RabbitNode {
  url: string;
  version: string;
  /** The Erlang VM (beam.smp) of the node. */
  pid: number;
  cpuSeconds(): number;
  peakRss(): number | null;
  stop(): Promise<void>;
}

export function rabbitInstalled(): boolean {
  return existsSync(RABBITMQ_SERVER);
}

function userIds(name: string): { uid: number; gid: number } | null {
  try {
    return {
      uid: Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim()),
      gid: Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim()),
    };
  } catch {
    return null;
  }
}

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function startRabbit(log: (line: string) => void): Promise<RabbitNode> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'miniqueue-bench-rabbitmq-'));
  const owner = process.getuid?.() === 0 ? userIds('rabbitmq') : null;
  const [amqpPort, distPort, epmdPort] = [await freePort(), await freePort(), await freePort()];
  const nodeName = `bench${process.pid}@localhost`;
  await mkdir(path.join(dir, 'mnesia'));
  await mkdir(path.join(dir, 'log'));
  await writeFile(
    path.join(dir, 'rabbitmq.conf'),
    [`listeners.tcp.default = 127.0.0.1:${amqpPort}`, 'log.console = false', 'log.file.level = warning', ''].join('\n'),
  );
  await writeFile(path.join(dir, 'enabled_plugins'), '[].\n');
  await writeFile(path.join(dir, 'rabbitmq-env.conf'), '');
  if (owner) {
    await chmod(dir, 0o755);
    for (const entry of ['', 'mnesia', 'log', 'rabbitmq.conf', 'enabled_plugins', 'rabbitmq-env.conf']) {
      await chown(path.join(dir, entry), owner.uid, owner.gid);
    }
  }
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    LANG: 'C.UTF-8',
    HOME: dir, // the Erlang cookie is made here, for this node and its rabbitmqctl only
    RABBITMQ_NODENAME: nodeName,
    RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
    RABBITMQ_NODE_PORT: String(amqpPort),
    RABBITMQ_DIST_PORT: String(distPort),
    RABBITMQ_MNESIA_BASE: path.join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: path.join(dir, 'log'),
    RABBITMQ_PID_FILE: path.join(dir, 'rabbit.pid'),
    RABBITMQ_CONFIG_FILE: path.join(dir, 'rabbitmq.conf'),
    RABBITMQ_ENABLED_PLUGINS_FILE: path.join(dir, 'enabled_plugins'),
    RABBITMQ_CONF_ENV_FILE: path.join(dir, 'rabbitmq-env.conf'),
    RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS: '-kernel inet_dist_use_interface {127,0,0,1}',
    ERL_EPMD_ADDRESS: '127.0.0.1',
    ERL_EPMD_PORT: String(epmdPort),
  };
  const as = owner ? { uid: owner.uid, gid: owner.gid } : {};
  const tail: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) tail.push(line);
    if (tail.length > 40) tail.splice(0, tail.length - 40);
  };

  // Our own epmd, in the foreground, so we know its pid and end it ourselves.
  const epmd = spawn('epmd', ['-address', '127.0.0.1', '-port', String(epmdPort)], { env, ...as, stdio: ['ignore', 'pipe', 'pipe'] });
  epmd.stdout!.on('data', keep);
  epmd.stderr!.on('data', keep);
  epmd.once('error', (error) => keep(Buffer.from(`epmd: ${String(error)}`)));
  const server = spawn(RABBITMQ_SERVER, [], { cwd: dir, env, ...as, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout!.on('data', keep);
  server.stderr!.on('data', keep);
  let beamPid: number | null = null;
  const url = `amqp://guest:guest@127.0.0.1:${amqpPort}`;

  // Never leave a node behind, even if this process dies before stop() runs.
  const killAll = () => {
    if (beamPid !== null && alive(beamPid)) process.kill(beamPid, 'SIGKILL');
    if (server.exitCode === null) server.kill('SIGKILL');
    if (epmd.exitCode === null) epmd.kill('SIGKILL');
  };
  process.once('exit', killAll);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    try {
      if (server.exitCode === null) {
        const ctl = spawn(RABBITMQ_CTL, ['-n', nodeName, 'stop'], { cwd: dir, env, ...as, stdio: ['ignore', 'pipe', 'pipe'] });
        ctl.stdout!.on('data', keep);
        ctl.stderr!.on('data', keep);
        ctl.once('error', () => undefined);
        const ctlDone = await waitExit(ctl, 30_000);
        if (!ctlDone) ctl.kill('SIGKILL');
        if (!(await waitExit(server, 30_000))) log('rabbitmq: the node did not stop within 30 s; killing it');
      }
      for (let i = 0; beamPid !== null && alive(beamPid) && i < 50; i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      killAll();
      await waitExit(epmd, 5_000);
      process.off('exit', killAll);
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  };

  try {
    const deadline = Date.now() + 90_000;
    let version = 'unknown';
    for (;;) {
      if (server.exitCode !== null) throw new Error(`rabbitmq-server exited with ${server.exitCode} while starting:\n${tail.join('\n')}`);
      if (Date.now() > deadline) throw new Error(`RabbitMQ did not accept AMQP connections within 90 s:\n${tail.join('\n')}`);
      try {
        const connection = await amqp.connect(url);
        version = String(connection.connection.serverProperties.version ?? 'unknown');
        await connection.close();
        break;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    }
    beamPid = Number((await readFile(path.join(dir, 'rabbit.pid'), 'utf8')).trim()) || null;
    if (beamPid === null) throw new Error('RabbitMQ wrote no pid file');
    log(`rabbitmq ${version} pid ${beamPid} on 127.0.0.1:${amqpPort} (epmd ${epmdPort}, data in ${dir})`);
    const pid = beamPid;
    return { url, version, pid, cpuSeconds: () => processCpuSeconds(pid), peakRss: () => processPeakRss(pid), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
