// The hosted hand-off page: shows the job's page live and sends the person's pointer, wheel, keys and
// pasted text to it, in order. The status line says what the service waits for, then how it ended.
(() => {
  const view = document.getElementById("live-view");
  const status = document.getElementById("handoff-status");
  if (!view || !status) return;
  const base = `/handoff/${view.dataset.token}`;
  let size = { width: 1, height: 1 };
  let sending = Promise.resolve();
  const send = (event) => {
    sending = sending.then(() =>
      fetch(`${base}/input`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(event),
      }).catch(() => undefined),
    );
  };
  const at = (e) => {
    const box = view.getBoundingClientRect();
    return {
      x: ((e.clientX - box.left) * size.width) / box.width,
      y: ((e.clientY - box.top) * size.height) / box.height,
    };
  };
  const stream = new EventSource(`${base}/stream`);
  stream.addEventListener("frame", (e) => {
    const frame = JSON.parse(e.data);
    size = { width: frame.width, height: frame.height };
    view.dataset.pageWidth = String(frame.width);
    view.dataset.pageHeight = String(frame.height);
    view.src = `data:image/jpeg;base64,${frame.data}`;
  });
  stream.addEventListener("status", (e) => {
    const s = JSON.parse(e.data);
    status.textContent = s.text;
    if (s.final) {
      stream.close();
      view.removeAttribute("src");
      view.hidden = true;
    }
  });
  view.addEventListener("click", (e) => {
    view.focus();
    send({ type: "click", ...at(e) });
  });
  view.addEventListener(
    "wheel",
    (e) => {
      e.preventDefault();
      send({ type: "wheel", ...at(e), dx: e.deltaX, dy: e.deltaY });
    },
    { passive: false },
  );
  const KEYS = new Set([
    "Enter",
    "Tab",
    "Backspace",
    "Delete",
    "Escape",
    "ArrowLeft",
    "ArrowRight",
    "ArrowUp",
    "ArrowDown",
    "Home",
    "End",
  ]);
  view.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === " ") send({ type: "key", key: "Space" });
    else if (e.key.length === 1) send({ type: "text", text: e.key });
    else if (KEYS.has(e.key)) send({ type: "key", key: e.key });
    else return;
    e.preventDefault();
  });
  document.addEventListener("paste", (e) => {
    const text = e.clipboardData && e.clipboardData.getData("text");
    if (text) send({ type: "text", text: text.slice(0, 1000) });
  });
})();
