// SPDX-License-Identifier: MIT
// The flame graph in headless Chromium, driven by playwright-core:
//   node browser.js SVG HOT_FUNCTION MATCH_SAMPLES PNG
// no console errors; HOT_FUNCTION's frame is visible and the widest leaf (most samples
// end in it); clicking it zooms it to the full width; searching for it prints
// MATCH_SAMPLES as the total; a screenshot.
'use strict';
const { open, checker, finish, main } = require('./chromium.js');

const [svg, hot, want, png] = process.argv.slice(2);
const c = checker('browser'), check = c.check;

main('browser', async () => {
	const { browser, page, errors } = await open();
	page.on('dialog', d => d.accept(hot));
	await page.goto('file://' + svg);
	await page.waitForFunction(() => window.fg && fg.frames.length > 0, null, { timeout: 10000 });

	const info = await page.evaluate(() => {
		// a frame's own samples: where stacks end (its width less its children's)
		const own = fg.frames.map(f => ({ name: f.name, n: f.n - fg.frames.filter(c =>
			c.d === f.d + 1 && c.s >= f.s && c.s + c.n <= f.s + f.n).reduce((a, c) => a + c.n, 0) }));
		own.sort((a, b) => b.n - a.n);
		return { widest: own[0].name, full: fg.width - 2 * fg.pad };
	});
	check(info.widest === hot, 'the widest leaf is ' + hot, 'it is ' + info.widest);

	const frame = page.locator('#frames > g', { has: page.locator('title', { hasText: hot + ' (' }) }).first();
	check(await frame.isVisible(), hot + "'s frame is visible", 'it is hidden');
	await frame.locator('rect').click();
	const w = Number(await frame.locator('rect').getAttribute('width'));
	const box = await frame.locator('rect').boundingBox();
	check(Math.abs(w - info.full) < 0.2 && box && box.width > info.full - 1,
	      'a click zooms ' + hot + ' to the full width (' + info.full + ' px)',
	      'its width is ' + w + ' px, on screen ' + (box && box.width));
	check(await page.locator('#unzoom').isVisible(), 'Reset Zoom shows when zoomed', 'hidden');
	await page.locator('#unzoom').click();

	await page.locator('#search').click();
	const matched = await page.locator('#matched').textContent();
	const m = /Matched: [0-9.]+% \(([0-9]+) samples\)/.exec(matched);
	check(m && m[1] === want, 'searching ' + hot + ' totals ' + want + ' samples',
	      'the line says "' + matched + '"');
	const lit = await page.evaluate(() => fg.frames.filter(f => f.rect.getAttribute('fill') === 'rgb(230,0,230)').length);
	check(lit > 0, 'the matches are highlighted (' + lit + ' frames)', 'none is');

	await finish({ browser, page, errors }, c, png);
});
