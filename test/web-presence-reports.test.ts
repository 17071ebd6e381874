import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NO_CHROMIUM } from './support/chromium';
import { webSuite } from './support/web';

/**
 * The web client's presence reports carry the newest presence change it holds
 * (`last_update_id`), as Zulip's web app's do, so that the server answers each report with
 * what changed since instead of everyone's presence.
 */

const suite = webSuite();

test('a presence report sends the last_update_id the registration gave', { skip: NO_CHROMIUM }, async () => {
  const person = await suite.server.createUser();
  // Someone else was here, so the organization's presence has an update id above 0.
  const other = await suite.server.createUser();
  assert.equal((await other.post('/users/me/presence', { status: 'active' })).status, 200);
  const { page, problems } = await suite.open(person.credentials.email, '', { viewport: { width: 1280, height: 800 } });
  // The page registered and reported as it opened; watched from a reload on.
  const registering = page.waitForResponse((response) => new URL(response.url()).pathname === '/json/register');
  const reporting = page.waitForRequest((request) => new URL(request.url()).pathname === '/json/users/me/presence');
  await page.reload();
  const expected = (await (await registering).json()).presence_last_update_id as number;
  assert.ok(expected > 0, 'the registration names the newest presence change');
  const report = await reporting;
  const form = new URLSearchParams(report.postData() ?? '');
  assert.equal(form.get('last_update_id'), String(expected));
  const answer = await (await report.response())!.json();
  assert.equal(answer.result, 'success');
  // Only what changed since the registration: nothing (this person's report a moment after
  // their last one changes nothing), where a report without it gets both people's presence.
  assert.deepEqual(answer.presences, {});
  assert.deepEqual(problems, []);
});
