import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { filesHoldingCredentials, holdsCredential, judgeCredentialFile, looksLikeCredentialFile } from '../../src/git/index.js';
import { createRedactor } from '../../src/redact/index.js';

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

describe('judgeCredentialFile: what each tool writes credentials to', () => {
  it.each([
    // By name: a credential store whatever it holds.
    ['git credential store', '.git-credentials', 'credentials'],
    ['netrc (curl, git, ftp)', '.netrc', 'credentials'],
    ['netrc on Windows', '_netrc', 'credentials'],
    ['PostgreSQL', '.pgpass', 'credentials'],
    ['MySQL login paths', '.mylogin.cnf', 'credentials'],
    ['twine (PyPI uploads)', '.pypirc', 'credentials'],
    ['cargo', '.cargo/credentials.toml', 'credentials'],
    ['cargo, older', '.cargo/credentials', 'credentials'],
    ['RubyGems', '.gem/credentials', 'credentials'],
    ['AWS', '.aws/credentials', 'credentials'],
    ['gcloud application default credentials', '.config/gcloud/application_default_credentials.json', 'credentials'],
    ['gcloud token cache', '.config/gcloud/access_tokens.db', 'credentials'],
    ['gcloud stored credentials', '.config/gcloud/credentials.db', 'credentials'],
    ['gcloud legacy credentials', '.config/gcloud/legacy_credentials/me@example.com/adc.json', 'credentials'],
    ['Azure CLI token cache', '.azure/msal_token_cache.json', 'credentials'],
    ['Azure CLI, older', '.azure/accessTokens.json', 'credentials'],
    ['Azure service principals', '.azure/service_principal_entries.json', 'credentials'],
    ['Terraform Cloud', '.terraform.d/credentials.tfrc.json', 'credentials'],
    ['Terraform state', 'infra/terraform.tfstate', 'credentials'],
    ['Terraform state backup', 'infra/terraform.tfstate.backup', 'credentials'],
    ['Vault CLI', '.vault-token', 'credentials'],
    ['s3cmd', '.s3cfg', 'credentials'],
    ['docker, legacy', '.dockercfg', 'credentials'],
    ['Apple signing key', 'AuthKey_ABC123.p8', 'credentials'],
    ['Kerberos keytab', 'service.keytab', 'credentials'],
    // By content: committed in many projects without a credential.
    ['npm', '.npmrc', 'content'],
    ['npm, a package of a monorepo', 'packages/web/.npmrc', 'content'],
    ['yarn 1', '.yarnrc', 'content'],
    ['yarn 2+', '.yarnrc.yml', 'content'],
    ['pip', 'pip.conf', 'content'],
    ['pip on Windows', 'pip.ini', 'content'],
    ['docker', '.docker/config.json', 'content'],
    ['kubectl', '.kube/config', 'content'],
    ['kubectl, a named kubeconfig', 'deploy/kubeconfig', 'content'],
    ['kubectl, a kubeconfig per cluster', 'clusters/prod.kubeconfig', 'content'],
    ['AWS config', '.aws/config', 'content'],
    ['MySQL client options', '.my.cnf', 'content'],
    ['Terraform CLI configuration', '.terraformrc', 'content'],
    ['Terraform variables', 'infra/prod.tfvars', 'content'],
    ['Composer and others', 'auth.json', 'content'],
    ['GitHub CLI', '.config/gh/hosts.yml', 'content'],
    // Neither.
    ['a config.json elsewhere', 'src/config.json', undefined],
    ['a kube manifest', 'k8s/deployment.yaml', undefined],
    ['package.json', 'package.json', undefined],
    ['a public key', '.ssh/id_ed25519.pub', undefined],
  ] as const)('%s: %s -> %s', (_tool, path, judgement) => {
    expect(judgeCredentialFile(path)).toBe(judgement);
  });
});

