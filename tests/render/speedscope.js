// SPDX-License-Identifier: MIT
// tinyperf's speedscope file against npm's speedscope package:
//   node speedscope.js JSON HOT_FUNCTION PNG      (NODE_PATH: speedscope, ajv, playwright-core)
// valid against the package's file-format-schema.json (ajv); speedscope's own page, opened
// from file:// in headless Chromium, loads it with no console error and lists HOT_FUNCTION
// in its Sandwich view; a screenshot.
'use strict';
const fs = require('fs');
const path = require('path');
const Ajv = require('ajv');
const { open, checker, finish, main } = require('./chromium.js');

const [json, hot, png] = process.argv.slice(2);
const release = path.join(path.dirname(require.resolve('speedscope/package.json')), 'dist', 'release');
const c = checker('speedscope'), check = c.check;

main('speedscope', async () => {
	const schema = JSON.parse(fs.readFileSync(path.join(release, 'file-format-schema.json')));
	const validate = new Ajv({ strict: false }).compile(schema);
	const ok = validate(JSON.parse(fs.readFileSync(json)));
	check(ok, 'valid against speedscope\'s file-format-schema.json (ajv)',
	      JSON.stringify(validate.errors && validate.errors.slice(0, 2)));

	const { browser, page, errors } = await open();
	await page.goto('file://' + path.join(release, 'index.html'));
	await page.locator('input[type=file]').setInputFiles(json);
	await page.getByText('Sandwich').first().click({ timeout: 15000 });
	const cell = page.getByText(hot, { exact: true }).first();
	let shown = true;
	try { await cell.waitFor({ timeout: 10000 }); } catch (e) { shown = false; }
	check(shown, 'speedscope\'s page loads the file and lists ' + hot, 'not in its Sandwich table');
	await finish({ browser, page, errors }, c, png);
});
