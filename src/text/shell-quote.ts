/** Words for sh, written once: hook commands, the signal shim, completion scripts, prompts. */

/** `text` as one sh word: single-quoted, each `'` in it written `'\''`. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

/** `text` as one sh word a person reads: bare when it is only letters, digits and `_ . / -`, else shellQuote'd. */
export function shellWord(text: string): string {
  return /^[\w./-]+$/.test(text) ? text : shellQuote(text);
}
