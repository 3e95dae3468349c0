import { describe, expect, it } from 'vitest';
import { looksLikeCredentialFile } from '../../src/git/credential-files.js';

describe('looksLikeCredentialFile', () => {
  it.each([
    ['.env', true],
    ['.env.local', true],
    ['.env.production.local', true],
    ['config/.env', true],
    ['deploy/prod.env', true],
    ['.ENV.Local', true],
    ['.env.example', false],
    ['.env.sample', false],
    ['.env.template', false],
    ['.environment.md', false],
    ['env.ts', false],
    ['src/environment.ts', false],
    ['id_rsa', true],
    ['home/.ssh/id_ed25519', true],
    ['id_ecdsa_sk', true],
    ['id_rsa.pub', false],
    ['keys/id_ed25519.pub', false],
    ['server.key', true],
    ['tls/cert.pem', true],
    ['store.p12', true],
    ['android/release.keystore', true],
    ['release.jks', true],
    ['putty.ppk', true],
    ['credentials', true],
    ['credentials.json', true],
    ['aws/credentials', true],
    ['.credentials.json', true],
    ['.git-credentials', true],
    ['.netrc', true],
    ['.pgpass', true],
    ['secrets.yaml', true],
    ['.pypirc', true],
    ['src/credentials-form.tsx', true],
    ['src/keyboard.ts', false],
    ['docs/keys.md', false],
    ['monkey.ts', false],
    ['.key', false],
    ['README.md', false],
    ['src/index.ts', false],
    ['package.json', false],
  ])('%s -> %s', (path, expected) => {
    expect(looksLikeCredentialFile(path)).toBe(expected);
  });
});
