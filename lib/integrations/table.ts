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
import { bitbucket2 } from './bitbucket2';
import { bitbucket } from './bitbucket';
import { travis } from './travis';
import { pagerduty } from './pagerduty';
import { opsgenie } from './opsgenie';
import { heroku } from './heroku';
import { statuspage } from './statuspage';
import { stripe } from './stripe';
import { trello } from './trello';
import { azuredevops } from './azuredevops';
import { linear } from './linear';
import { newrelic } from './newrelic';
import { uptimerobot } from './uptimerobot';
import { zabbix } from './zabbix';
import { teamcity } from './teamcity';
import { buildbot } from './buildbot';
import { semaphore } from './semaphore';
import { sonarqube } from './sonarqube';
import { netlify } from './netlify';
import { slack } from './slack';
import { papertrail } from './papertrail';
import { pingdom } from './pingdom';
import { updown } from './updown';
import { taiga } from './taiga';
import { basecamp } from './basecamp';
import { front } from './front';
import { intercom } from './intercom';
import { freshstatus } from './freshstatus';
import { wekan } from './wekan';
import { ansibletower } from './ansibletower';
import { patreon } from './patreon';
import { beanstalk } from './beanstalk';
import { canarytoken, codeship, crashlytics, dialogflow, flock, dropbox, homeassistant, insping, opencollective, mention, appfollow, transifex, splunk, freshping, hellosign, jotform } from './small-services';
import { zapier, ifttt } from './zapier';
import type { Integration } from './types';
import { zendesk } from './zendesk';
import { wordpress } from './wordpress';
import { thinkst } from './thinkst';
import { rundeck } from './rundeck';
import { rhodecode } from './rhodecode';
import { lidarr, radarr, sonarr } from './servarr';
import { gocd } from './gocd';
import { groove } from './groove';
import { harbor } from './harbor';
import { raygun } from './raygun';
import { librato } from './librato';
import { reviewboard } from './reviewboard';
import { freshdesk } from './freshdesk';
import { pivotal } from './pivotal';
import { clubhouse } from './clubhouse';

/** Every integration Stoa serves, by the name in its URL. */
export const INTEGRATIONS: ReadonlyMap<string, Integration> = new Map(
  [
    json,
    helloworld,
    slackIncoming,
    github,
    gitlab,
    gogs,
    gitea,
    sentry,
    grafana,
    alertmanager,
    circleci,
    jira,
    bitbucket3,
    bitbucket2,
    bitbucket,
    travis,
    pagerduty,
    opsgenie,
    heroku,
    statuspage,
    stripe,
    trello,
    azuredevops,
    linear,
    newrelic,
    uptimerobot,
    zabbix,
    teamcity,
    buildbot,
    semaphore,
    sonarqube,
    netlify,
    slack,
    papertrail,
    pingdom,
    updown,
    zapier,
    ifttt,
    taiga,
    basecamp,
    front,
    intercom,
    freshstatus,
    wekan,
    ansibletower,
    patreon,
    beanstalk,
    canarytoken,
    codeship,
    crashlytics,
    dialogflow,
    flock,
    dropbox,
    homeassistant,
    insping,
    opencollective,
    mention,
    appfollow,
    transifex,
    splunk,
    airbrake,
    errbit,
    airbyte,
    appveyor,
    beeminder,
    delighted,
    gosquared,
    greenhouse,
    zendesk,
    wordpress,
    thinkst,
    rundeck,
    rhodecode,
    sonarr,
    radarr,
    lidarr,
    freshping,
    hellosign,
    jotform,
    gocd,
    groove,
    harbor,
    raygun,
    librato,
    reviewboard,
    freshdesk,
    pivotal,
    clubhouse,
  ].flatMap((integration) =>
    [integration.name, ...(integration.aliases ?? [])].map((name) => [name, integration] as const),
  ),
);
