/**
 * Session labels (src/server/services/sessionList.ts, describeDevice): "browser major · system
 * version", parsed by bowser (MIT) since ua-parser-js 2 is AGPL-3.0.
 */
import { describe, expect, it } from 'vitest';
import { describeDevice } from '../../src/server/services/sessionList.ts';

describe('describeDevice', () => {
  it('labels common browsers as before', () => {
    const cases: [string, string][] = [
      [
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
        'Mobile Chrome 126 · Android 14',
      ],
      [
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
        'Chrome 156 · Linux',
      ],
      ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0', 'Firefox 127 · Windows 10'],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
        'Mobile Safari 17 · iOS 17.4.1',
      ],
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
        'Microsoft Edge 126 · Windows 10',
      ],
    ];
    for (const [userAgent, label] of cases) expect(describeDevice(userAgent), userAgent).toBe(label);
  });

  it('answers empty for no or an unrecognised User-Agent', () => {
    expect(describeDevice(null)).toBe('');
    expect(describeDevice('')).toBe('');
    expect(describeDevice('curl/8.5.0')).toBe('');
  });
});
