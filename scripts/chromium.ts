/**
 * Finds the Chromium the browser tests drive: CHROMIUM_PATH, else Debian's /usr/bin/chromium.
 * Where none is installed and we run as root, installs Debian's `chromium` package with a CJK
 * font (fonts-wqy-microhei); a browser is never downloaded from anywhere else.
 */
import { existsSync } from 'node:fs';
import { aptInstall, isRoot } from './debian.ts';

export async function ensureChromium(): Promise<string> {
  const candidate = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (existsSync(candidate)) return candidate;
  if (process.env.CHROMIUM_PATH) throw new Error(`CHROMIUM_PATH=${candidate} does not exist`);
  if (!isRoot()) {
    throw new Error('Chromium is not installed: run `sudo apt-get install -y chromium` or set CHROMIUM_PATH.');
  }
  console.log("Installing Debian's chromium package (and a CJK font) for the browser tests…");
  // With a CJK font the Chinese pages render, and measure, as users see them (the layout tests
  // check widths at 1280 px); without one, every Chinese character is a box of another width.
  const packages = ['chromium', 'fonts-wqy-microhei'];
  await aptInstall(packages);
  if (!existsSync(candidate)) throw new Error(`chromium installed but ${candidate} is missing`);
  return candidate;
}
