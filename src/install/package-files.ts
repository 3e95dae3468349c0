/**
 * Files of this debussy installation. The package ships docs/ and schema/ (package.json `files`),
 * so a hint or a generated file can name a path that exists wherever debussy is installed (a
 * global or a project install, a checkout) instead of a web address that may not. Found relative
 * to this module: src/install/ and dist/install/ both sit two levels below the package root.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function packageRoot(): string {
  return fileURLToPath(new URL('../../', import.meta.url));
}

/** A file of the package by its path inside it (forward slashes): an absolute path. */
export function packageFile(relativePath: string): string {
  return path.join(packageRoot(), ...relativePath.split('/'));
}

/** One of the package's docs by its file name (`permissions.md`): an absolute path, for hints. */
export function docFile(name: string): string {
  return packageFile(`docs/${name}`);
}

/**
 * How a file written at `fromDir` inside `projectRoot` names `target`: relative to `fromDir`
 * (forward slashes) when the target is inside the project too, so the reference holds on every
 * clone (debussy installed in the project's node_modules); else undefined: a path outside the
 * project would be right on this machine only. Pure.
 */
export function relativeInProject(fromDir: string, target: string, projectRoot: string): string | undefined {
  const inProject = path.relative(projectRoot, target);
  if (inProject === '' || inProject.startsWith('..') || path.isAbsolute(inProject)) return undefined;
  return path.relative(fromDir, target).split(path.sep).join('/');
}

/**
 * A file of this version of the package at its public address, from package.json's `repository`
 * (a GitHub repository) and `version`, by the release tag `v<version>`: `raw` for tools that fetch
 * it (a schema), `blob` for people. Undefined when the repository is not on GitHub. Pure.
 */
export function publicFileUrl(repositoryUrl: string, version: string, relativePath: string, kind: 'raw' | 'blob'): string | undefined {
  const match = /github\.com[/:]([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(repositoryUrl.trim());
  if (match === null || !/^\d+\.\d+\.\d+/.test(version)) return undefined;
  const [, owner, repo] = match;
  return kind === 'raw'
    ? `https://raw.githubusercontent.com/${owner}/${repo}/v${version}/${relativePath}`
    : `https://github.com/${owner}/${repo}/blob/v${version}/${relativePath}`;
}

/** publicFileUrl for this installation's package.json; undefined when it names no GitHub repository. */
export function packagePublicUrl(relativePath: string, kind: 'raw' | 'blob'): string | undefined {
  try {
    const pkg = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version?: unknown; repository?: unknown };
    const repository = typeof pkg.repository === 'string' ? pkg.repository : (pkg.repository as { url?: unknown } | undefined)?.url;
    return typeof repository === 'string' && typeof pkg.version === 'string' ? publicFileUrl(repository, pkg.version, relativePath, kind) : undefined;
  } catch {
    return undefined;
  }
}
