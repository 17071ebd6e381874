import { lazyComponent } from '../ui/lazy';
import type { Message } from '../types';

/** Whether the message carries a widget: its submessages start with one of msg_type `widget`. */
export function hasWidget(message: Message): boolean {
  return Boolean(message.submessages?.some((s) => s.msg_type === 'widget'));
}

/** Where a poll or to-do list is drawn; the widgets' code is asked for only when a message has one. */
export const WidgetSlot = lazyComponent<{ message: Message }>(
  () => import('./Widget').then((m) => m.MessageWidget),
  () => <div class="widget" aria-busy="true" />,
);
