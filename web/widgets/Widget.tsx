import { useState } from 'preact/hooks';
import { post } from '../api';
import { session, userName } from '../state';
import type { Message } from '../types';
import { reportError } from '../ui/Toasts';
import { widgetOf, type Poll, type TodoList } from './data';

/**
 * Polls and to-do lists drawn in place of their message's text, as Zulip draws them. Every
 * change is a submessage: the server tells everyone who has the message, and each client
 * draws the widget again from the message's submessages.
 */

async function send(message: Message, event: Record<string, unknown>): Promise<void> {
  try {
    await post('/json/submessage', { message_id: message.id, msg_type: 'widget', content: JSON.stringify(event) });
  } catch (err) {
    reportError(err);
  }
}

/** A line of text and a button that adds it (a poll's option, a list's task). */
function AddForm({ fields, button, onAdd }: { fields: string[]; button: string; onAdd: (values: string[]) => void }) {
  const [values, setValues] = useState(fields.map(() => ''));
  const submit = (event: Event) => {
    event.preventDefault();
    if (values[0].trim() === '') return;
    onAdd(values.map((v) => v.trim()));
    setValues(fields.map(() => ''));
  };
  return (
    <form class="widget-add" onSubmit={submit}>
      {fields.map((label, i) => (
        <input
          key={label}
          aria-label={label}
          placeholder={label}
          value={values[i]}
          maxLength={200}
          onInput={(e) => setValues(values.map((v, j) => (j === i ? e.currentTarget.value : v)))}
        />
      ))}
      <button type="submit" disabled={values[0].trim() === ''}>
        {button}
      </button>
    </form>
  );
}

/** The heading of a widget, which its author may edit (a poll's question, a list's title). */
function Heading({ text, empty, label, editable, onSave }: { text: string; empty: string; label: string; editable: boolean; onSave: (text: string) => void }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(text);
  if (editing) {
    const save = (event: Event) => {
      event.preventDefault();
      setEditing(false);
      if (draft.trim() !== text) onSave(draft.trim());
    };
    return (
      <form class="widget-heading-editor" onSubmit={save}>
        <input
          aria-label={label}
          value={draft}
          maxLength={200}
          ref={(el) => el?.focus()}
          onInput={(e) => setDraft(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              setEditing(false);
            }
          }}
        />
        <button type="submit">Save</button>
        <button type="button" onClick={() => setEditing(false)}>
          Cancel
        </button>
      </form>
    );
  }
  return (
    <div class="widget-heading">
      <h4>{text || <span class="widget-empty">{empty}</span>}</h4>
      {editable && (
        <button
          type="button"
          class="link-button"
          onClick={() => {
            setDraft(text);
            setEditing(true);
          }}
        >
          {label}
        </button>
      )}
    </div>
  );
}

function PollView({ message, poll, self }: { message: Message; poll: Poll; self: number }) {
  const author = message.sender_id === self;
  return (
    <div class="widget poll-widget" role="group" aria-label={`Poll: ${poll.question || 'no question'}`}>
      <Heading text={poll.question} empty="No question" label="Edit question" editable={author} onSave={(question) => send(message, { type: 'question', question })} />
      <ul class="poll-options">
        {poll.options.map((option) => {
          const mine = option.voters.includes(self);
          const names = option.voters.map((id) => (id === self ? 'You' : userName(id))).join(', ');
          return (
            <li key={option.key}>
              <button
                type="button"
                class={`poll-vote${mine ? ' voted' : ''}`}
                aria-pressed={mine}
                aria-label={`${option.text}: ${option.voters.length} ${option.voters.length === 1 ? 'vote' : 'votes'}`}
                onClick={() => send(message, { type: 'vote', key: option.key, vote: mine ? -1 : 1 })}
              >
                {option.voters.length}
              </button>
              <span class="poll-option-text">{option.text}</span>
              {names && <span class="poll-voters">{names}</span>}
            </li>
          );
        })}
      </ul>
      <AddForm fields={['New option']} button="Add option" onAdd={([option]) => send(message, { type: 'new_option', idx: poll.nextIdx, option })} />
    </div>
  );
}

function TodoView({ message, list, self }: { message: Message; list: TodoList; self: number }) {
  const author = message.sender_id === self;
  return (
    <div class="widget todo-widget" role="group" aria-label={`To-do list: ${list.title || 'no title'}`}>
      <Heading text={list.title} empty="Task list" label="Edit title" editable={author} onSave={(title) => send(message, { type: 'new_task_list_title', title })} />
      <ul class="todo-tasks">
        {list.tasks.map((task) => (
          <li key={task.key} class={task.completed ? 'done' : ''}>
            <label>
              <input type="checkbox" checked={task.completed} onChange={() => send(message, { type: 'strike', key: task.key })} />
              <span>
                <strong>{task.task}</strong>
                {task.desc && <span class="todo-desc">: {task.desc}</span>}
              </span>
            </label>
          </li>
        ))}
      </ul>
      <AddForm
        fields={['New task', 'Description']}
        button="Add task"
        onAdd={([task, desc]) => send(message, { type: 'new_task', key: list.nextIdx, task, desc, completed: false })}
      />
    </div>
  );
}

/** The message's widget, or null when its submessages make none. */
export function MessageWidget({ message }: { message: Message }) {
  const self = session.value?.user_id ?? 0;
  const widget = widgetOf(message.submessages, message.sender_id, self);
  if (!widget) return null;
  return widget.kind === 'poll' ? <PollView message={message} poll={widget} self={self} /> : <TodoView message={message} list={widget} self={self} />;
}
