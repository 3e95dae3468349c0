/** Commands load their module only when they run: `debussy done` must not pay for `debussy run`. */

/** Each command module's default export takes commander's arguments and returns the exit code. */
export type Action = (...args: never[]) => Promise<number>;

/** Wraps a lazily imported command so its module loads only when that command runs. */
export function lazy(load: () => Promise<{ default: Action }>): (...args: unknown[]) => Promise<void> {
  return async (...args: unknown[]) => {
    const module = await load();
    process.exitCode = await (module.default as (...a: unknown[]) => Promise<number>)(...args);
  };
}
