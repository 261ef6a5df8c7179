// SPDX-License-Identifier: MIT
// The HTML report's tables as report shows them, in headless Chromium:
//   node htmlrows.js NAME HTML REPORT PNG
// the first event's table has report's columns (Children, Self, Samples, Command, Shared
// Object, Symbol) and a row per (command, shared object, symbol) with the samples that
// `tinyperf report -n --no-children -q -g none` (the file REPORT) gives it, for every row of
// the report over 0.5 %; a click on Command sorts by it; no console errors; a screenshot.
'use strict';
const fs = require('fs');
const { open, checker, finish, main } = require('./chromium.js');

const [name, html, report, png] = process.argv.slice(2);
const c = checker(name), check = c.check;

main(name, async () => {
	const s = await open();
	const { page } = s;
	const first = '#funcs table:first-of-type ';

	await page.goto('file://' + html);
	await page.locator('#funcs tbody tr').first().waitFor({ timeout: 10000 });
	const heads = (await page.locator(first + 'th').allTextContents()).filter(t => t).join(', ');
	check(heads === 'Children, Self, Samples, Command, Shared Object, Symbol',
	      "report's columns: " + heads, 'it has ' + heads);
	const rows = new Map((await page.locator(first + 'tbody tr').evaluateAll(trs =>
		trs.map(tr => [...tr.cells].map(td => td.textContent))))
		.map(r => [r[3] + ' | ' + r[4] + ' | ' + r[6], +r[2]]));
	const total = [...rows.values()].reduce((a, b) => a + b, 0), bad = [], seen = [];
	// (the page shows a byte that is no UTF-8 as the text \xNN; the names here are ASCII else)
	const text = fs.readFileSync(report, 'latin1').replace(/[\x80-\xff]/g,
		ch => '\\x' + ch.charCodeAt(0).toString(16));
	for (const l of text.split('\n')) {
		const m = l.match(/^\s*[0-9.]+%\s+([0-9]+)\s+(\S+)\s+(\S+)\s+\[.\] (\S+)\s*$/);
		if (!m || +m[1] < total / 200)
			continue;
		const key = m[2] + ' | ' + m[3] + ' | ' + m[4];
		seen.push(key + ' ' + m[1]);
		if (rows.get(key) !== +m[1])
			bad.push(key + ': ' + rows.get(key) + ', report ' + m[1]);
	}
	check(seen.length > 2 && !bad.length, "the rows (command | shared object | symbol) have " +
	      "report's samples: " + seen.join(', '), bad.join('; ') || 'no rows');
	await page.locator(first + 'th', { hasText: 'Command' }).click();
	const comms = await page.locator(first + 'tbody td.comm').allTextContents();
	check(comms.length > 3 && comms.every((n, i) => !i || comms[i - 1] <= n),
	      'a click on Command sorts the table by command', comms.slice(0, 4).join(', '));
	await finish(s, c, png);
});
