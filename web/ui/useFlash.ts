import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * A short word that something was done ("Password changed."), shown for a few seconds. A newer
 * word replaces the one shown together with its timer: a timer left from an earlier word would
 * otherwise clear the newer one early, before anyone (or a test polling the page) had read it.
 */
export function useFlash(ms = 4000): [string, (text: string) => void] {
  const [text, setText] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const say = (said: string) => {
    clearTimeout(timer.current);
    setText(said);
    timer.current = setTimeout(() => setText(''), ms);
  };
  return [text, say];
}
