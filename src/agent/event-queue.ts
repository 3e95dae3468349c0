/**
 * A single-consumer async queue between the stream reader and `AgentSession.events()`. While a
 * consumer iterates, the reader waits for room (backpressure: claude's stdout is not read faster
 * than events are handled). Before anyone iterates, events are kept up to a cap, oldest dropped,
 * so a caller that only uses `onEvent`/`ended` never makes the session grow in memory.
 */
import { AgentProcessError } from '../errors/index.js';

const HIGH_WATER = 1_000;
const UNCONSUMED_CAP = 10_000;

export class EventQueue<T> {
  private items: T[] = [];
  private head = 0;
  private finished = false;
  private failure: { error: unknown } | undefined;
  private attached = false;
  private detached = false;
  private wakeConsumer: (() => void) | undefined;
  private wakeProducer: (() => void) | undefined;
  private flowing = false;
  /** Events dropped because nobody consumed them. */
  dropped = 0;

  private get size(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    if (this.finished || this.detached) return;
    this.items.push(item);
    if (!this.attached && this.size > UNCONSUMED_CAP) {
      this.head += 1;
      this.dropped += 1;
    }
    this.compact();
    this.wake();
  }

  /** Resolves when the consumer has caught up enough (immediately without a consumer). */
  room(): Promise<void> | undefined {
    if (!this.attached || this.detached || this.flowing || this.size < HIGH_WATER) return undefined;
    return new Promise((resolve) => {
      this.wakeProducer = resolve;
    });
  }

  /**
   * No more waiting for the consumer: the process has exited, what is left in its pipe is small,
   * and a consumer that stopped pulling must not keep the session from ending.
   */
  stopBackpressure(): void {
    this.flowing = true;
    this.releaseProducer();
  }

  end(error?: { error: unknown }): void {
    if (this.finished) return;
    this.finished = true;
    this.failure = error;
    this.wake();
  }

  iterate(): AsyncIterableIterator<T> {
    if (this.attached) throw new AgentProcessError('E_AGENT_EVENTS_TAKEN', 'The events of an agent session can be iterated only once.');
    this.attached = true;
    const next = async (): Promise<IteratorResult<T>> => {
      for (;;) {
        if (this.size > 0) {
          const value = this.items[this.head] as T;
          this.head += 1;
          this.compact();
          if (this.size < HIGH_WATER / 2) this.releaseProducer();
          return { value, done: false };
        }
        if (this.failure !== undefined) {
          const { error } = this.failure;
          this.failure = undefined;
          throw error;
        }
        if (this.finished) return { value: undefined, done: true };
        await new Promise<void>((resolve) => {
          this.wakeConsumer = resolve;
        });
      }
    };
    const stop = (): Promise<IteratorResult<T>> => {
      this.detached = true;
      this.items = [];
      this.head = 0;
      this.releaseProducer();
      return Promise.resolve({ value: undefined, done: true });
    };
    return {
      next,
      return: stop,
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  private compact(): void {
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }

  private wake(): void {
    const wake = this.wakeConsumer;
    this.wakeConsumer = undefined;
    wake?.();
  }

  private releaseProducer(): void {
    const wake = this.wakeProducer;
    this.wakeProducer = undefined;
    wake?.();
  }
}
