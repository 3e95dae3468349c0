/**
 * Where a family of secrets may start in a text, as the redactor's candidate scan (candidates.ts)
 * looks for it: at one of `characters`, with the text up to it (the character included) matching
 * `before` and the text after it matching `after`. The scan tests one of the two (`scan`, by
 * default `before` when there is one: a lookahead inside a lookbehind, or many mixed alternatives,
 * make V8's scan several times slower), the family's own test at a hit both.
 */
export interface TriggerSpec {
  characters: string;
  before?: string;
  after?: string;
  scan?: 'before' | 'after' | 'both';
}
