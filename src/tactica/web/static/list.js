/* tactica list page: send the pasted (or opened) list to /api/list/validate and show
 * the priced breakdown and every violation. */
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  let fileName = null;

  function node(tag, attrs, text) {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") n.className = v; else n.setAttribute(k, v);
    }
    if (text !== undefined) n.textContent = text;
    return n;
  }
  function status(text, kind) {
    $("list-status").textContent = text;
    $("list-status").dataset.kind = kind || "";
  }
  function message(body) {
    if (!body) return "the server did not answer";
    if (typeof body.detail === "string") return body.detail;
    if (Array.isArray(body.detail)) {
      return body.detail.map((d) => `${(d.loc || []).filter((p) => p !== "body").join(".")}: ${d.msg}`).join("\n");
    }
    return JSON.stringify(body);
  }
  function fact(dl, key, value) {
    if (value === null || value === undefined || value === "") return;
    dl.append(node("dt", {}, key), node("dd", {}, String(value)));
  }
  function render(r) {
    $("list-title").textContent = r.name;
    const dl = $("list-facts");
    dl.replaceChildren();
    fact(dl, "Verdict", r.legal ? "legal" : "not legal");
    fact(dl, "Faction", r.faction);
    fact(dl, "Detachments", r.detachments.join(", "));
    fact(dl, "Battle size", r.battle_size);
    fact(dl, "Points", r.limit ? `${r.total} / ${r.limit}` : r.total);
    if (r.declared !== null && r.declared !== r.total) fact(dl, "The list says", r.declared);
    if (r.detachment_points !== null) {
      fact(dl, "Detachment points", r.detachment_budget !== null ? `${r.detachment_points} / ${r.detachment_budget}` : r.detachment_points);
    }
    fact(dl, "Rules", r.rules);
    fact(dl, "Format", r.format);
    const ul = $("violations");
    ul.replaceChildren();
    for (const v of r.violations) {
      const li = node("li", { "data-code": v.code });
      li.append(node("span", { class: "code " + v.severity }, v.code), document.createTextNode(" "));
      if (v.unit) li.append(node("strong", {}, v.unit + ": "));
      li.append(document.createTextNode(v.message), node("div", { class: "hint" }, v.rule));
      ul.appendChild(li);
    }
    if (!r.violations.length) ul.appendChild(node("li", {}, "None: the list is legal."));
    $("violation-count").textContent = String(r.violations.length);
    const t = $("breakdown");
    t.replaceChildren();
    const head = t.createTHead().insertRow();
    for (const h of ["unit", "models", "points", "list says"]) head.appendChild(node("th", {}, h));
    const body = t.createTBody();
    for (const u of r.units) {
      const row = body.insertRow();
      row.dataset.unit = u.unit_id;
      const name = row.insertCell();
      if (u.page) name.appendChild(node("a", { href: u.page }, u.name)); else name.appendChild(node("span", {}, u.name));
      for (const e of u.enhancements) {
        name.appendChild(node("div", { class: "sub" }, `+ ${e.name} (${e.points} pts${e.known ? "" : ", not in the library"})`));
      }
      for (const n of u.notes) name.appendChild(node("div", { class: "sub" }, n));
      row.insertCell().textContent = u.models;
      const points = row.insertCell();
      points.textContent = u.base === null ? "?" : u.total;
      points.title = u.base === null ? "no points known" : `${u.base} + enhancements`;
      row.insertCell().textContent = u.stated === null ? "" : u.stated;
    }
    const total = t.createTFoot().insertRow();
    total.className = "total-row";
    total.insertCell().textContent = r.limit ? `Total (limit ${r.limit})` : "Total";
    total.insertCell();
    const cell = total.insertCell();
    cell.textContent = r.total;
    cell.id = "list-total";
    total.insertCell().textContent = r.declared === null ? "" : r.declared;
    window.TacticaStack(t);
    $("list-result").hidden = false;
  }
  async function check(event) {
    event.preventDefault();
    const text = $("list-text").value;
    if (!text.trim()) { status("Paste a list first.", "warn"); return; }
    status("Checking…");
    $("list-result").dataset.state = "loading";
    const payload = { text };
    if ($("list-format").value) payload.format = $("list-format").value;
    if (fileName) payload.file = fileName;
    const response = await fetch("/api/list/validate", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload) });
    let body = null;
    try { body = await response.json(); } catch (e) { body = null; }
    if (!response.ok) {
      $("list-result").hidden = true;
      $("list-result").dataset.state = "error";
      status(message(body), "error");
      return;
    }
    render(body);
    $("list-result").dataset.state = "done";
    const errors = body.violations.filter((v) => v.severity === "error").length;
    const warnings = body.violations.length - errors;
    const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
    status(body.legal ? `Legal: ${body.total} points${warnings ? ", " + plural(warnings, "warning") : ""}.`
                      : `Not legal: ${plural(errors, "error")}, ${plural(warnings, "warning")}.`,
           body.legal ? "ok" : "warn");
  }
  $("list-file").addEventListener("change", () => {
    const file = $("list-file").files[0];
    if (!file) return;
    if (file.size > 256 * 1024) { status("The file is over 256 KB: not an army list.", "error"); return; }
    fileName = file.name;
    file.text().then((text) => { $("list-text").value = text; status(`${file.name} loaded.`); });
  });
  $("list-text").addEventListener("input", () => { fileName = null; });
  $("list-form").addEventListener("submit", check);
})();
