import { requiredFields } from './misconfigured';
import type { Integration } from './types';

/** Zabbix's webhook media type, with the script Zulip's documentation gives (its fields, by name). */
export const zabbix: Integration = {
  name: 'zabbix',
  displayName: 'Zabbix',
  handle(request) {
    const notice =
      `Hi there! Your bot ${request.bot.full_name} just received a Zabbix payload that is missing\n` +
      'some data that Zulip requires. This usually indicates a configuration issue\n' +
      'in your Zabbix webhook settings. Please make sure that you set the\n' +
      'script correctly and provide all the required parameters\n' +
      'when configuring the Zabbix webhook. Contact {support} if you\nneed further help!';
    const f = requiredFields(request, request.json(), ['hostname', 'severity', 'status', 'item', 'trigger', 'link'], notice);
    return { topic: f.hostname, content: `${f.status} (${f.severity}) alert on [${f.hostname}](${f.link}):\n* ${f.trigger}\n* ${f.item}` };
  },
};
