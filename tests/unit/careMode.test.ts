// @vitest-environment happy-dom
/**
 * Care mode (src/lib/careMode.ts): the head's line turns it on before first paint from the stored
 * choice; the header's switch turns it on and off at once, stores the choice, keeps every switch's
 * pressed state and tells the page. Runs the exact inline texts the pages carry.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { careChangeEvent, careStorageKey } from '../../src/lib/careMode.ts';
import { careSwitchScript, prepaintCareScript } from '../../src/components/inlineScripts.ts';

const run = (script: string) => new Function(script)();
const root = () => document.documentElement;

beforeEach(() => {
  localStorage.clear();
  root().removeAttribute('data-care');
  document.body.innerHTML =
    '<button data-care-switch aria-pressed="false">header</button>' +
    '<ul><li><button data-care-switch aria-pressed="false">menu</button></li></ul>';
});
afterEach(() => localStorage.clear());

describe('care mode', () => {
  it('is on before first paint only when this browser chose it', () => {
    run(prepaintCareScript);
    expect(root().hasAttribute('data-care')).toBe(false);
    localStorage.setItem(careStorageKey, '1');
    run(prepaintCareScript);
    expect(root().hasAttribute('data-care')).toBe(true);
  });

  it('a switch turns it on and off, stores the choice, and every switch says so', () => {
    localStorage.setItem(careStorageKey, '1');
    run(prepaintCareScript);
    run(careSwitchScript);
    const [header, menu] = [...document.querySelectorAll<HTMLButtonElement>('[data-care-switch]')];
    // The page arrived in care mode: both switches show it pressed.
    expect([header?.getAttribute('aria-pressed'), menu?.getAttribute('aria-pressed')]).toEqual(['true', 'true']);

    let told = 0;
    document.addEventListener(careChangeEvent, () => (told += 1));
    header?.click();
    expect(root().hasAttribute('data-care')).toBe(false);
    expect(localStorage.getItem(careStorageKey)).toBeNull();
    expect(menu?.getAttribute('aria-pressed')).toBe('false');
    menu?.click();
    expect(root().hasAttribute('data-care')).toBe(true);
    expect(localStorage.getItem(careStorageKey)).toBe('1');
    expect(header?.getAttribute('aria-pressed')).toBe('true');
    expect(told).toBe(2);
  });
});
