/**
 * Files of this debussy installation. The package ships docs/ and schema/ (package.json `files`),
 * so a hint or a generated file can name a path that exists wherever debussy is installed (a
 * global or a project install, a checkout) instead of a web address that may not. Found relative
 * to this module: src/install/ and dist/install/ both sit two levels below the package root.
 */
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
 * How a file written at `fromDir` inside `projectRoot` should name `target`: relative to
 * `fromDir` (forward slashes) when the target is inside the project too, so the reference holds on
 * every clone (debussy installed in the project's node_modules); else the absolute path (a global
 * install: right on this machine, and harmless where it does not exist). Pure.
 */
export function referenceFrom(fromDir: string, target: string, projectRoot: string): string {
  const inProject = path.relative(projectRoot, target);
  if (inProject === '' || inProject.startsWith('..') || path.isAbsolute(inProject)) return target;
  return path.relative(fromDir, target).split(path.sep).join('/');
}
