/** Fills `{{name}}` placeholders. Pure. */
import { DebussyError } from '../errors/index.js';

const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*\}\}/g;
const ALONE_ON_LINE = /^\s*\{\{\s*([a-z_]+)\s*\}\}\s*$/;

/**
 * Replaces every placeholder with its value. A placeholder alone on its line whose value is empty
 * removes the whole line, so optional lines leave no blank behind. A placeholder without a value
 * is a defect of the template, never silently left in a user's file.
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>, templateName = 'template'): string {
  const valueOf = (name: string): string => {
    const value = values[name];
    if (value === undefined) {
      throw new DebussyError('E_TEMPLATE', `${templateName} uses the placeholder {{${name}}}, which debussy does not fill`, {
        hint: 'This is a bug in debussy or an edited template: reinstall debussy.',
      });
    }
    return value;
  };
  const lines: string[] = [];
  for (const line of template.split('\n')) {
    const alone = ALONE_ON_LINE.exec(line);
    if (alone !== null && valueOf(alone[1] ?? '') === '') continue;
    lines.push(line.replace(PLACEHOLDER, (_match, name: string) => valueOf(name)));
  }
  return lines.join('\n');
}
