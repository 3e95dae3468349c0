import { describe, expect, it } from 'vitest';
import { DebussyError } from '../../src/errors/index.js';
import { fillTemplate } from '../../src/scaffold/index.js';

describe('fillTemplate', () => {
  it.each<{ name: string; template: string; values: Record<string, string>; expected: string }>([
    { name: 'inline placeholders', template: 'Phase {{id}}: {{ title }}', values: { id: '2', title: 'API' }, expected: 'Phase 2: API' },
    { name: 'a placeholder repeated', template: '{{id}}.1 and {{id}}.2', values: { id: '6D' }, expected: '6D.1 and 6D.2' },
    { name: 'a whole-line placeholder with lines', template: 'a\n{{rows}}\nb', values: { rows: 'r1\nr2' }, expected: 'a\nr1\nr2\nb' },
    { name: 'an empty whole-line placeholder drops its line', template: 'a\n  {{optional}}\nb', values: { optional: '' }, expected: 'a\nb' },
    { name: 'an empty inline placeholder keeps its line', template: 'a {{x}}!\nb', values: { x: '' }, expected: 'a !\nb' },
    { name: 'values are not filled again', template: '{{a}}', values: { a: '{{b}}' }, expected: '{{b}}' },
    { name: 'text without placeholders', template: 'plain $ARGUMENTS text\n', values: {}, expected: 'plain $ARGUMENTS text\n' },
  ])('$name', ({ template, values, expected }) => {
    expect(fillTemplate(template, values)).toBe(expected);
  });

  it('refuses a placeholder it has no value for, naming it and the template', () => {
    expect(() => fillTemplate('x {{missing}} y', {}, 'templates/x.md')).toThrow(DebussyError);
    expect(() => fillTemplate('x {{missing}} y', {}, 'templates/x.md')).toThrow(/templates\/x\.md.*\{\{missing\}\}/);
  });
});
