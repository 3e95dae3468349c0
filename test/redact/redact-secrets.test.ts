import { describe, expect, it } from 'vitest';
import { createRedactor, cutText, redactArgs, redactDeep, redactSecrets, redactThenCut, secretEnvValues, tailText } from '../../src/redact/index.js';

const NO_ENV = {};

describe('redactSecrets: token formats', () => {
  it.each([
    ['anthropic key', 'key is sk-ant-api03-AbCdEf0123456789_xyz-XYZ end', 'key is [REDACTED] end'],
    ['openai project key', 'OPENAI sk-proj-abcdefghijklmnop1234 here', 'OPENAI [REDACTED] here'],
    ['github token', 'remote https://x.invalid ghp_0123456789abcdefghijABCDEFGHIJ', 'remote https://x.invalid [REDACTED]'],
    ['github fine-grained pat', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnop', '[REDACTED]'],
    ['slack token', 'xoxb-123456789012-abcdefABCDEF', '[REDACTED]'],
    ['aws access key id', 'aws AKIAIOSFODNN7EXAMPLE ok', 'aws [REDACTED] ok'],
    ['google api key', 'AIzaSyA-1234567890abcdefghijklmnopqrstu', '[REDACTED]'],
    ['jwt', 'cookie=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U;', 'cookie=[REDACTED];'],
    ['bearer header', 'Authorization: Bearer abc123def456ghi789', 'Authorization: Bearer [REDACTED]'],
    ['basic header', 'authorization: Basic dXNlcjpwYXNzd29yZA==', 'authorization: Basic [REDACTED]'],
    ['password in a URL', 'cloning https://deploy:hunter2hunter2@git.example.com/repo.git', 'cloning https://deploy:[REDACTED]@git.example.com/repo.git'],
    ['pem private key', 'x\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nabc\n-----END RSA PRIVATE KEY-----\ny', 'x\n[REDACTED]\ny'],
  ])('%s', (_name, input, expected) => {
    expect(redactSecrets(input, NO_ENV)).toBe(expected);
  });
});

describe('redactSecrets: assignments', () => {
  it.each([
    ['password=hunter2', 'password=[REDACTED]'],
    ['DB_PASSWORD: "s3cr3t pass"', 'DB_PASSWORD: "[REDACTED]"'],
    ['{"api_key": "abc123", "user": "bob"}', '{"api_key": "[REDACTED]", "user": "bob"}'],
    ["token: 'xyz987'", "token: '[REDACTED]'"],
    ['client_secret=aaa&scope=read', 'client_secret=[REDACTED]&scope=read'],
    ['export GITHUB_TOKEN=abcdef123', 'export GITHUB_TOKEN=[REDACTED]'],
    ['password: hunter2', 'password: [REDACTED]'],
    ['secret: abcdefghijklmnopqrstuv', 'secret: [REDACTED]'],
    // Prose after a colon is not a value.
    ['The API rejected the credentials: check ANTHROPIC_API_KEY', 'The API rejected the credentials: check ANTHROPIC_API_KEY'],
    ['token: expired', 'token: expired'],
  ])('%s', (input, expected) => {
    expect(redactSecrets(input, NO_ENV)).toBe(expected);
  });

  it.each([
    'input_tokens: 51234, output_tokens: 17',
    'max_tokens=4096',
    'tokens: 1200 of 200000',
    'token_count: 5',
    'Basic authentication is disabled',
    'Bearer tokens are described in RFC 6750',
    'the task-runner and desk-lamp',
    'context at 82.0% of 200,000 tokens',
  ])('leaves ordinary text alone: %s', (text) => {
    expect(redactSecrets(text, NO_ENV)).toBe(text);
  });
});

describe('redactSecrets: where a name starts and ends', () => {
  it.each([
    ['a_b_token=x', 'a_b_token=[REDACTED]'],
    ['token_password=x', 'token_password=[REDACTED]'],
    ['x-token=abc', 'x-token=[REDACTED]'],
    ['a--token=abc', 'a--token=[REDACTED]'],
    ['clientsecret=abc', 'clientsecret=[REDACTED]'],
    ['client-secret=abc; auth_token: "t"', 'client-secret=[REDACTED]; auth_token: "[REDACTED]"'],
    ['PASSWORD = hunter2', 'PASSWORD = [REDACTED]'],
    ['"api_key" : "v"', '"api_key" : "[REDACTED]"'],
    ['access_key =  "a b c"', 'access_key =  "[REDACTED]"'],
    ['secret=x&token=y', 'secret=[REDACTED]&token=[REDACTED]'],
    // A value that ends in a name does not start a second assignment.
    ['token=abc-password =xyz123', 'token=[REDACTED] =xyz123'],
    ['token: sk-ant-api03-abcdefgh123', 'token: [REDACTED]'],
    // An .npmrc line: the npm token format is recognised on its own.
    ['//registry.npmjs.org/:_authToken=npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789', '//registry.npmjs.org/:_authToken=[REDACTED]'],
    // Leading and doubled underscores only separate words (`_authToken`, `_password`), and a
    // keyword glued to a kind of token is a name.
    ['_token=abc', '_token=[REDACTED]'],
    ['a__token=abc', 'a__token=[REDACTED]'],
    ['sessiontoken: abc123456', 'sessiontoken: [REDACTED]'],
    ['//npm.example.com/:_authToken=5e7a1c0d-aaaa-bbbb-cccc-0123456789ab', '//npm.example.com/:_authToken=[REDACTED]'],
  ])('%s', (input, expected) => {
    expect(redactSecrets(input, NO_ENV)).toBe(expected);
  });

  it.each([
    // A keyword glued to a word is not a name, unless the word is a kind of token (below).
    'mytoken=x',
    'nexttoken: abc123456',
    'input_tokens: 512',
    // Already redacted, and nothing after the separator.
    'Token: [REDACTED] password="[REDACTED]"',
    "pwd='",
  ])('leaves alone: %s', (text) => {
    expect(redactSecrets(text, NO_ENV)).toBe(text);
  });
});

describe('redactSecrets: several secrets together', () => {
  it('redacts every family on one line', () => {
    const line = 'password=a1b2c3 token=b2, api_key: "c3" Authorization: Bearer abcdefgh12345678 https://u:p4ssw0rd@h sk-ant-api03-abcdefgh123';
    expect(redactSecrets(line, NO_ENV)).toBe(
      'password=[REDACTED] token=[REDACTED], api_key: "[REDACTED]" Authorization: Bearer [REDACTED] https://u:[REDACTED]@h [REDACTED]',
    );
  });

  it('a PEM block between assignments', () => {
    const text = 'key:\n-----BEGIN EC PRIVATE KEY-----\nMHcC\n-----END EC PRIVATE KEY-----\npassword=x';
    expect(redactSecrets(text, NO_ENV)).toBe('key:\n[REDACTED]\npassword=[REDACTED]');
  });

  it('a URL password that only looks like one once a PEM block inside it is redacted', () => {
    const text = 'https://user:pa-----BEGIN RSA PRIVATE KEY-----\nabc\n-----END RSA PRIVATE KEY-----@host';
    expect(redactSecrets(text, NO_ENV)).toBe('https://user:[REDACTED]@host');
  });

  it('a 1 MB line with one secret near the end', () => {
    const code = 'const value = options.key ?? input_tokens; // see https://example.com/a_b-c\n  if (a == b) { x: 1, y: "z" }\n';
    const filler = code.repeat(Math.ceil(1_000_000 / code.length));
    const text = `${filler}export API_TOKEN=tok_abcdef123456 done\n${code}`;
    const out = redactSecrets(text, NO_ENV);
    expect(out).toBe(`${filler}export API_TOKEN=[REDACTED] done\n${code}`);
  });
});

describe('environment values', () => {
  const env = {
    ANTHROPIC_API_KEY: 'test-key-0123456789',
    MY_SERVICE_TOKEN: 'tok_live_abcdef',
    DEPLOY_SECRET: 'correct horse battery staple',
    ADMIN_PASSWORD: 'pa55word!',
    SHORT_TOKEN: 'abc12',
    HOME: '/root/home-dir',
    EDITOR_KEYMAP: 'vim-bindings',
  };

  it('replaces values of *_KEY / *_TOKEN / *_SECRET / *_PASSWORD variables with their name', () => {
    const redact = createRedactor(env);
    expect(redact('echo test-key-0123456789 > log')).toBe('echo [REDACTED:ANTHROPIC_API_KEY] > log');
    expect(redact('curl -H "x: tok_live_abcdef"')).toBe('curl -H "x: [REDACTED:MY_SERVICE_TOKEN]"');
    expect(redact('phrase correct horse battery staple!')).toBe('phrase [REDACTED:DEPLOY_SECRET]!');
    expect(redact('login pa55word! ok')).toBe('login [REDACTED:ADMIN_PASSWORD] ok');
  });

  it('leaves short values and other variables alone', () => {
    const redact = createRedactor(env);
    expect(redact('abc12 /root/home-dir vim-bindings')).toBe('abc12 /root/home-dir vim-bindings');
    expect(secretEnvValues(env).map(([name]) => name).sort()).toEqual(['ADMIN_PASSWORD', 'ANTHROPIC_API_KEY', 'DEPLOY_SECRET', 'MY_SERVICE_TOKEN']);
  });

  it('an env value that is also a known token format keeps its name', () => {
    const redact = createRedactor({ ANTHROPIC_API_KEY: 'sk-ant-api03-realkeyvalue123456' });
    expect(redact('ANTHROPIC_API_KEY=sk-ant-api03-realkeyvalue123456')).toBe('ANTHROPIC_API_KEY=[REDACTED:ANTHROPIC_API_KEY]');
  });

  it('every occurrence, with regex metacharacters in the value', () => {
    const redact = createRedactor({ WEIRD_SECRET: 'a.b*c(d)[e]$' });
    expect(redact('a.b*c(d)[e]$ and a.b*c(d)[e]$; but not aXbbc')).toBe('[REDACTED:WEIRD_SECRET] and [REDACTED:WEIRD_SECRET]; but not aXbbc');
  });

  it('redactSecrets notices a changed environment object', () => {
    const live: Record<string, string> = { FIRST_TOKEN: 'first-value-1' };
    expect(redactSecrets('first-value-1 second-value-2', live)).toBe('[REDACTED:FIRST_TOKEN] second-value-2');
    live.SECOND_TOKEN = 'second-value-2';
    expect(redactSecrets('first-value-1 second-value-2', live)).toBe('[REDACTED:FIRST_TOKEN] [REDACTED:SECOND_TOKEN]');
  });

  it('defaults to process.env', () => {
    const name = 'DEBUSSY_REDACT_TEST_TOKEN';
    process.env[name] = 'value-from-process-env';
    try {
      expect(redactSecrets('got value-from-process-env')).toBe(`got [REDACTED:${name}]`);
    } finally {
      delete process.env[name];
    }
  });
});

describe('redactDeep', () => {
  it('redacts every string in a nested value and keeps the rest', () => {
    const redact = createRedactor({ API_TOKEN: 'nested-secret-1' });
    const event = { type: 'tool_result', text: 'out: nested-secret-1', list: ['nested-secret-1', 3, null, true], inner: { password: 'x', sessionToken: 'abc', maxTokens: 5, inputTokens: '7', n: 1 } };
    expect(redactDeep(event, redact)).toEqual({
      type: 'tool_result',
      text: 'out: [REDACTED:API_TOKEN]',
      list: ['[REDACTED:API_TOKEN]', 3, null, true],
      inner: { password: '[REDACTED]', sessionToken: '[REDACTED]', maxTokens: 5, inputTokens: '7', n: 1 },
    });
  });

  it('a redactor handles a large log quickly enough to run on every line', () => {
    const redact = createRedactor({ ANTHROPIC_API_KEY: 'sk-ant-zzzzzzzzzzzzzzzz' });
    const line = 'phase 3: tool Bash: npm test -- --reporter=dot (exit 0) sk-ant-zzzzzzzzzzzzzzzz ';
    const text = line.repeat(20_000);
    const out = redact(text);
    expect(out).not.toContain('sk-ant-');
    expect(out.split('[REDACTED:ANTHROPIC_API_KEY]')).toHaveLength(20_001);
  });
});

describe('redactSecrets: URL query values', () => {
  it.each([
    ['ntfy auth', 'https://ntfy.example.com/alerts?auth=QWxhZGRpbjpvcGVu&x=1', 'https://ntfy.example.com/alerts?auth=[REDACTED]&x=1'],
    ['api key', 'GET https://api.example.com/v1/q?key=AbC123xyz&q=cats', 'GET https://api.example.com/v1/q?key=[REDACTED]&q=cats'],
    ['signed url', 'https://b.s3.example.com/f?X-Amz-Date=20260101&X-Amz-Signature=0a1b2c3d4e', 'https://b.s3.example.com/f?X-Amz-Date=20260101&X-Amz-Signature=[REDACTED]'],
    ['sig', 'https://x.example.com/f?sv=2024&sig=abc%2Bdef', 'https://x.example.com/f?sv=2024&sig=[REDACTED]'],
    ['access_token', 'https://x.example.com/cb?access_token=ya29.abc&state=1', 'https://x.example.com/cb?access_token=[REDACTED]&state=1'],
    ['password in the query', 'https://x.example.com/login?user=bob&pass=hunter22', 'https://x.example.com/login?user=bob&[REDACTED]'.replace('[REDACTED]', 'pass=[REDACTED]')],
    ['user:password and a query token', 'https://u:pw0rd123@h.example.com/x?token=t0k3n', 'https://u:[REDACTED]@h.example.com/x?token=[REDACTED]'],
  ])('%s', (_name, input, expected) => {
    expect(redactSecrets(input, NO_ENV)).toBe(expected);
  });

  it.each([
    // Outside a query these names are ordinary words.
    'key=value pairs are read by the parser',
    'const sig = computeSignature(data)',
    'auth=required',
    'for key in dict: pass',
  ])('leaves alone: %s', (text) => {
    expect(redactSecrets(text, NO_ENV)).toBe(text);
  });
});

describe('redactSecrets: quoted values, JSON-escaped or with no end', () => {
  it.each([
    // A raw stream line holds tool output as a JSON string: its quotes are escaped.
    ['escaped quotes', '{"content":"password=\\"hunter2\\" ok"}', '{"content":"password=\\"[REDACTED]\\" ok"}'],
    ['escaped quotes, spaces inside', '{"content":"token: \\"a b c\\""}', '{"content":"token: \\"[REDACTED]\\""}'],
    // A JSON file a tool printed, inside a raw stream line: the name's quotes are escaped too.
    ['escaped JSON name and value', '{"content":"{\\n  \\"db_password\\": \\"hunter2hunter2\\",\\n  \\"api_key\\":\\"abc123def\\"}"}', '{"content":"{\\n  \\"db_password\\": \\"[REDACTED]\\",\\n  \\"api_key\\":\\"[REDACTED]\\"}"}'],
    // A quote cut off (or never closed) runs to the end of the line.
    ['unterminated double quote', 'token="abc def\nnext line', 'token="[REDACTED]\nnext line'],
    ["unterminated single quote", "password='s3cr3t", "password='[REDACTED]"],
  ])('%s', (_name, input, expected) => {
    expect(redactSecrets(input, NO_ENV)).toBe(expected);
  });

  it('a JSON config a tool printed is redacted alike in the raw line and in its parsed text', () => {
    const config = JSON.stringify({ db_password: 'hunter2hunter2', user: 'bob', auth_token: 'tok-0123456789' }, null, 2);
    const line = JSON.stringify({ type: 'user', content: config });
    const redacted = redactSecrets(line, NO_ENV);
    expect(redacted).not.toContain('hunter2');
    expect(redacted).not.toContain('tok-0123');
    expect(JSON.parse(redacted)).toEqual({ type: 'user', content: redactSecrets(config, NO_ENV) });
  });

  it('an escaped value keeps the raw line valid JSON', () => {
    const line = JSON.stringify({ type: 'user', content: 'export DB_PASSWORD="s3cr3t value" && run' });
    const redacted = redactSecrets(line, NO_ENV);
    expect(JSON.parse(redacted)).toEqual({ type: 'user', content: 'export DB_PASSWORD="[REDACTED]" && run' });
  });
});

describe('redactSecrets: a private key cut short', () => {
  const body = ['MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun', 'VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK', 'LxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo'];
  it('whose end is missing (`head key.pem`): redacted to the end of the text', () => {
    const text = `$ head -3 id_rsa\n-----BEGIN RSA PRIVATE KEY-----\n${body.slice(0, 2).join('\n')}`;
    expect(redactSecrets(text, NO_ENV)).toBe('$ head -3 id_rsa\n[REDACTED]');
  });

  it('whose start is missing (a tail of the output): its base64 lines and the END line', () => {
    const text = `output ends:\n${body.join('\n')}\n-----END RSA PRIVATE KEY-----\ndone`;
    expect(redactSecrets(text, NO_ENV)).toBe('output ends:\n[REDACTED]\ndone');
  });

  it('the same inside a JSON string (escaped newlines)', () => {
    const text = JSON.stringify({ content: `${body.join('\n')}\n-----END RSA PRIVATE KEY-----\n` });
    expect(redactSecrets(text, NO_ENV)).toBe('{"content":"[REDACTED]\\n"}');
  });
});

describe('redactThenCut and redactArgs', () => {
  const redact = createRedactor({ DEPLOY_TOKEN: 'env-secret-value-0123456789' });

  it.each([
    // Each secret straddles the cut: cut first, the kept start would not be recognised.
    ['ghp token', `${'x'.repeat(40)} ghp_Q7wX2mZ9pL4kR8vN1bT6yH3jF5dS0aC2eG8u`, 'ghp_Q7wX2m'],
    ['env value', `${'x'.repeat(40)} env-secret-value-0123456789`, 'env-secret-'],
    ['bearer', `${'x'.repeat(30)} Bearer abcdefgh12345678`, 'Bearer abcd'],
  ])('%s on the cut', (_name, text, visibleIfCutFirst) => {
    expect(cutText(text, 55)).toContain(visibleIfCutFirst);
    const out = redactThenCut(text, 55, redact);
    expect(out).not.toContain(visibleIfCutFirst);
    expect(out.length).toBeLessThanOrEqual(55);
  });

  it('cutText leaves short text whole and marks a cut', () => {
    expect(cutText('short', 10)).toBe('short');
    expect(cutText('0123456789abc', 10)).toBe('0123456...');
  });

  it.each([
    [['--api-key', 'plain-looking-value'], ['--api-key', '[REDACTED]']],
    [['--auth-token', 'abc', '--model', 'sonnet'], ['--auth-token', '[REDACTED]', '--model', 'sonnet']],
    [['--header', 'Authorization: Bearer abcdefgh12345678'], ['--header', 'Authorization: Bearer [REDACTED]']],
    [['--password=hunter22'], ['--password=[REDACTED]']],
    [['--token', '--verbose'], ['--token', '--verbose']],
    [['--dangerously-skip-permissions', 'env-secret-value-0123456789'], ['--dangerously-skip-permissions', '[REDACTED:DEPLOY_TOKEN]']],
  ])('redactArgs %j', (args, expected) => {
    expect(redactArgs(args, redact)).toEqual(expected);
  });
});

describe('tailText', () => {
  it.each([
    ['short text whole', 'a\nb', 10, 'a\nb'],
    ['from the first whole line', 'line one ghp_abc\nline two\nline three', 20, 'line two\nline three'],
    ['one long line: from the first whole word', 'xxxxghp_Q7wX2mZ9pL4kR8vN1bT6yH3jF5dS0aC2eG8u and then', 20, 'and then'],
    ['one word: nothing', 'x'.repeat(50), 20, ''],
  ])('%s', (_name, text, max, expected) => {
    expect(tailText(text, max)).toBe(expected);
  });
});
