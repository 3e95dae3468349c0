/**
 * Which files hold credentials, as the tools that write them name them. debussy leaves such files
 * out of its commits unless `commit_secrets` is on, because a token pushed with a commit is leaked
 * for good. Two kinds (docs/recovery.md lists both):
 * - files whose name says it: a private key, an environment file, a credential store (`.netrc`,
 *   `.git-credentials`, `~/.aws/credentials`, a gcloud or Azure token cache), judged by name;
 * - configuration files that some projects commit and that may hold a credential or not (an
 *   `.npmrc` with only `registry=`, a `.yarnrc.yml`, a kubeconfig whose user runs a plugin): judged
 *   by their content, by whether the redactor finds a secret in them (credential-contents.ts reads
 *   them).
 * Pure.
 */

/** Environment-file templates that by convention hold variable names, not values. */
const ENV_TEMPLATES = new Set(['.env.example', '.env.sample', '.env.template', '.env.dist', '.env.defaults']);

/** Exact file names (lower case) of credential stores. */
const SECRET_NAMES = new Set([
  // netrc (curl, git, ftp), PostgreSQL, Apache, git's credential store, twine, docker's old config.
  '.netrc', '_netrc', '.pgpass', '.htpasswd', '.git-credentials', '.pypirc', '.dockercfg',
  // MySQL's obfuscated login paths, the Vault CLI's token, s3cmd.
  '.mylogin.cnf', '.vault-token', '.s3cfg',
  // gcloud: application default credentials, the token cache.
  'application_default_credentials.json', 'adc.json', 'access_tokens.db',
  // Azure CLI: token caches and service principal secrets.
  'accesstokens.json', 'msal_token_cache.json', 'msal_token_cache.bin', 'service_principal_entries.json',
  // Generic secret stores.
  'secrets.json', 'secrets.yaml', 'secrets.yml', 'secrets.toml',
]);

/** Extensions (lower case) of private keys, key stores, Terraform state (it holds resources' passwords in clear) and environment files. */
const SECRET_EXTENSIONS = ['.pem', '.key', '.p12', '.pfx', '.p8', '.jks', '.keystore', '.ppk', '.kdbx', '.keytab', '.tfstate', '.tfstate.backup', '.env'];

/** SSH private keys: id_rsa, id_ed25519_work, ... (the .pub halves are public). */
const SSH_PRIVATE_KEY = /^id_(rsa|dsa|ecdsa|ed25519)(_sk)?([._-].*)?$/;

/** Exact file names (lower case) of configuration that holds a credential only sometimes. */
const CONTENT_NAMES = new Set([
  // npm, yarn 1 and 2+, pip, MySQL's client options, Terraform's CLI configuration, Composer (and others') auth.json, boto.
  '.npmrc', '.yarnrc', '.yarnrc.yml', 'pip.conf', 'pip.ini', '.my.cnf', '.terraformrc', 'terraform.rc', 'auth.json', '.boto',
  // kubectl.
  'kubeconfig',
]);

/** Paths (lower case, the end of the path) of configuration that holds a credential only sometimes. */
const CONTENT_PATH_ENDINGS = ['.kube/config', '.docker/config.json', '.aws/config', 'gh/hosts.yml'];

/** Extensions (lower case) of such configuration: Terraform variables, kubeconfigs. */
const CONTENT_EXTENSIONS = ['.tfvars', '.tfvars.json', '.kubeconfig'];

/** How a path is judged: `credentials` by its name, `content` when what it holds decides, undefined when it is not such a file. */
export type CredentialFileJudgement = 'credentials' | 'content';

export function judgeCredentialFile(path: string): CredentialFileJudgement | undefined {
  const lower = path.toLowerCase();
  const name = lower.split('/').pop() ?? lower;
  if (name === '' || name.endsWith('.pub')) return undefined;
  if (name === '.env' || name.startsWith('.env.')) return ENV_TEMPLATES.has(name) ? undefined : 'credentials';
  if (SECRET_NAMES.has(name)) return 'credentials';
  if (name.startsWith('credentials') || name.startsWith('.credentials')) return 'credentials';
  if (SSH_PRIVATE_KEY.test(name)) return 'credentials';
  if (SECRET_EXTENSIONS.some((extension) => name.length > extension.length && name.endsWith(extension))) return 'credentials';
  if (CONTENT_NAMES.has(name) || name.startsWith('kubeconfig.')) return 'content';
  if (CONTENT_PATH_ENDINGS.some((ending) => lower === ending || lower.endsWith(`/${ending}`))) return 'content';
  if (CONTENT_EXTENSIONS.some((extension) => name.length > extension.length && name.endsWith(extension))) return 'content';
  return undefined;
}

/** Whether a file's text holds a credential: the redactor hides something in it (a value under `${NPM_TOKEN}`-style references stays, and so does the file). */
export function holdsCredential(text: string, redact: (text: string) => string): boolean {
  return redact(text) !== text;
}

/** Whether a path is a credential file by its name alone. */
export function looksLikeCredentialFile(path: string): boolean {
  return judgeCredentialFile(path) === 'credentials';
}