describe('holdsCredential', () => {
  const redact = createRedactor({});
  it.each([
    ['.npmrc with a token', 'registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=8f2b1c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d\n', true],
    ['.npmrc with _auth', '//npm.example.com/:_auth=Y2ktdXNlcjpHSjlxcklQWk9ZWkpHa0hpZTY=\n', true],
    ['.npmrc with only a registry', 'registry=https://registry.npmjs.org/\nsave-exact=true\n', false],
    ['.npmrc with a reference to the environment', '//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n', false],
    ['.yarnrc.yml with a token', 'npmRegistryServer: "https://npm.example.com"\nnpmAuthToken: "8f2b1c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"\n', true],
    ['.yarnrc.yml without one', 'nodeLinker: node-modules\nyarnPath: .yarn/releases/yarn-4.1.0.cjs\n', false],
    ['pip.conf with a password in the index URL', '[global]\nindex-url = https://ci:Xq7pL2mV9sR4@pypi.example.com/simple\n', true],
    ['pip.conf without', '[global]\nindex-url = https://pypi.org/simple\ntimeout = 60\n', false],
    ['docker config.json with an auth', '{"auths": {"registry.example.com": {"auth": "ZGVwbG95Ym90OldSNjN1WENON05kYlVNakt0RHJG"}}}', true],
    ['docker config.json with a credential helper', '{"credsStore": "desktop", "auths": {"registry.example.com": {}}}', false],
    ['kubeconfig with a token', 'users:\n- name: ci\n  user:\n    token: 4f9a2c7e1b8d3f6a0c5e9b2d7f1a4c8e\n', true],
    ['kubeconfig with a client key', `users:\n- name: admin\n  user:\n    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM=\n    client-key-data: ${Buffer.from('-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAgpZeYOl8eSAjD/WYxXqp\n-----END RSA PRIVATE KEY-----\n').toString('base64')}\n`, true],
    ['kubeconfig with an exec plugin', 'users:\n- name: eks\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: aws\n      args: ["eks", "get-token", "--cluster-name", "prod"]\n', false],
    ['.aws/config with a key', '[profile ci]\nregion = eu-west-1\naws_secret_access_key = F99cbEnSp/mDf9+jSkWP0DGIapeMoEsO05h+7lBQ\n', true],
    ['.aws/config without', '[profile ci]\nregion = eu-west-1\noutput = json\n', false],
    ['.my.cnf with a password', '[client]\nuser=app\npassword="PSrJsxNlLFbZtHW3vc"\n', true],
    ['.terraformrc with a token', 'credentials "app.terraform.io" {\n  token = "3YhFooFIr6ucmt.atlasv1.DYbQRK1OWWRQFGpfVPvqo5gDATQeItodf6y"\n}\n', true],
    ['tfvars without secrets', 'region = "eu-west-1"\ninstance_count = 3\n', false],
    ['gh hosts.yml with a token', 'github.com:\n    oauth_token: gho_16C7e42F292c6912E7710c838347Ae178B4a\n    user: octocat\n', true],
  ])('%s: %s', (_name, text, holds) => {
    expect(holdsCredential(text, redact)).toBe(holds);
  });
});

describe('filesHoldingCredentials (files on disk)', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('reads the files judged by content, and names those that hold a credential', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'debussy-credentials-'));
    const write = (relative: string, text: string): void => {
      mkdirSync(path.dirname(path.join(dir ?? '', relative)), { recursive: true });
      writeFileSync(path.join(dir ?? '', relative), text);
    };
    write('.npmrc', '//registry.npmjs.org/:_authToken=8f2b1c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d\n');
    write('web/.npmrc', 'registry=https://registry.npmjs.org/\n');
    write('.docker/config.json', '{"auths": {"r.example.com": {"auth": "ZGVwbG95Ym90OldSNjN1WENON05kYlVNakt0RHJG"}}}');
    write('app.ts', 'export const token = "not judged: not a credential file";\n');
    const holding = await filesHoldingCredentials(dir, ['.npmrc', 'web/.npmrc', '.docker/config.json', 'app.ts', '.kube/config'], createRedactor({}));
    // .kube/config was deleted: it holds nothing, and its deletion is committed.
    expect([...holding].sort()).toEqual(['.docker/config.json', '.npmrc']);
  });

  it('finds the value of a secret environment variable too', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'debussy-credentials-'));
    writeFileSync(path.join(dir, '.yarnrc.yml'), 'npmRegistryServer: "https://npm.example.com"\n# plain-looking-value-123\n');
    const redact = createRedactor({ DEPLOY_TOKEN: 'plain-looking-value-123' });
    expect([...(await filesHoldingCredentials(dir, ['.yarnrc.yml'], redact))]).toEqual(['.yarnrc.yml']);
  });
});
