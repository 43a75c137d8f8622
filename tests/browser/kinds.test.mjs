// Vision, diffusion and speech jobs on the page (issue 16): one per kind, opened from its share link.
// The page's estimate and offers are the CLI's, byte for byte; it shows images/s, seconds per image
// or the real-time factor; its inputs are the kind's (image size, steps, images × epochs, hours of
// audio) and the token widgets are gone; an edit of a new key lands in the address bar's link.
//   node --test tests/browser/kinds.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  artifact, cliEstimate, cliLink, cliRecommend, clickWidget, findWidget, hooks, openTestPage, startPageAndBrowser, stopPageAndBrowser, waitReady, waitScenario, widgets,
} from './support.mjs';

const wide = { width: 1280, height: 800 };
const rightPane = { x: 900, y: 600 };
let server, url, chromium;

before(async () => ({ server, url, chromium } = await startPageAndBrowser()));
after(() => stopPageAndBrowser({ server, chromium }));


// The page's numbers are the CLI's, and the figure on screen is the CLI's value.
async function matchesCli(page, args, valueTag, value) {
  assert.equal(await hooks(page, 'resultsText'), cliEstimate(args).text, `estimate differs from the CLI (${args.join(' ')})`);
  assert.equal(await hooks(page, 'recommendationText'), cliRecommend(args).text, `offers differ from the CLI (${args.join(' ')})`);
  const w = await findWidget(page, valueTag, { scrollAt: rightPane });
  assert.equal(Number(w.text), value, `${valueTag} on screen`);
}

async function tokenWidgetsGone(page) {
  const w = await widgets(page);
  for (const tag of ['seq_input', 'split_check', 'prompt_input', 'kv_combo', 'engine_combo', 'train_tokens_check', 'loss_combo', 'framework_combo'])
    assert.equal(w[tag], undefined, `token widget ${tag} is hidden`);
}

describe('vision, diffusion and speech jobs on the page', () => {
  test('ResNet-50 pretraining: images/s and the 90-epoch time, images × epochs as inputs', async () => {
    const args = ['--model', 'resnet-50', '--task', 'pretrain', '--batch_size', '256', '--gpu', 'a100_80_sxm',
      '--train_images', '1281167', '--epochs', '90'];
    const { page, problems } = await openTestPage(chromium.browser, url, { viewport: wide, hash: cliLink(args) });
    await waitReady(page);
    const est = cliEstimate(args).json;
    await matchesCli(page, args, 'images_per_s_value', est.throughput.images_per_s);
    await findWidget(page, 'image_size_check');
    await findWidget(page, 'train_images_check');
    assert.equal((await findWidget(page, 'kind_epochs_input')).text, '90');
    await tokenWidgetsGone(page);
    // One more epoch with the + button: the scenario, the estimate and the link follow.
    await clickWidget(page, 'kind_epochs_plus');
    await waitScenario(page, 'epochs', 91);
    const more = [...args.slice(0, -1), '91'];
    assert.equal(await hooks(page, 'resultsText'), cliEstimate(more).text, 'the edited scenario is the CLI\'s');
    await page.waitForFunction((h) => location.hash === h, cliLink(more), { timeout: 10000 });
    await page.screenshot({ path: artifact('kinds-resnet50.png') });
    assert.deepEqual(problems, []);
  });

  test('SDXL at 1024 px, 30 steps on an L4: seconds per image; steps and image size as inputs', async () => {
    const args = ['--model', 'sdxl', '--task', 'inference', '--image_size', '1024', '--steps', '30', '--gpu', 'l4'];
    const { page, problems } = await openTestPage(chromium.browser, url, { viewport: wide, hash: cliLink(args) });
    await waitReady(page);
    const est = cliEstimate(args).json;
    await matchesCli(page, args, 'seconds_per_image_value', est.throughput.seconds_per_image);
    assert.equal((await findWidget(page, 'steps_input')).text, '30');
    assert.equal((await findWidget(page, 'image_size_input')).text, '1024');
    await tokenWidgetsGone(page);
    await page.screenshot({ path: artifact('kinds-sdxl.png') });
    assert.deepEqual(problems, []);
  });

  test('Whisper large-v3 on a T4: the real-time factor; hours of audio as the job', async () => {
    const args = ['--model', 'whisper-large-v3', '--gpu', 't4', '--audio_seconds', '36000'];
    const { page, problems } = await openTestPage(chromium.browser, url, { viewport: wide, hash: cliLink(args) });
    await waitReady(page);
    const est = cliEstimate(args).json;
    await matchesCli(page, args, 'realtime_factor_value', est.throughput.realtime_factor);
    await findWidget(page, 'audio_seconds_check');
    await tokenWidgetsGone(page);
    const w = await widgets(page);
    assert.equal(w.image_size_check, undefined, 'no image size for speech');
    await page.screenshot({ path: artifact('kinds-whisper.png') });
    assert.deepEqual(problems, []);
  });
});
