import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/**
 * A component whose code is fetched when it is first drawn (a chunk of its own where the
 * bundle is split); until then it draws `placeholder`.
 */
export function lazyComponent<P>(load: () => Promise<ComponentType<P>>, placeholder: () => preact.JSX.Element | null = () => null): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  return function Lazy(props: P) {
    const [component, setComponent] = useState(() => loaded);
    useEffect(() => {
      if (component) return;
      loading ??= load().then((c) => (loaded = c));
      void loading.then((c) => setComponent(() => c));
    }, []);
    if (!component) return placeholder();
    const Component = component;
    return <Component {...(props as P & preact.JSX.IntrinsicAttributes)} />;
  };
}
