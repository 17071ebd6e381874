/**
 * The page's own script, written into the page ahead of the app's files (lib/web/build.ts
 * builds it on its own; the page's security policy names it by its hash): it sends the first
 * requests while the browser is still fetching the app.
 */
import { startEarlyRequests } from './app/early';

startEarlyRequests();
