/**
 * Follows a gemini session's chat file as gemini appends to it: finds it once gemini has made it
 * (chat-file.ts findChatFile), then hands out each complete line written since the last look. A
 * resumed session starts from the file's end, since the lines before it are earlier sessions'.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { findChatFile } from './chat-file.js';

export class ChatFileFollower {
  private file: string | undefined;
  private offset = 0;
  private partial = '';
  // A read can end inside a character gemini is still writing.
  private readonly decoder = new StringDecoder('utf8');

  constructor(
    private readonly geminiDir: string,
    private readonly sessionId: string,
    fromEnd: boolean,
  ) {
    if (!fromEnd) return;
    this.file = findChatFile(geminiDir, sessionId);
    if (this.file === undefined) return;
    try {
      this.offset = statSync(this.file).size;
    } catch {
      this.offset = 0;
    }
  }

  /** The complete lines appended since the last call; none while the file does not exist. */
  newLines(): string[] {
    this.file ??= findChatFile(this.geminiDir, this.sessionId);
    if (this.file === undefined) return [];
    let text = '';
    try {
      const fd = openSync(this.file, 'r');
      try {
        const size = statSync(this.file).size;
        if (size <= this.offset) return [];
        const buffer = Buffer.alloc(size - this.offset);
        const read = readSync(fd, buffer, 0, buffer.length, this.offset);
        this.offset += read;
        text = this.decoder.write(buffer.subarray(0, read));
      } finally {
        closeSync(fd);
      }
    } catch {
      return [];
    }
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    return lines.filter((line) => line.trim() !== '');
  }
}
