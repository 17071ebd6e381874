import 'katex/dist/katex.min.css';
import './styles.css';
import { earlyRequestsSent, startEarlyRequests } from './app/early';

// The page's own script sent the first requests; a page without it (an old copy) sends them here.
if (!earlyRequestsSent()) startEarlyRequests();
void import('./app/start');
