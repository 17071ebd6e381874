import { useEffect, useState } from 'preact/hooks';
import type { Message } from '../types';

/**
 * Where a poll or to-do list is drawn. The widgets' code is asked for only when a message
 * has one (a separate chunk where the bundle is split).
 */

type WidgetModule = typeof import('./Widget');
let loaded: WidgetModule | undefined;
let loading: Promise<WidgetModule> | undefined;

/** Whether the message carries a widget: its submessages start with one of msg_type `widget`. */
export function hasWidget(message: Message): boolean {
  return Boolean(message.submessages?.some((s) => s.msg_type === 'widget'));
}

export function WidgetSlot({ message }: { message: Message }) {
  const [module, setModule] = useState(loaded);
  useEffect(() => {
    if (module) return;
    loading ??= import('./Widget').then((m) => (loaded = m));
    void loading.then(setModule);
  }, []);
  if (!module) return <div class="widget" aria-busy="true" />;
  return <module.MessageWidget message={message} />;
}
