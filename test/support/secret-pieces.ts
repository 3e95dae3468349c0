/**
 * "No piece of any secret": a secret that a cut or a stream split in two leaves partly shown is
 * still leaked. A text is searched for every run of PIECE_CHARS characters of every secret of the
 * corpus, by sliding over the text once (a set lookup per position), so that a megabyte of logs
 * is searched for thousands of pieces in well under a second.
 */
import type { SecretForm } from '../fixtures/secrets/corpus.js';

/** Long enough not to be met by chance in random text; shorter secrets are searched whole. */
export const PIECE_CHARS = 10;

export interface SecretPieces {
  /** Each piece, with the form it comes from. */
  readonly owner: ReadonlyMap<string, string>;
  /** Lengths to look for: PIECE_CHARS, and the lengths of shorter secrets. */
  readonly lengths: readonly number[];
}

export function secretPieces(forms: readonly SecretForm[]): SecretPieces {
  const owner = new Map<string, string>();
  for (const form of forms) {
    for (const secret of form.secrets) {
      if (secret.length <= PIECE_CHARS) owner.set(secret, form.name);
      else for (let at = 0; at + PIECE_CHARS <= secret.length; at += 1) owner.set(secret.slice(at, at + PIECE_CHARS), form.name);
    }
  }
  return { owner, lengths: [...new Set([...owner.keys()].map((piece) => piece.length))] };
}

/** The pieces found in `text`, each as `form name: "piece" at offset` (one per form), with the text around it. */
export function piecesFound(text: string, pieces: SecretPieces): string[] {
  const found = new Map<string, string>();
  for (const length of pieces.lengths) {
    for (let at = 0; at + length <= text.length; at += 1) {
      const form = pieces.owner.get(text.slice(at, at + length));
      if (form !== undefined && !found.has(form)) found.set(form, `${form}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + length + 20))}`);
    }
  }
  return [...found.values()];
}
