import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { Rotations } from '../../src/realtime/rotations.js';
import { monitorEventsOf, monitorEventsOfTopology } from '../../src/realtime/monitorEvents.js';
import { MonitorFeed } from '../../src/realtime/monitorFeed.js';

const sockets = (turns: { socket: string }[]) => turns.map((turn) => turn.socket);

describe('Rotations', () => {
  it('takes turns over the sockets of a queue in joining order, across instances', () => {
    const rotations = new Rotations();
    rotations.add('s1', 'q', 'A');
    rotations.add('s2', 'q', 'B');
    rotations.add('s3', 'q', 'A');
    rotations.add('other', 'r', 'B');
    expect(rotations.take('q', 7)).toEqual([
      { socket: 's1', instance: 'A' },
      { socket: 's2', instance: 'B' },
      { socket: 's3', instance: 'A' },
      { socket: 's1', instance: 'A' },
      { socket: 's2', instance: 'B' },
      { socket: 's3', instance: 'A' },
      { socket: 's1', instance: 'A' },
    ]);
    expect(rotations.take('nobody', 3)).toEqual([]);
  });

  it('keeps the turn when a socket leaves, before or after the one that is next', () => {
    const rotations = new Rotations();
    for (const socket of ['s1', 's2', 's3', 's4']) rotations.add(socket, 'q', 'A');
    expect(sockets(rotations.take('q', 2))).toEqual(['s1', 's2']); // s3 is next
    rotations.remove('s1');
    expect(sockets(rotations.take('q', 1))).toEqual(['s3']);
    rotations.remove('s3'); // the one just served; s4 stays next
    expect(sockets(rotations.take('q', 3))).toEqual(['s4', 's2', 's4']);
    rotations.remove('s2');
    rotations.remove('s4');
    expect(rotations.take('q', 1)).toEqual([]);
    rotations.add('s5', 'q', 'B');
    rotations.add('s5', 'q', 'B'); // once only
    expect(sockets(rotations.take('q', 2))).toEqual(['s5', 's5']);
  });

  it('passes over a socket that stopped reading while another reads, and gives it its turn back when it reads again', () => {
    const rotations = new Rotations();
    for (const socket of ['s1', 's2', 's3']) rotations.add(socket, 'q', socket === 's2' ? 'B' : 'A');
    rotations.setReading('s2', false);
    rotations.setReading('gone', false); // not in any rotation: nothing changes
    expect(sockets(rotations.take('q', 4))).toEqual(['s1', 's3', 's1', 's3']);
    expect(sockets(rotations.take('q', 2, 'readers only'))).toEqual(['s1', 's3']);

    rotations.setReading('s1', false);
    rotations.setReading('s3', false);
    // None reads: fresh news takes the plain turn, news handed back by a stalled socket goes nowhere.
    expect(sockets(rotations.take('q', 3))).toEqual(['s1', 's2', 's3']);
    expect(rotations.take('q', 2, 'readers only')).toEqual([]);

    rotations.setReading('s2', true);
    expect(sockets(rotations.take('q', 2, 'readers only'))).toEqual(['s2', 's2']);
    rotations.remove('s2');
    rotations.add('s2', 'q', 'B'); // joined again: reading, whatever was said of it before
    rotations.setReading('s1', true);
    expect(sockets(rotations.take('q', 4)).sort()).toEqual(['s1', 's1', 's2', 's2']); // s3 still passed over
  });
});

describe('monitor events', () => {
  const at = '2026-11-29T10:00:00.000Z';
  it('maps transitions to the contract types, a dead nack as NACKED then DEAD', () => {
    const types = (event: string) => monitorEventsOf({ event, queue: 'q', count: 1, ids: ['m1'] }, at).map((e) => e.eventType);
    expect(types('NACKED_DEAD')).toEqual(['NACKED', 'DEAD']);
    expect(types('EXPIRED_DEAD')).toEqual(['DEAD']);
    expect(types('REDELIVERED')).toEqual(['REDELIVERED']);
    expect(types('SOMETHING_ELSE')).toEqual([]);
    expect(monitorEventsOf({ event: 'PUBLISHED', queue: 'q', count: 2, ids: ['m1', 'm2'] }, at)).toEqual([
      { eventType: 'PUBLISHED', queueName: 'q', detail: 'Message m1 published to q', count: 1, timestamp: at },
      { eventType: 'PUBLISHED', queueName: 'q', detail: 'Message m2 published to q', count: 1, timestamp: at },
    ]);
  });

  it('announces created topics and queues, not deleted ones', () => {
    expect(monitorEventsOfTopology({ kind: 'queue', op: 'INSERT', name: 'q' }, at)).toEqual([
      { eventType: 'CREATED', queueName: 'q', detail: 'Queue q created', count: 1, timestamp: at },
    ]);
    expect(monitorEventsOfTopology({ kind: 'topic', op: 'DELETE', name: 't' }, at)).toEqual([]);
  });
});

describe('MonitorFeed', () => {
  const fakeSocket = () => {
    const sent: string[] = [];
    return { sent, socket: { readyState: WebSocket.OPEN, bufferedAmount: 0, send: (frame: string) => sent.push(frame) } };
  };
  const event = { eventType: 'ACKED', queueName: 'q', detail: 'd', count: 1, timestamp: 't' };

  it('stops sending to a backed-up socket, counts what it missed and reports it once it drains', () => {
    const feed = new MonitorFeed({ maxPerSecond: 1_000_000, highWaterBytes: 100 });
    const { sent, socket } = fakeSocket();
    feed.add(socket as unknown as WebSocket);
    feed.publish([event, event]);
    socket.bufferedAmount = 500;
    feed.publish([event, event, event]);
    expect(sent).toHaveLength(2);
    feed.runOnce(Date.now() + 1000); // still backed up: the marker waits too
    expect(sent).toHaveLength(2);
    socket.bufferedAmount = 0;
    feed.runOnce(Date.now() + 2000);
    expect(JSON.parse(sent[2])).toMatchObject({ eventType: 'EVENTS_DROPPED', detail: '3 events dropped', count: 3 });
    feed.publish([event]);
    expect(sent).toHaveLength(4);
  });

  it('holds nothing for a dashboard that has gone', () => {
    const feed = new MonitorFeed();
    const { sent, socket } = fakeSocket();
    feed.add(socket as unknown as WebSocket);
    feed.remove(socket as unknown as WebSocket);
    feed.publish([event]);
    expect(sent).toHaveLength(0);
    expect(feed.size).toBe(0);
  });
});
