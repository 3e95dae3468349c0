/**
 * Which API call the session's consumer is at: the calls whose usage it has been handed, through
 * `events()` or while it handles one in `onEvent`. A stop is decided by the consumer from the
 * usage it saw, while the reader may have read further; the stop counts from the consumer's call
 * (codex and gemini sessions: "no tool after the crossing call").
 */
import type { AgentEvent } from './agent-events.js';
import type { EventQueue } from './event-queue.js';

export class ConsumerCalls {
  private calls: number | undefined;

  /** The consumer's call, or `read` (the calls the stream has read) when nothing consumes. */
  at(read: number): number {
    return this.calls ?? read;
  }

  /** The queue's events for the session's one consumer, counting the usage events it is handed. */
  iterate(queue: EventQueue<AgentEvent>): AsyncIterable<AgentEvent> {
    const items = queue.iterate();
    this.calls = 0;
    const delivered = (event: AgentEvent) => {
      if (event.type === 'usage') this.calls = (this.calls ?? 0) + 1;
    };
    return {
      [Symbol.asyncIterator]: () => ({
        async next(): Promise<IteratorResult<AgentEvent>> {
          const item = await items.next();
          if (item.done === true) return { value: undefined, done: true };
          delivered(item.value);
          return { value: item.value, done: false };
        },
        async return(): Promise<IteratorResult<AgentEvent>> {
          await items.return?.();
          return { value: undefined, done: true };
        },
      }),
    };
  }

  /** Runs the onEvent callback as a consumer at call `read` (it sees each event as it is read). */
  handling(read: number, callback: () => void): void {
    const before = this.calls;
    this.calls = read;
    try {
      callback();
    } finally {
      this.calls = before;
    }
  }
}
