/**
 * Lets the live view see what else is written to the terminal (stderr: a signal message, a Node
 * warning), so it can lift the status area out of the way first and put it back after. Without
 * this, one stray line leaves a half-erased copy of the area on the screen.
 */

export interface InterceptableStream {
  write: (...args: never[]) => boolean;
}

type WriteCallback = (error?: Error | null) => void;

/**
 * Replaces `stream.write` until the returned function is called. `onWrite` gets the text and a
 * function that writes through to the real stream.
 */
export function interceptWrites(stream: InterceptableStream, onWrite: (text: string, passThrough: (text: string) => void) => void): () => void {
  const original = stream.write;
  const passThrough = (text: string) => void (original as (text: string) => boolean).call(stream, text);
  const replacement = (chunk: unknown, encoding?: unknown, callback?: unknown): boolean => {
    const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : String(chunk);
    onWrite(text, passThrough);
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') queueMicrotask(() => (done as WriteCallback)(null));
    return true;
  };
  stream.write = replacement;
  return () => {
    if (stream.write === (replacement as unknown)) stream.write = original;
  };
}
