import { describe, expect, it } from 'vitest';
import { formatConfigSize, formatSize, parseSize } from '../../src/config/size.js';
import { checkValue } from '../../src/config/validate.js';
import { CONFIG_SCHEMA } from '../../src/config/schema.js';

const KB = 1024;
const MB = 1024 ** 2;
const GB = 1024 ** 3;

describe('parseSize', () => {
  it.each<[unknown, number | undefined]>([
    ['5MB', 5 * MB], ['5mb', 5 * MB], ['5 MB', 5 * MB], ['5M', 5 * MB], ['5m', 5 * MB], ['5MiB', 5 * MB],
    ['500KB', 500 * KB], ['512k', 512 * KB], ['1.5GB', 1.5 * GB], ['2g', 2 * GB], ['100B', 100], ['100', 100],
    [0, 0], ['0', 0], [1048576, MB],
    ['', undefined], ['MB', undefined], ['-1MB', undefined], ['5TB', undefined], ['5 M B', undefined], [1.5, undefined], [-1, undefined], [true, undefined], [null, undefined],
  ])('%o is %s bytes', (raw, bytes) => {
    expect(parseSize(raw)).toBe(bytes);
  });
});

describe('formatting sizes', () => {
  it.each<[number, string, string]>([
    [5 * MB, '5MB', '5 MB'], [2 * GB, '2GB', '2 GB'], [300 * MB, '300MB', '300 MB'], [2560, '2560', '2.5 KB'],
    [512 * KB, '512KB', '512 KB'], [17, '17', '17 B'], [0, '0', '0 B'], [MB - 1, String(MB - 1), '1 MB'], [1.5 * GB, '1536MB', '1.5 GB'],
  ])('%d bytes: %s in a config file, %s for people', (bytes, config, people) => {
    expect(formatConfigSize(bytes)).toBe(config);
    expect(formatSize(bytes)).toBe(people);
    expect(parseSize(config)).toBe(bytes);
  });
});

describe('max_commit_file_size', () => {
  it('defaults to 5 MB and reads sizes and 0; anything else names what is expected', () => {
    const def = CONFIG_SCHEMA.max_commit_file_size;
    expect(def.default).toBe(5 * MB);
    expect(checkValue(def, '20MB')).toEqual({ ok: true, value: 20 * MB });
    expect(checkValue(def, 0)).toEqual({ ok: true, value: 0 });
    expect(checkValue(def, 'huge')).toEqual({ ok: false, problem: 'expected a size such as 5MB, 500KB or 1GB (a bare number means bytes)' });
  });
});
