import 'katex/dist/katex.min.css';
import './styles.css';
import { startEarlyRequests } from './app/early';

// The first requests go out before the app's code has arrived (the page preloads it alongside).
startEarlyRequests();
void import('./app/start');
