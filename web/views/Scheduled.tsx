import { useState } from 'preact/hooks';
import { CustomTimeForm } from '../compose/CustomTime';
import { cancelScheduled, deleteReminder, describeTime, editScheduled, remindersInOrder, rescheduleScheduled, scheduledInOrder, suggestedTimes } from '../compose/scheduled';
import type { ScheduledMessage } from '../types';
import { reportError } from '../ui/Toasts';
import { recipientLine, SavedMessageList } from './SavedMessages';

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
 * and its text; edited in the compose box, given another time, or cancelled (deleted). Their
 * reminders follow, each with the direct message it will be, deletable.
 */
export function ScheduledMessages() {
  const [moving, setMoving] = useState<number | null>(null);
  return (
    <SavedMessageList
      title="Scheduled messages"
      empty="No scheduled messages. The menu beside the Send button schedules a message for later."
      messages={scheduledInOrder().map((message) => {
        const to = recipientLine(message.type, typeof message.to === 'number' ? [message.to] : message.to, message.topic ?? '');
        const when = describeTime(new Date(message.scheduled_delivery_timestamp * 1000));
        return {
          key: message.scheduled_message_id,
          recipient: to,
          time: when,
          rendered: message.rendered_content,
          content: message.content,
          note: message.failed ? 'Not sent: give it a new time' : undefined,
          below: moving === message.scheduled_message_id && <Reschedule message={message} label={to} onDone={() => setMoving(null)} />,
          actions: (
            <>
              <button type="button" class="primary" aria-label={`Edit the message to ${to} scheduled for ${when}`} onClick={() => editScheduled(message)}>
                Edit
              </button>
              <button type="button" aria-label={`Reschedule the message to ${to} scheduled for ${when}`} onClick={() => setMoving(message.scheduled_message_id)}>
                Reschedule
              </button>
              <button type="button" aria-label={`Delete the message to ${to} scheduled for ${when}`} onClick={() => cancelScheduled(message.scheduled_message_id).catch(reportError)}>
                Delete
              </button>
            </>
          ),
        };
      })}
      more={{
        title: 'Reminders',
        messages: remindersInOrder().map((reminder) => {
          const when = describeTime(new Date(reminder.scheduled_delivery_timestamp * 1000));
          return {
            key: reminder.reminder_id,
            recipient: 'A reminder to you',
            time: when,
            rendered: reminder.rendered_content,
            content: reminder.content,
            note: reminder.failed ? 'Not sent' : undefined,
            actions: (
              <button type="button" aria-label={`Delete the reminder for ${when}`} onClick={() => deleteReminder(reminder.reminder_id).catch(reportError)}>
                Delete
              </button>
            ),
          };
        }),
      }}
    />
  );
}
