/**
 * Which file names look like they hold credentials: environment files, private keys, key stores,
 * credential and password files. debussy leaves such files out of its commits unless
 * `commit_secrets` is on, because a token pushed with a commit is leaked for good. Judged from the
 * name alone (never the content, which debussy does not read for this). Pure.
 */

/** Environment-file templates that by convention hold variable names, not values. */
const ENV_TEMPLATES = new Set(['.env.example', '.env.sample', '.env.template', '.env.dist', '.env.defaults']);

/** Exact file names (lower case) of well-known secret stores. */
const SECRET_NAMES = new Set(['.netrc', '_netrc', '.pgpass', '.htpasswd', '.git-credentials', '.pypirc', '.dockercfg', 'secrets.json', 'secrets.yaml', 'secrets.yml', 'secrets.toml']);

/** Extensions (lower case) of private keys, certificates with keys, and key stores. */
const SECRET_EXTENSIONS = ['.pem', '.key', '.p12', '.pfx', '.jks', '.keystore', '.ppk', '.kdbx', '.env'];

/** SSH private keys: id_rsa, id_ed25519_work, ... (the .pub halves are public). */
const SSH_PRIVATE_KEY = /^id_(rsa|dsa|ecdsa|ed25519)(_sk)?([._-].*)?$/;

export function looksLikeCredentialFile(path: string): boolean {
  const name = (path.split('/').pop() ?? path).toLowerCase();
  if (name === '' || name.endsWith('.pub')) return false;
  if (name === '.env' || name.startsWith('.env.')) return !ENV_TEMPLATES.has(name);
  if (SECRET_NAMES.has(name)) return true;
  if (name.startsWith('credentials') || name.startsWith('.credentials')) return true;
  if (SSH_PRIVATE_KEY.test(name)) return true;
  return SECRET_EXTENSIONS.some((extension) => name.length > extension.length && name.endsWith(extension));
}
