import { requiredFields } from './misconfigured';
import type { Integration } from './types';

/** UptimeRobot's alert contacts of type webhook, whose payload the user writes from UptimeRobot's variables. */
export const uptimerobot: Integration = {
  name: 'uptimerobot',
  displayName: 'UptimeRobot',
  eventTypes: ['up', 'down'],
  handle(request) {
    const p = request.json();
    const type: string = p.alert_type_friendly_name;
    const notice =
      `Hi there! Your bot ${request.bot.full_name} just received a UptimeRobot payload that is missing\n` +
      'some data that Zulip requires. This usually indicates a configuration issue\n' +
      'in your UptimeRobot webhook settings. Please make sure that you set the required parameters\n' +
      'when configuring the UptimeRobot webhook. Contact {support} if you\nneed further help!';
    if (type === 'Up') {
      const f = requiredFields(request, p, ['monitor_friendly_name', 'monitor_url', 'alert_details', 'alert_friendly_duration'], notice);
      const content = `${f.monitor_friendly_name} (${f.monitor_url}) is back UP (${f.alert_details}).\nIt was down for ${f.alert_friendly_duration}.`;
      return { topic: f.monitor_friendly_name, content, event: 'up' };
    }
    if (type === 'Down') {
      const f = requiredFields(request, p, ['monitor_friendly_name', 'monitor_url', 'alert_details'], notice);
      return { topic: f.monitor_friendly_name, content: `${f.monitor_friendly_name} (${f.monitor_url}) is DOWN (${f.alert_details}).`, event: 'down' };
    }
    // Zulip fails on other alert types (its view has no message for them); so does Stoa.
    throw new TypeError(`UptimeRobot alert type ${type}`);
  },
};
