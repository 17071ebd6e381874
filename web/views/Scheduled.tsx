import { useState } from 'preact/hooks';
import { CustomTimeForm } from '../compose/CustomTime';
import { cancelScheduled, describeTime, editScheduled, rescheduleScheduled, scheduledInOrder, suggestedTimes } from '../compose/scheduled';
import { channelName, session, userName } from '../state';
import type { ScheduledMessage } from '../types';
import { reportError } from '../ui/Toasts';

function recipientOf(message: ScheduledMessage, self: number): string {
  if (message.type === 'stream') return `#${channelName(message.to as number) ?? 'unknown channel'} › ${message.topic || 'general chat'}`;
  const others = (message.to as number[]).filter((id) => id !== self);
  return others.length ? `You and ${others.map(userName).join(', ')}` : 'You and yourself';
}

/** Another time for a scheduled message: one of the suggested ones, or one's own. */
function Reschedule({ message, label, onDone }: { message: ScheduledMessage; label: string; onDone: () => void }) {
  const move = (time: Date) => {
    rescheduleScheduled(message.scheduled_message_id, time).then(onDone, reportError);
  };
  return (
    <div class="reschedule" role="group" aria-label={`New time for the message to ${label}`}>
      {suggestedTimes().map((time) => (
        <button type="button" key={time.getTime()} onClick={() => move(time)}>
          {describeTime(time)}
        </button>
      ))}
      <CustomTimeForm label="A time of your choice" onPick={move}>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </CustomTimeForm>
    </div>
  );
}

/**
 * The person's scheduled messages, soonest first, as Zulip lists them: where each goes, when,
 * and its text; edited in the compose box, given another time, or cancelled (deleted).
 */
export function ScheduledMessages() {
  const self = session.value?.user_id ?? 0;
  const [moving, setMoving] = useState<number | null>(null);
  const list = scheduledInOrder();
  return (
    <div class="panel" role="region" aria-label="Scheduled messages">
      <h1 class="view-title">Scheduled messages</h1>
      {list.length === 0 && <p class="feed-empty">No scheduled messages. The menu beside the Send button schedules a message for later.</p>}
      <ul class="item-list scheduled-list">
        {list.map((message) => {
          const to = recipientOf(message, self);
          const when = describeTime(new Date(message.scheduled_delivery_timestamp * 1000));
          return (
            <li key={message.scheduled_message_id}>
              <div class="scheduled-body">
                <p class="draft-recipient">
                  {to} <span class="draft-time">{when}</span>
                  {message.failed && <span class="scheduled-failed"> Not sent: give it a new time</span>}
                </p>
                {/* The server's rendering of the message, as messages are shown. */}
                <div class="rendered_markdown" dangerouslySetInnerHTML={{ __html: message.rendered_content }} />
                {moving === message.scheduled_message_id && <Reschedule message={message} label={to} onDone={() => setMoving(null)} />}
              </div>
              <div class="channel-actions">
                <button type="button" class="primary" aria-label={`Edit the message to ${to} scheduled for ${when}`} onClick={() => editScheduled(message)}>
                  Edit
                </button>
                <button type="button" aria-label={`Reschedule the message to ${to} scheduled for ${when}`} onClick={() => setMoving(message.scheduled_message_id)}>
                  Reschedule
                </button>
                <button
                  type="button"
                  aria-label={`Delete the message to ${to} scheduled for ${when}`}
                  onClick={() => cancelScheduled(message.scheduled_message_id).catch(reportError)}
                >
                  Delete
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
