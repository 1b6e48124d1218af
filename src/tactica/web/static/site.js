/* Every page: the menu on a narrow screen (one row: the page's name and a Menu button
 * that opens the links) and the service worker that shows the offline page when the
 * server cannot be reached (/sw.js). Loaded in the head, so the menu starts folded. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  function menu() {
    const top = document.querySelector("header.top");
    const button = top && top.querySelector(".menu-toggle");
    if (!button) return;
    button.addEventListener("click", () => {
      const open = top.classList.toggle("open");
      button.setAttribute("aria-expanded", String(open));
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", menu);
  else menu();
  if ("serviceWorker" in navigator && window.isSecureContext) {
    window.addEventListener("load", () => {
      navigator.serviceWorker.register("/sw.js").catch(() => {});
    });
  }
})();

/* A table.stack's cells named after their column's heading (data-label), so that a
 * narrow screen shows each row as a card (style.css). The pages call it on the tables
 * they draw; server-drawn tables are labelled when the page has loaded. */
window.TacticaStack = function (table) {
  "use strict";
  const head = table.tHead ? table.tHead.rows[0] : null;
  if (!head) return;
  const names = [...head.cells].map((c) => c.textContent.replace(/[▲▼]/g, "").trim());
  for (const body of [...table.tBodies, ...(table.tFoot ? [table.tFoot] : [])]) {
    for (const row of body.rows) {
      [...row.cells].forEach((cell, k) => {
        if (names[k] && !cell.dataset.label) cell.dataset.label = names[k];
      });
    }
  }
};
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("table.stack").forEach((t) => window.TacticaStack(t));
});
