/**
 * Enough of GitHub Actions' expression language to run the workflows debussy generates: contexts
 * read by dotted paths, string literals, `!`, `==`, `!=`, `&&`, `||` (which, as in Actions, yield
 * an operand, not a boolean: `inputs.x || github.ref_name`), parentheses, and the status functions.
 * Anything else throws, so a workflow that starts using more fails its test instead of passing
 * on a misreading. Test support, not shipped.
 */

export type ExpressionValue = string | number | boolean | null | { [key: string]: ExpressionValue };

export interface ExpressionContext {
  contexts: Record<string, ExpressionValue>;
  /** What `success()`, `failure()`, `always()` and `cancelled()` return where the expression is read. */
  status: { success: boolean; failure: boolean };
}

type Token = { kind: 'string'; value: string } | { kind: 'word'; value: string } | { kind: 'op'; value: string };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const rest = text.slice(at);
    const space = /^\s+/.exec(rest);
    if (space) {
      at += space[0].length;
      continue;
    }
    const literal = /^'((?:[^']|'')*)'/.exec(rest);
    if (literal) {
      tokens.push({ kind: 'string', value: (literal[1] ?? '').replace(/''/g, "'") });
      at += literal[0].length;
      continue;
    }
    const op = /^(==|!=|&&|\|\||!|\(|\))/.exec(rest);
    if (op) {
      tokens.push({ kind: 'op', value: op[0] });
      at += op[0].length;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_.-]*/.exec(rest);
    if (word) {
      tokens.push({ kind: 'word', value: word[0] });
      at += word[0].length;
      continue;
    }
    throw new Error(`expression not supported by the local runner: ${text}`);
  }
  return tokens;
}

/** A value as Actions shows it in a string or compares it: objects as JSON. */
function asText(value: ExpressionValue): string {
  if (value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export function truthy(value: ExpressionValue): boolean {
  return !(value === '' || value === null || value === false || value === 0);
}

function lookup(path: string, context: ExpressionContext): ExpressionValue {
  if (path === 'true') return true;
  if (path === 'false') return false;
  if (path === 'null') return null;
  let value: ExpressionValue = context.contexts;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return null;
    value = value[part] ?? null;
  }
  return value;
}

function callStatus(name: string, context: ExpressionContext): boolean {
  switch (name) {
    case 'always':
      return true;
    case 'success':
      return context.status.success;
    case 'failure':
      return context.status.failure;
    case 'cancelled':
      return false;
    default:
      throw new Error(`function not supported by the local runner: ${name}()`);
  }
}

export function evaluate(text: string, context: ExpressionContext): ExpressionValue {
  const tokens = tokenize(text);
  let at = 0;
  const peek = (): Token | undefined => tokens[at];
  const take = (): Token => {
    const token = tokens[at++];
    if (token === undefined) throw new Error(`unexpected end of expression: ${text}`);
    return token;
  };
  const primary = (): ExpressionValue => {
    const token = take();
    if (token.kind === 'string') return token.value;
    if (token.kind === 'op' && token.value === '(') {
      const value = or();
      if (take().value !== ')') throw new Error(`missing ) in ${text}`);
      return value;
    }
    if (token.kind === 'op' && token.value === '!') return !truthy(primary());
    if (token.kind === 'word') {
      if (peek()?.value === '(') {
        take();
        if (take().value !== ')') throw new Error(`arguments are not supported: ${text}`);
        return callStatus(token.value, context);
      }
      return lookup(token.value, context);
    }
    throw new Error(`unexpected ${token.value} in ${text}`);
  };
  const comparison = (): ExpressionValue => {
    const left = primary();
    const op = peek();
    if (op?.value !== '==' && op?.value !== '!=') return left;
    take();
    const equal = asText(left) === asText(primary());
    return op.value === '==' ? equal : !equal;
  };
  const and = (): ExpressionValue => {
    let value = comparison();
    while (peek()?.value === '&&') {
      take();
      const right = comparison();
      value = truthy(value) ? right : value;
    }
    return value;
  };
  const or = (): ExpressionValue => {
    let value = and();
    while (peek()?.value === '||') {
      take();
      const right = and();
      value = truthy(value) ? value : right;
    }
    return value;
  };
  const value = or();
  if (at !== tokens.length) throw new Error(`unexpected ${tokens[at]?.value ?? ''} in ${text}`);
  return value;
}

/** A string with each `${{ expr }}` replaced by its value. */
export function interpolate(text: string, context: ExpressionContext): string {
  return text.replace(/\$\{\{(.*?)\}\}/g, (_, expression: string) => {
    return asText(evaluate(expression, context));
  });
}

/** An `if:` condition: an expression with or without `${{ }}`; none means success(). */
export function condition(text: string | undefined, context: ExpressionContext): boolean {
  if (text === undefined) return context.status.success;
  const bare = /^\s*\$\{\{(.*)\}\}\s*$/.exec(text)?.[1] ?? text;
  return truthy(evaluate(bare, context));
}
