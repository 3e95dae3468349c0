/**
 * Splits a byte stream into lines as it arrives, in batches (one per chunk read), so a caller can
 * handle a whole batch synchronously. Lines may be of any length: a partial line is kept as the
 * chunks it spans and decoded once complete (a newline byte never occurs inside a multi-byte UTF-8
 * character, so decoding line by line is exact). Memory is bounded by the longest line, not by
 * the stream.
 */
export async function* readLineBatches(stream: AsyncIterable<Buffer | string>): AsyncGenerator<string[]> {
  let partial: Buffer[] = [];
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    const lines: string[] = [];
    let start = 0;
    for (let newline = bytes.indexOf(10); newline !== -1; newline = bytes.indexOf(10, start)) {
      if (partial.length > 0) {
        partial.push(bytes.subarray(start, newline));
        lines.push(withoutCr(Buffer.concat(partial).toString('utf8')));
        partial = [];
      } else {
        lines.push(withoutCr(bytes.toString('utf8', start, newline)));
      }
      start = newline + 1;
    }
    if (start < bytes.length) partial.push(bytes.subarray(start));
    if (lines.length > 0) yield lines;
  }
  if (partial.length > 0) yield [withoutCr(Buffer.concat(partial).toString('utf8'))];
}

function withoutCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
