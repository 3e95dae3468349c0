/** The `code` of a Node.js system error ('ENOENT', 'EEXIST', ...); undefined for any other value. */
export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
