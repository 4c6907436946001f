// trackee's web page: its forms without a reload, the timer ticking, and
// the page kept live by the event stream (/events). The page works without
// this script: every form posts, and the server redirects back.
'use strict';
(() => {
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const status = document.getElementById('live');
  let shownAt = performance.now();

  const say = (text) => { if (status) status.textContent = text; };

  // Replaces each live part of the page with the one in `html`, a whole
  // page as the server wrote it; a sign-in page instead means the session
  // ended, and the browser goes there.
  const apply = (html) => {
    const next = new DOMParser().parseFromString(html, 'text/html');
    if (!next.getElementById('page')) { location.assign('/'); return; }
    for (const part of document.querySelectorAll('[data-live][id]')) {
      const fresh = next.getElementById(part.id);
      if (fresh) part.replaceWith(document.importNode(fresh, true));
    }
    document.title = next.title;
    shownAt = performance.now();
  };

  let refreshing = null;
  let again = false;
  const refresh = async () => {
    if (refreshing) { again = true; return refreshing; }
    refreshing = (async () => {
      do {
        again = false;
        const answer = await fetch(location.pathname + location.search, { credentials: 'same-origin', cache: 'no-store' });
        apply(await answer.text());
      } while (again);
    })().finally(() => { refreshing = null; });
    return refreshing;
  };

  const newKey = () => {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return 'web-' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  };

  document.addEventListener('submit', async (event) => {
    const form = event.target;
    if (!form.hasAttribute('data-async')) return;
    event.preventDefault();
    if (form.dataset.busy) return;
    form.dataset.busy = '1';
    const buttons = form.querySelectorAll('button');
    for (const button of buttons) button.disabled = true;
    try {
      const answer = await fetch(form.action, {
        method: 'POST', credentials: 'same-origin', body: new URLSearchParams(new FormData(form)),
        headers: { 'X-CSRF-Token': csrf },
      });
      apply(await answer.text());
      // The start form stays (the live parts were replaced): cleared once
      // it started a timer, and with a new key either way, since a form
      // sent again after a change is another intent.
      if (form.id === 'start') {
        if (answer.ok) form.reset();
        form.elements.key.value = newKey();
      }
    } catch (error) {
      say('Could not reach trackee; try again.');
    } finally {
      delete form.dataset.busy;
      for (const button of buttons) button.disabled = false;
    }
  });

  const pad = (n) => String(n).padStart(2, '0');
  setInterval(() => {
    const clock = document.getElementById('elapsed');
    if (!clock) return;
    const seconds = Number(clock.dataset.elapsed) + Math.floor((performance.now() - shownAt) / 1000);
    clock.textContent = `${Math.floor(seconds / 3600)}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
  }, 1000);

  let stream = null;
  let wait = 500;
  let opened = false;
  const connect = () => {
    stream = new EventSource('/events');
    stream.onopen = () => {
      wait = 500;
      say('Live');
      // What happened while the stream was down is read now.
      if (opened) refresh().catch(() => {});
      opened = true;
    };
    for (const name of ['started', 'switched', 'stopped', 'cancelled', 'fired', 'changed']) {
      stream.addEventListener(name, () => { refresh().catch(() => {}); });
    }
    const reconnect = () => {
      stream.close();
      say('Reconnecting…');
      setTimeout(connect, wait);
      wait = Math.min(wait * 2, 10000);
    };
    stream.addEventListener('end', reconnect);
    stream.onerror = () => { if (stream.readyState !== EventSource.OPEN) reconnect(); };
  };
  connect();
})();
