import type { Integration } from './types';

/** TeamCity's tcWebHooks plugin in its "Legacy Webhook (JSON)" format; personal builds go to the person who started them. */

type Payload = any;

function property(build: Payload, name: string): string | undefined {
  return (build.teamcityProperties as Payload[]).find((p) => p.name === name)?.value;
}

function statusText(build: Payload): string {
  const result: string = build.buildResult;
  const delta: string = build.buildResultDelta;
  if (result === 'success') return delta === 'fixed' ? 'has been fixed! :thumbs_up:' : 'was successful! :thumbs_up:';
  if (result === 'failure') {
    return delta === 'broken' ? `is broken with status ${build.buildStatus}! :thumbs_down:` : `is still broken with status ${build.buildStatus}! :thumbs_down:`;
  }
  if (result === 'running') return 'has started.';
  throw new TypeError(`TeamCity build result ${result}`);
}

export const teamcity: Integration = {
  name: 'teamcity',
  displayName: 'TeamCity',
  handle(request) {
    const p = request.json();
    if (!('build' in p)) {
      // Another of the plugin's formats (Slack's ...): the owner is told which one to choose.
      request.tellOwner(
        `Hi there! Your bot ${request.bot.full_name} just received a TeamCity payload in a\n` +
          "format that Zulip doesn't recognize. This usually indicates a\n" +
          'configuration issue in your TeamCity webhook settings. Please make sure\n' +
          'that you set the **Payload Format** option to **Legacy Webhook (JSON)**\n' +
          `in your TeamCity webhook configuration. Contact ${request.supportAddress()} if you\nneed further help!`,
      );
      return null;
    }
    const build = p.build;
    const name: string = build.buildFullName;
    const url: string = build.buildStatusUrl;
    const body = `${name} build ${build.buildNumber} ${statusText(build)} See [changes](${url}&tab=buildChangesDiv) and [build log](${url}).`;
    const topic = 'branchDisplayName' in build ? `${name} (${build.branchDisplayName})` : name;
    if (property(build, 'env.BUILD_IS_PERSONAL') === 'true') {
      // TeamCity names who started it by full name, and by username in a property.
      const fullName = String(build.triggeredBy).split(';')[0];
      let person = request.people.guess(fullName);
      if (!person) {
        const username = property(build, 'teamcity.build.triggeredBy.username');
        if (username !== undefined) person = request.people.guess(username);
      }
      if (!person) return null;
      return { topic, content: `Your personal build for ${body}`, directTo: person.email };
    }
    return { topic, content: body };
  },
};
