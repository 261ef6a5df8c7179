// SPDX-License-Identifier: MIT
// The HTML report in headless Chromium:  node html.js HTML HOT EARLY CAPTION PNG
// no console errors; the first event's table is captioned CAPTION and opens with HOT on
// top; dragging over the first part of a thread's time strip (where the workload ran EARLY)
// changes the table (EARLY on top, fewer samples) and the range line; the trees and flame
// graph are drawn, a click zooms the flame graph; a screenshot.
'use strict';
const { open, checker, finish, main } = require('./chromium.js');

const [html, hot, early, caption, png] = process.argv.slice(2);
const want = { caption };
const c = checker('html'), check = c.check;

main('html', async () => {
	const s = await open();
	const { page } = s;
	await page.goto('file://' + html);
	await page.locator('#funcs tbody tr').first().waitFor({ timeout: 10000 });
	const first = '#funcs table:first-of-type ';
	const top = () => page.locator(first + 'tbody tr:first-child td.name').textContent();
	const range = () => page.locator('#range').textContent();
	const before = { top: await top(), range: await range() };
	check(before.top === hot, 'the table opens with ' + hot + ' on top', 'it has ' + before.top);
	check(await page.locator('#flame .fr').count() > 3, 'the flame graph is drawn', 'no frames');
	check(await page.locator('#funcs caption').first().textContent() === want.caption,
	      'one table per event, "' + want.caption + '"',
	      'the first is "' + await page.locator('#funcs caption').first().textContent() + '"');
	check(await page.locator('#topdown > details').count() > 0 &&
	      await page.locator('#bottomup > details').count() > 0, 'both call trees are drawn',
	      'a tree is empty');

	// the flame graph zooms: the hot frame gets the full width
	const fr = page.locator('#flame .fr', { hasText: hot }).first();
	await fr.click();
	const w = await page.locator('#flame .fr', { hasText: hot }).first().evaluate(e => e.style.width);
	check(w === '100%', 'a click on ' + hot + "'s frame zooms it to the full width", 'it is ' + w);
	await page.locator('#flame .fr', { hasText: /^all$/ }).click();

	// the workload's first phase: the first 15 % of the strip of its busiest thread
	const strip = page.locator('.strip svg').first();
	await strip.scrollIntoViewIfNeeded();
	const box = await strip.boundingBox();
	await page.mouse.move(box.x + box.width * 0.01, box.y + box.height / 2);
	await page.mouse.down();
	await page.mouse.move(box.x + box.width * 0.15, box.y + box.height / 2, { steps: 5 });
	await page.mouse.up();
	const after = { top: await top(), range: await range() };
	check(after.top === early && after.range !== before.range,
	      'a drag over the first 15 % of the strip changes the table: ' + early + ' on top, "' +
	      after.range + '"', 'top ' + after.top + ', range "' + after.range + '"');
	await page.locator('#reset').click();
	check(await top() === hot && await range() === before.range, 'Whole recording restores it',
	      'top ' + await top());
	await page.locator(first + 'th', { hasText: 'Symbol' }).click();
	const names = await page.locator(first + 'tbody td.name').allTextContents();
	const sorted = names.every((n, i) => !i || names[i - 1] <= n);
	check(sorted && names.length > 3, 'a click on Symbol sorts the table by name',
	      names.slice(0, 4).join(', '));
	await finish(s, c, png);
});
