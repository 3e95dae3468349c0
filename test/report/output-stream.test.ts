/**
 * An output stream whose reader has gone stops writing, and nothing throws: through a real pipe
 * into a process that has exited (EPIPE), and for a stream whose write throws.
 */
import { spawn } from 'node:child_process';
import { EventEmitter, once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { OutputStream, readerIsGone, type WritableOutput } from '../../src/report/output-stream.js';

describe('OutputStream', () => {
  it('stops writing once a real pipe has no reader (EPIPE), without an error escaping', async () => {
    // A reader that closes its end of the pipe and stays alive, as `head -1` does once it has its line.
    const reader = spawn(process.execPath, ['-e', "require('fs').closeSync(0); console.log('closed'); setTimeout(() => {}, 20000)"], { stdio: ['pipe', 'pipe', 'ignore'] });
    await once(reader.stdout, 'data');
    const pipe = reader.stdin;
    const errors: unknown[] = [];
    pipe.on('error', (error) => errors.push(error));
    const output = new OutputStream(pipe);
    let writes = 0;
    const write = pipe.write.bind(pipe);
    pipe.write = ((...args: Parameters<typeof pipe.write>) => (writes++, write(...args))) as typeof pipe.write;

    const closed = new Promise((resolve) => pipe.on('close', resolve));
    output.write('nobody reads this\n');
    await closed;
    expect(errors.map((error) => (error as NodeJS.ErrnoException).code)).toEqual(['EPIPE']);
    expect(output.readerGone).toBe(true);
    output.write('nor this\n');
    expect(writes).toBe(1);
    reader.kill();
  });

  it('a write that throws EPIPE counts as the reader gone; another error is swallowed but not taken for it', () => {
    const failing = (code: string): WritableOutput =>
      Object.assign(new EventEmitter(), {
        write: () => {
          throw Object.assign(new Error(code), { code });
        },
      });
    const epipe = new OutputStream(failing('EPIPE'));
    expect(() => epipe.write('x')).not.toThrow();
    expect(epipe.readerGone).toBe(true);
    const eio = new OutputStream(failing('EIO'));
    expect(() => eio.write('x')).not.toThrow();
    expect(eio.readerGone).toBe(false);
  });

  it.each([
    [Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }), true],
    [Object.assign(new Error('write EIO'), { code: 'EIO' }), false],
    [new Error('EPIPE'), false],
    ['EPIPE', false],
    [undefined, false],
  ])('readerIsGone(%o) is %s', (error, gone) => {
    expect(readerIsGone(error)).toBe(gone);
  });
});
