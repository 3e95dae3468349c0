import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { classifySecretName, isSecretEnvName, nameWords } from '../../src/redact/secret-names.js';
import { hidesValue, type ValuePlace } from '../../src/redact/secret-values.js';

describe('nameWords', () => {
  it.each([
    ['STRIPE_SECRET_KEY', ['stripe', 'secret', 'key']],
    ['stripeSecretKey', ['stripe', 'secret', 'key']],
    ['--stripe-secret-key', ['stripe', 'secret', 'key']],
    ['APIKey', ['api', 'key']],
    ['spring.datasource.password', ['spring', 'datasource', 'password']],
    ['_authToken', ['auth', 'token']],
    ['X-Api-Key', ['x', 'api', 'key']],
  ])('%s', (name, words) => {
    expect(nameWords(name)).toEqual(words);
  });
});

describe('classifySecretName', () => {
  it('remembers a name without the line it was cut from (a memo key must not keep a stream line alive)', () => {
    v8.setFlagsFromString('--expose_gc');
    const gc = runInNewContext('gc') as () => void;
    // 300 distinct names, each cut from its own 64 KB line, as the candidate scan cuts them from a
    // raw stream line: V8 keeps such a substring as a view of its whole parent.
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 300; i++) {
      const line = `{"content":"${'x'.repeat(65_536)}","service_${i}_password":"p"}`;
      const at = line.indexOf('service_');
      expect(classifySecretName(line.slice(at, at + `service_${i}_password`.length))).toBe('secret');
    }
    gc();
    const retainedMb = (process.memoryUsage().heapUsed - before) / 2 ** 20;
    // The lines were 19 MB; the names, a few KB.
    expect(retainedMb).toBeLessThan(2);
  });

  it.each([
    // Always a secret's name.
    ['password', 'secret'],
    ['DB_PASSWORD', 'secret'],
    ['PGPASSWORD', 'secret'],
    ['DB_PASS', 'secret'],
    ['db_pwd', 'secret'],
    ['client_secret', 'secret'],
    ['clientSecret', 'secret'],
    ['clientsecret', 'secret'],
    ['accessToken', 'secret'],
    ['sessiontoken', 'secret'],
    ['_authToken', 'secret'],
    ['npmAuthToken', 'secret'],
    ['PRIVATE-TOKEN', 'secret'],
    ['apiKey', 'secret'],
    ['api-key', 'secret'],
    ['X-Api-Key', 'secret'],
    ['AccountKey', 'secret'],
    ['SharedAccessKey', 'secret'],
    ['aws_secret_access_key', 'secret'],
    ['STRIPE_SECRET_KEY', 'secret'],
    ['SECRET_KEY_BASE', 'secret'],
    ['client-key-data', 'secret'],
    ['GH_PAT', 'secret'],
    ['credentials', 'secret'],
    ['passphrase', 'secret'],
    // A key named in capitals: its value must look like one.
    ['OPENAI_KEY', 'credential-like'],
    ['MERGE_KEY', 'credential-like'],
    ['auth', 'credential-like'],
    ['_auth', 'credential-like'],
    // Headers.
    ['Authorization', 'authorization'],
    ['Proxy-Authorization', 'authorization'],
    ['Cookie', 'cookie'],
    ['Set-Cookie', 'set-cookie'],
  ])('%s: %s', (name, kind) => {
    expect(classifySecretName(name)).toBe(kind);
  });

  it.each(['key', 'sortKey', 'primary_key', 'cacheKey', 'correlationKey', 'publicKey', 'input_tokens', 'max_tokens', 'mytoken', 'nexttoken', 'pass', 'PWD', 'OLDPWD', 'pat', 'signature', 'sig', 'bypass', 'monkey', 'type', 'content', 'tokenizer'])(
    'not a secret’s name: %s',
    (name) => {
      expect(classifySecretName(name)).toBeUndefined();
    },
  );

  it.each(['key', 'sig', 'signature', 'pass', 'auth', 'X-Amz-Signature'])('a secret’s name in a URL query: %s', (name) => {
    expect(classifySecretName(name, true)).toBe('secret');
  });
});

describe('isSecretEnvName', () => {
  it.each([
    ['ANTHROPIC_API_KEY', true],
    ['MY_SERVICE_TOKEN', true],
    ['DEPLOY_SECRET', true],
    ['ADMIN_PASSWORD', true],
    ['PGPASSWORD', true],
    ['DB_PASS', true],
    ['GH_PAT', true],
    ['AWS_CREDENTIALS', true],
    ['KEY', true],
    ['HOME', false],
    ['PWD', false],
    ['OLDPWD', false],
    ['EDITOR_KEYMAP', false],
    ['MAX_TOKENS', false],
    ['SSH_AUTH_SOCK', false],
  ])('%s: %s', (name, secret) => {
    expect(isSecretEnvName(name)).toBe(secret);
  });
});

describe('hidesValue', () => {
  const env: ValuePlace = { separator: '=', spaced: false };
  const code: ValuePlace = { separator: '=', spaced: true };
  const colon: ValuePlace = { separator: ':', spaced: true };
  it.each([
    // .env and shell lines: a bare word is the value.
    ['secret', 'hunter', env, true],
    ['secret', 'x', env, true],
    ['secret', 'ya29.abcdef', env, true],
    ['secret', '"s3cr3t value"', env, true],
    ['secret', '\\"s3cr3t\\"', env, true],
    // References to a secret kept elsewhere.
    ['secret', '$DB_PASSWORD', env, false],
    ['secret', '${DB_PASSWORD}', env, false],
    ['secret', '"${{ secrets.DB }}"', colon, false],
    ['secret', '"{{ .Values.password }}"', colon, false],
    ['secret', '<your-token>', env, false],
    ['secret', 'process.env.API_TOKEN', colon, false],
    ['secret', '********', colon, false],
    // Code: a spaced `=` takes a variable, a call, a property, a number.
    ['secret', 'questionToken', code, false],
    ['secret', 'getpass()', code, false],
    ['secret', 'props[i]', code, false],
    ['secret', 'options.token', code, false],
    ['secret', '7', code, false],
    ['secret', '"<"', code, false],
    ['secret', 'void', code, false],
    ['secret', 's3cr3tValue9', code, true],
    ['secret', '"hardcoded-secret"', code, true],
    // After a colon, prose and types are not values.
    ['secret', 'expired', colon, false],
    ['secret', 'string', colon, false],
    ['secret', 'hunter22', colon, true],
    ['secret', 'abcdefghijklmnopqrstuv', colon, true],
    // A name that is only sometimes a secret's: the value must look like a credential.
    ['credential-like', 'true', colon, false],
    ['credential-like', '"oauth2"', colon, false],
    ['credential-like', '"ZGVwbG95Ym90OldSNjN1WENON05kYlVNakt0RHJG"', colon, true],
    ['credential-like', 'app-state', env, false],
    ['credential-like', 'hjXL7W2dYMhWgKZ7nxD7kUIKB7TrbMU9', env, true],
  ] as const)('%s %s %j: %s', (kind, value, place, hidden) => {
    expect(hidesValue(kind, value, place)).toBe(hidden);
  });
});
