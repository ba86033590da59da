/** The build's progress counter reads `astro build`'s output as Astro writes it: coloured, whatever FORCE_COLOR says. */
import { describe, expect, it } from 'vitest';
import { compressProgress, isPageLine, lineReader, outputLines } from '../../src/server/site/buildCommand.ts';

const esc = String.fromCharCode(27);
/** Lines as captured from `FORCE_COLOR=0 astro build` (Astro 7). */
const captured = [
  `${esc}[2m20:29:41${esc}[22m   ${esc}[34m├─${esc}[39m ${esc}[2m/404.html${esc}[22m ${esc}[2m(+332ms)${esc}[22m `,
  `${esc}[2m20:29:41${esc}[22m   ${esc}[34m├─${esc}[39m ${esc}[2m/robots.txt${esc}[22m ${esc}[2m(+6ms)${esc}[22m `,
  `${esc}[2m20:29:41${esc}[22m   ${esc}[34m└─${esc}[39m ${esc}[2m/en-US/404/index.html${esc}[22m ${esc}[2m(+157ms)${esc}[22m `,
  `${esc}[2m20:29:40${esc}[22m ${esc}[32m▶${esc}[39m src/pages/404.astro`,
].join('\n');

describe('astro build output', () => {
  it('counts each page written, coloured or not, and nothing else', () => {
    const lines = outputLines(captured);
    expect(lines.filter(isPageLine)).toHaveLength(2);
    expect(lines[0]).toBe('20:29:41   ├─ /404.html (+332ms) ');
    expect(isPageLine('  └─ /welcome/home/index.html (+3ms)')).toBe(true);
  });

  it("reads the compression step's progress lines, and only those", () => {
    const [line] = outputLines(
      `${esc}[2m19:08:51${esc}[22m ${esc}[34m[hgd:precompress]${esc}[39m compressed 996 / 1422`,
    );
    expect(compressProgress(line!)).toEqual({ done: 996, total: 1422 });
    expect(compressProgress('19:08:59 [hgd:precompress] precompressed 1413 files (br + gzip)')).toBeUndefined();
  });

  it('counts a page whose line arrives in pieces (its path, then its time after it rendered)', () => {
    const pages: string[] = [];
    const reader = lineReader((lines) => pages.push(...lines.filter(isPageLine)));
    reader.push(`${esc}[2m19:18:38${esc}[22m   ${esc}[34m├─${esc}[39m ${esc}[2m/404.html${esc}[22m`);
    expect(pages).toEqual([]);
    reader.push(` ${esc}[2m(+78ms)${esc}[22m \n${esc}[2m19:18:38${esc}[22m   ├─ /en-US/404/index.html`);
    reader.push(' (+12ms) ');
    reader.end();
    expect(pages).toEqual(['19:18:38   ├─ /404.html (+78ms) ', '19:18:38   ├─ /en-US/404/index.html (+12ms) ']);
  });
});
