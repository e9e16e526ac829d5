// AiVista front page: shows what /api/health says. Text from the server is
// always inserted as text, never as HTML.
const api = new URL('api/', document.baseURI);

function row(dl, name, value) {
  const dt = document.createElement('dt');
  const dd = document.createElement('dd');
  dt.textContent = name;
  dd.textContent = value;
  dl.append(dt, dd);
}

async function checkHealth() {
  const summary = document.getElementById('health-summary');
  const dl = document.getElementById('health-details');
  summary.textContent = 'Checking… · 检查中…';
  dl.replaceChildren();
  try {
    const res = await fetch(new URL('health', api), { cache: 'no-store' });
    const h = await res.json();
    summary.textContent = h.status === 'ok'
      ? 'AiVista is running · 运行正常'
      : 'AiVista is running, but the store is unavailable · 存储不可用';
    summary.dataset.status = h.status;
    row(dl, 'Version', `${h.name} ${h.version}`);
    row(dl, 'Worker', String(h.pid));
    row(dl, 'Store', h.store.reachable ? `reachable (${h.store.durability})` : `unreachable: ${h.store.error}`);
    for (const [role, kind] of Object.entries(h.providers || {})) row(dl, `Provider: ${role}`, kind);
  } catch (e) {
    summary.textContent = 'The server did not answer. Is it running? · 服务器未响应';
    summary.dataset.status = 'down';
  }
}

document.getElementById('health-refresh').addEventListener('click', checkHealth);
checkHealth();
