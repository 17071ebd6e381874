import { num, str } from './payload';
import type { Integration } from './types';

/** Airbyte: a sync job's result with its counts, in a "workspace - connection" topic. */
export const airbyte: Integration = {
  name: 'airbyte',
  displayName: 'Airbyte',
  handle(request) {
    const payload = request.json();
    // Airbyte's "test notification" carries only a text.
    if (payload === null || typeof payload !== 'object' || !('data' in payload)) return { topic: 'Airbyte notification', content: str(payload, 'text') };
    const data = payload.data;
    const connection = data?.connection;
    const source = data?.source;
    const destination = data?.destination;
    const succeeded = data?.success;
    if (typeof succeeded !== 'boolean') str(data, 'success');
    const link = (part: any) => `[${str(part, 'name')}](${str(part, 'url')})`;
    let content =
      `${succeeded ? ':green_circle:' : ':red_circle:'} Airbyte sync **${succeeded ? 'succeeded' : 'failed'}** for ${link(connection)}.\n` +
      `* **Source:** ${link(source)}\n` +
      `* **Destination:** ${link(destination)}\n` +
      `* **Records:** ${num(data, 'recordsEmitted')} emitted, ${num(data, 'recordsCommitted')} committed\n` +
      `* **Bytes:** ${str(data, 'bytesEmittedFormatted')} emitted, ${str(data, 'bytesCommittedFormatted')} committed\n` +
      `* **Duration:** ${str(data, 'durationFormatted')}\n`;
    if (!succeeded) content += `\n**Error message:** ${str(data, 'errorMessage')}`;
    return { topic: `${str(data?.workspace, 'name')} - ${str(connection, 'name')}`, content };
  },
};
