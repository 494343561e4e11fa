// icons.mjs: the web board's PNG icons (client/web/icon-192.png and
// icon-512.png, named by manifest.webmanifest) drawn from
// client/web/favicon.svg by Debian's chromium through the puppeteer-core
// of tests/browser/ (make deps installs both). The PNGs are committed, so a
// build needs neither; run `make icons` after changing the SVG.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const root = new URL('../', import.meta.url);
const require = createRequire(new URL('tests/browser/package.json', root));
const { default: puppeteer } = await import(pathToFileURL(require.resolve('puppeteer-core')));

const svg = readFileSync(new URL('client/web/favicon.svg', root));
const src = `data:image/svg+xml;base64,${svg.toString('base64')}`;
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  const page = await browser.newPage();
  for (const size of [192, 512]) {
    await page.setViewport({ width: size, height: size, deviceScaleFactor: 1 });
    await page.setContent(`<html><body style="margin:0;background:transparent"><img src="${src}" width="${size}" height="${size}" style="display:block"></body></html>`);
    await page.waitForFunction(() => document.images[0].complete);
    const png = await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
    const out = new URL(`client/web/icon-${size}.png`, root);
    writeFileSync(out, png);
    console.log(`icons: ${out.pathname} (${png.length} bytes)`);
  }
} finally {
  await browser.close();
}
