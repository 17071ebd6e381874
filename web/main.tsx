import 'katex/dist/katex.min.css';
import './styles.css';
import { earlyRequestsSent, startEarlyRequests } from './app/early';

// The page's own script sent the first requests; where it did not run (a proxy's stricter policy), they go from here.
if (!earlyRequestsSent()) startEarlyRequests();
void import('./app/start');
