// SPDX-License-Identifier: MIT
// What the render tests' browser checks share: Debian's chromium, headless and offline,
// driven by playwright-core, a page whose console errors are collected, and [OK]/[FAIL] lines.
'use strict';
const { chromium } = require('playwright-core');

exports.open = async function () {
	const browser = await chromium.launch({
		executablePath: '/usr/bin/chromium',
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
		       '--disable-component-update', '--no-first-run'],
	});
	const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
	const errors = [];
	page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
	page.on('pageerror', e => errors.push(String(e)));
	return { browser, page, errors };
};

exports.checker = function (prefix) {
	const c = { failed: 0 };
	c.check = (ok, what, why) => {
		if (!ok)
			c.failed++;
		console.log(ok ? '[OK] ' + prefix + ': ' + what : '[FAIL] ' + prefix + ': ' + what + ': ' + why);
	};
	return c;
};

// the end of every check: the screenshot, no console error, the exit status
exports.finish = async function (s, c, png) {
	await s.page.screenshot({ path: png });
	c.check(s.errors.length === 0, 'no console errors', s.errors.join(' | '));
	await s.browser.close();
	process.exit(c.failed ? 1 : 0);
};

// run the async body; an exception is one [FAIL] line and exit 1
exports.main = function (prefix, body) {
	body().catch(e => {
		console.log('[FAIL] ' + prefix + ': ' + e.message.split('\n')[0]);
		process.exit(1);
	});
};
