// Keyboard use of the page (issue 15 item 7), with real key events in Chromium: Tab and Shift-Tab
// move between the inputs, arrow keys move between widgets and through a combo's items, Enter and
// Space press buttons and pick items, Escape closes a combo unchanged. What the keys set must
// give the same results as the CLI given the same flags.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cliEstimate, clickWidget, hooks, openTestPage, pressKey, startPageAndBrowser, stopPageAndBrowser, waitFocus, waitReady, waitScenario, widgets,
} from './support.mjs';

const viewport = { width: 1280, height: 800 };
let server, url, chromium;

before(async () => ({ server, url, chromium } = await startPageAndBrowser()));
after(() => stopPageAndBrowser({ server, chromium }));

const openPage = () => openTestPage(chromium.browser, url, { viewport });

// The items of an open combo tagged `prefix`, top to bottom.
async function itemsInOrder(page, prefix) {
  const w = await widgets(page);
  return Object.keys(w).filter((k) => k.startsWith(prefix)).sort((a, b) => w[a].y - w[b].y);
}

describe('keyboard', () => {
  test('Tab and Shift-Tab move between inputs; typed values confirmed with Enter equal the CLI', async () => {
    const { page, problems } = await openPage();
    await waitReady(page);
    await clickWidget(page, 'batch_input');
    assert.equal(await waitFocus(page, 'batch_input'), 'batch_input');
    await pressKey(page, 'Tab');
    assert.equal(await waitFocus(page, 'seq_input'), 'seq_input', 'Tab goes to the next input');
    await page.keyboard.type('4096');  // Tab selects the field's text: typing replaces it
    await pressKey(page, 'Enter');
    await waitScenario(page, 'seq_len', 4096);
    await pressKey(page, 'Shift+Tab');
    assert.equal(await waitFocus(page, 'batch_input'), 'batch_input', 'Shift-Tab goes back');
    await page.keyboard.type('8');
    await pressKey(page, 'Enter');
    await waitScenario(page, 'batch_size', 8);
    assert.equal(await hooks(page, 'resultsText'), cliEstimate(['--batch_size', '8', '--seq_len', '4096']).text);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('arrow keys reach the stepper buttons; Enter and Space press them', async () => {
    const { page, problems } = await openPage();
    await waitReady(page);
    await clickWidget(page, 'batch_input');
    assert.equal(await waitFocus(page, 'batch_input'), 'batch_input');  // the click drawn before typing
    await page.keyboard.type('8');
    await pressKey(page, 'Enter');
    await waitScenario(page, 'batch_size', 8);
    await pressKey(page, 'ArrowRight');
    assert.equal(await waitFocus(page, 'batch_minus'), 'batch_minus', 'ArrowRight goes from the input to its "-" button');
    await pressKey(page, 'Enter');
    await waitScenario(page, 'batch_size', 4);  // the batch stepper halves and doubles
    await pressKey(page, 'Space');
    await waitScenario(page, 'batch_size', 2);
    await pressKey(page, 'ArrowRight');
    assert.equal(await waitFocus(page, 'batch_plus'), 'batch_plus');
    await pressKey(page, 'Space');
    await waitScenario(page, 'batch_size', 4);
    assert.equal(await hooks(page, 'resultsText'), cliEstimate(['--batch_size', '4']).text);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('arrow keys walk up to a combo; Enter opens it on the current value, arrows move, Escape cancels, Enter picks', async () => {
    const { page, problems } = await openPage();
    await waitReady(page);
    await clickWidget(page, 'batch_input');
    assert.equal(await waitFocus(page, 'batch_input'), 'batch_input');
    await pressKey(page, 'Escape');  // leaves text editing; the focus stays on the input
    // Up (or back down, should a press on a loaded machine repeat past it) to the weights combo.
    const seen = ['batch_input'];
    const w = await widgets(page);
    for (let i = 0; i < 12 && seen.at(-1) !== 'dtype_combo'; ++i) {
      const here = w[seen.at(-1)];
      await pressKey(page, here && here.y < w.dtype_combo.y ? 'ArrowDown' : 'ArrowUp');
      seen.push(await waitFocus(page, (tag) => tag !== seen.at(-1)));
    }
    assert.equal(seen.at(-1), 'dtype_combo', `the arrow keys walked ${seen.join(' → ')}`);
    assert.ok(new Set(seen).size >= 3, `the walk passed other widgets: ${seen.join(' → ')}`);
    const start = (await hooks(page, 'scenario')).weight_dtype;
    await pressKey(page, 'Enter');
    assert.equal(await waitFocus(page, `dtype_item:${start}`), `dtype_item:${start}`, 'the open combo starts on the current value');
    const items = await itemsInOrder(page, 'dtype_item:');
    const below = (n) => items[items.indexOf(`dtype_item:${start}`) + n];
    await pressKey(page, 'ArrowDown');
    assert.equal(await waitFocus(page, below(1)), below(1));
    await pressKey(page, 'Escape');
    assert.equal(await waitFocus(page, 'dtype_combo'), 'dtype_combo', 'Escape closes the combo');
    assert.equal((await hooks(page, 'scenario')).weight_dtype, start, 'Escape changes nothing');
    await pressKey(page, 'Space');
    assert.equal(await waitFocus(page, `dtype_item:${start}`), `dtype_item:${start}`, 'Space opens it too');
    await pressKey(page, 'ArrowDown');
    await pressKey(page, 'ArrowDown');
    assert.equal(await waitFocus(page, below(2)), below(2));
    await pressKey(page, 'Enter');
    const picked = below(2).slice('dtype_item:'.length);
    await waitScenario(page, 'weight_dtype', picked);
    assert.equal(await hooks(page, 'resultsText'), cliEstimate(['--weight_dtype', picked]).text);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
