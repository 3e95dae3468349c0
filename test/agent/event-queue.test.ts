import { describe, expect, it } from 'vitest';
import { EventQueue } from '../../src/agent/event-queue.js';

describe('EventQueue', () => {
  it('hands items over in order and ends', async () => {
    const queue = new EventQueue<number>();
    queue.push(1);
    queue.push(2);
    queue.end();
    const got: number[] = [];
    for await (const n of queue.iterate()) got.push(n);
    expect(got).toEqual([1, 2]);
  });

  it('makes the producer wait while the consumer is behind, and lets it go on', async () => {
    const queue = new EventQueue<number>();
    const items = queue.iterate();
    for (let i = 0; i < 1_000; i++) queue.push(i);
    const room = queue.room();
    expect(room).toBeInstanceOf(Promise);
    let released = false;
    void room?.then(() => (released = true));
    for (let i = 0; i < 400; i++) await items.next();
    await Promise.resolve();
    expect(released).toBe(false);
    for (let i = 0; i < 200; i++) await items.next();
    await room;
    expect(released).toBe(true);
  });

  it('stops making the producer wait when told to (the process has exited)', async () => {
    const queue = new EventQueue<number>();
    queue.iterate();
    for (let i = 0; i < 1_000; i++) queue.push(i);
    const room = queue.room();
    queue.stopBackpressure();
    await room;
    expect(queue.room()).toBeUndefined();
  });

  it('without a consumer keeps only the newest items', async () => {
    const queue = new EventQueue<number>();
    for (let i = 0; i < 10_050; i++) queue.push(i);
    expect(queue.room()).toBeUndefined();
    queue.end();
    const first = await queue.iterate().next();
    expect(first.value).toBe(50);
    expect(queue.dropped).toBe(50);
  });

  it('raises a failure after the items, and can be iterated only once', async () => {
    const queue = new EventQueue<number>();
    queue.push(7);
    queue.end({ error: new Error('could not start') });
    const items = queue.iterate();
    expect(await items.next()).toEqual({ value: 7, done: false });
    await expect(items.next()).rejects.toThrow('could not start');
    expect(() => queue.iterate()).toThrow(/only once/);
  });

  it('a consumer that breaks out lets the producer go on and drops what follows', async () => {
    const queue = new EventQueue<number>();
    const items = queue.iterate();
    for (let i = 0; i < 1_000; i++) queue.push(i);
    const room = queue.room();
    await items.return?.();
    await room;
    queue.push(1);
    expect(queue.room()).toBeUndefined();
  });
});
