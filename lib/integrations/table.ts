import { airbrake, errbit } from './airbrake';
import { airbyte } from './airbyte';
import { alertmanager } from './alertmanager';
import { appveyor } from './appveyor';
import { beeminder } from './beeminder';
import { bitbucket3 } from './bitbucket3';
import { circleci } from './circleci';
import { delighted } from './delighted';
import { github } from './github';
import { grafana } from './grafana';
import { sentry } from './sentry';
import { gitea, gogs } from './gogs';
import { gitlab } from './gitlab';
import { gosquared } from './gosquared';
import { greenhouse } from './greenhouse';
import { helloworld } from './helloworld';
import { jira } from './jira';
import { json } from './json';
import { slackIncoming } from './slack-incoming';
import type { Integration } from './types';
import { zendesk } from './zendesk';

/** Every integration Stoa serves, by the name in its URL. */
export const INTEGRATIONS: ReadonlyMap<string, Integration> = new Map(
  [
    json, helloworld, slackIncoming, github, gitlab, gogs, gitea, sentry, grafana, alertmanager, circleci, jira, bitbucket3,
    airbrake, errbit, airbyte, appveyor, beeminder, delighted, gosquared, greenhouse, zendesk,
  ].flatMap((integration) =>
    [integration.name, ...(integration.aliases ?? [])].map((name) => [name, integration] as const),
  ),
);
