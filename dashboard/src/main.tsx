import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import './index.css';

// "Listening on http://0.0.0.0:8080" means every interface, not an address to browse to: sign-in
// with GitHub returns to localhost (GITHUB_CALLBACK_URL's default), and the session it leaves in
// sessionStorage belongs to that origin alone. localhost is the same machine.
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
