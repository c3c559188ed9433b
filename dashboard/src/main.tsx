import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import './index.css';

// "Listening on http://0.0.0.0:8080" means every interface; browsers treat 0.0.0.0 as an origin of
// its own, which the broker does not let open the live feed. localhost is the same machine.
if (window.location.hostname === '0.0.0.0') {
  const url = new URL(window.location.href);
  url.hostname = 'localhost';
  window.location.replace(url);
} else {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
