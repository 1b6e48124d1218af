/* tactica calculator page: the form is the scenario (weapon lines, target models,
 * context, effects); picking a library unit or preset fills the rows from /api.
 * Calculate posts the scenario to /api/calc and draws the result. The scenario is kept
 * in the URL fragment (#s=base64url(JSON)) so a result can be shared; pinned results
 * (#p=...) are compared on one chart. Nothing typed here is evaluated: JSON.parse only. */
(function () {
  "use strict";
  const C = window.TacticaCharts;
  const F = window.TacticaForm;
  const { b64decode, b64encode, int, node } = F;
  const $ = (id) => document.getElementById(id);
  const MAX_PINS = 3;
  let effects = [];          // last /api/effects/check answer
  const chosen = new Map();  // named effect -> parameter ("" when none)
  let pins = [];             // {label, scenario, result}
  let last = null;           // {scenario, result}
  let attackerUnit = null;   // the library unit the rows came from
  let calcSeq = 0;
  let checkSeq = 0;
  let checkTimer = null;

  // --- small helpers -----------------------------------------------------------------
  function status(text, kind) {
    const s = $("status");
    s.textContent = text;
    s.dataset.kind = kind || "";
  }
  async function getJSON(url, options) {
    const response = await fetch(url, options);
    let body = null;
    try { body = await response.json(); } catch (e) { body = null; }
    return { ok: response.ok, status: response.status, body };
  }
  // --- units and targets from the library ------------------------------------------------
  async function loadAttacker(keepSelection) {
    const name = $("attacker-unit").value.trim();
    if (!name) return;
    const q = new URLSearchParams({ phase: $("phase").value, rules: $("rules").value });
    if (keepSelection && $("attacker-models").value) q.set("models", $("attacker-models").value);
    const r = await getJSON(`/api/units/${encodeURIComponent(name)}/attacker?${q}`);
    const notes = $("attacker-notes");
    notes.replaceChildren();
    if (!r.ok) {
      notes.appendChild(node("li", { class: "error-text" }, message(r.body)));
      return;
    }
    const c = r.body;
    attackerUnit = c.unit;
    $("attacker-unit").value = c.unit;
    $("attacker-name").value = c.unit;
    $("attacker-models").value = c.models;
    $("attacker-models").max = c.max_models;
    $("attacker-keywords").value = c.keywords.join(", ");
    $("ctx-attacker-toughness").value = c.attacker_toughness ?? "";
    if (c.phase && $("phase").value !== c.phase) $("phase").value = c.phase;
    F.setWeapons(c.weapons);
    for (const n of c.notes) notes.appendChild(node("li", {}, n));
    if (c.damaged) notes.appendChild(node("li", {}, "Damaged " + c.damaged));
    const link = node("a", { href: `/units/${encodeURIComponent(c.unit)}?rules=${c.rules}` },
                      `${c.unit} datasheet (${c.rules})`);
    const li = node("li", {});
    li.appendChild(link);
    notes.appendChild(li);
    changed();
  }
  function attackerModelsChanged(event) {
    const before = Number(event.target.dataset.previous || 0);
    const now = int(event.target.value);
    if (typeof now === "number" && before) {
      for (const row of $("weapons").children) {
        const count = row.querySelector(".f-count");
        if (Number(count.value) === before) count.value = now;
      }
    }
    event.target.dataset.previous = event.target.value;
    changed();
  }
  async function loadTarget(withModels) {
    const name = $("target-unit").value.trim();
    if (!name) return;
    const q = new URLSearchParams({ rules: $("rules").value });
    if (withModels && $("target-models").value) q.set("models", $("target-models").value);
    const r = await getJSON(`/api/targets/${encodeURIComponent(name)}?${q}`);
    if (!r.ok) {
      status(message(r.body), "error");
      return;
    }
    const t = r.body;
    $("target-name").value = t.name;
    $("target-keywords").value = t.keywords.join(", ");
    $("target-dr").value = t.damage_reduction;
    $("target-half").checked = t.half_damage;
    F.setGroups(t.models);
    $("target-models").value = t.models.reduce((n, g) => n + g.count, 0);
    changed();
  }

  // --- named effects ----------------------------------------------------------------------
  function changed() {
    clearTimeout(checkTimer);
    checkTimer = setTimeout(checkEffects, 200);
  }
  async function checkEffects() {
    const seq = ++checkSeq;
    let s;
    try { s = F.readScenario(null); } catch (e) { return; }
    if (!s.attacker.weapons.length) {
      s.attacker.weapons = [{ name: "probe", A: "1", skill: 4, S: 4, D: "1",
                              range: s.phase === "fight" ? "Melee" : 24 }];
    }
    if (!s.target.models.length) s.target.models = [{ T: 4, Sv: 4, W: 1 }];
    const r = await getJSON("/api/effects/check", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(s) });
    if (seq !== checkSeq || !r.ok) return;
    effects = r.body;
    renderEffects();
  }
  function renderEffects() {
    // a name read from a link may hold a colon of its own ("Damaged: 1-8 wounds remaining")
    for (const [key, param] of [...chosen]) {
      if (!param || effects.some((e) => e.name === key)) continue;
      const whole = effects.find((e) => e.name === `${key}: ${param}`);
      if (whole) { chosen.delete(key); chosen.set(whole.name, ""); }
    }
    const box = $("effects");
    const other = $("effects-other");
    box.replaceChildren();
    other.replaceChildren();
    const dropped = [];
    for (const e of effects) {
      if (!e.holds) {
        if (chosen.has(e.name)) { chosen.delete(e.name); dropped.push(e.failures.join("; ")); }
        const li = node("li", {});
        li.append(node("a", { href: "/rules/" + encodeURIComponent(e.name) }, e.name),
                  document.createTextNode(" — " + e.failures.map((f) => f.replace(e.name + ": ", "")).join("; ")));
        other.appendChild(li);
        continue;
      }
      const row = node("div", { class: "effect" });
      const label = node("label", { class: "check" });
      const box1 = node("input", { type: "checkbox", "data-effect": e.name });
      box1.checked = chosen.has(e.name);
      label.append(box1, document.createTextNode(" " + e.name));
      const meta = node("span", { class: "meta" },
                        `${e.cp ? e.cp + "CP · " : ""}${e.kind} · ${e.source} — ${e.terms}`);
      row.append(label, meta);
      if (e.parameter) {
        const sel = node("select", { "aria-label": e.name + " option", class: "param" });
        sel.appendChild(node("option", { value: "" }, "—"));
        for (const opt of e.parameter.split("|").map((x) => x.trim())) {
          sel.appendChild(node("option", { value: opt }, opt));
        }
        sel.value = chosen.get(e.name) || "";
        sel.addEventListener("change", () => { if (chosen.has(e.name)) chosen.set(e.name, sel.value); });
        row.appendChild(sel);
        box1.addEventListener("change", () => {
          if (box1.checked) chosen.set(e.name, sel.value); else chosen.delete(e.name);
        });
      } else {
        box1.addEventListener("change", () => {
          if (box1.checked) chosen.set(e.name, ""); else chosen.delete(e.name);
        });
      }
      box.appendChild(row);
    }
    if (!box.children.length) box.appendChild(node("p", { class: "hint" }, "None for this attack."));
    $("effects-other-count").textContent = String(other.children.length);
    if (dropped.length) status("Rules no longer in play: " + dropped.join("; "), "warn");
  }

  // --- calculate ----------------------------------------------------------------------------
  function message(body) {
    if (!body) return "the server did not answer";
    if (typeof body.detail === "string") return body.detail;
    if (Array.isArray(body.detail)) {
      return body.detail.map((d) => `${(d.loc || []).filter((p) => p !== "body").join(".") || "request"}: ${d.msg}`).join("\n");
    }
    return JSON.stringify(body);
  }
  function markInvalid(body, scenario) {
    if (!body || !Array.isArray(body.detail)) return;
    const rows = [...$("weapons").children].filter((r) => r.querySelector(".f-use").checked);
    for (const d of body.detail) {
      const loc = (d.loc || []).filter((p) => p !== "body");
      let input = null;
      if (loc[0] === "attacker" && loc[1] === "weapons" && typeof loc[2] === "number") {
        const row = rows[loc[2]];
        input = row && (row.querySelector(".f-" + (loc[3] || "name")) || row.querySelector(".f-name"));
      } else if (loc[0] === "target" && loc[1] === "models" && typeof loc[2] === "number") {
        const row = $("target-groups").children[loc[2]];
        input = row && (row.querySelector(".f-" + (loc[3] || "name")) || row.querySelector(".f-name"));
      } else if (loc[0] === "context" && loc[1] === "distance") input = $("ctx-distance");
      else if (loc[0] === "trials") input = $("trials");
      if (input) input.classList.add("invalid");
    }
    void scenario;
  }
  async function calculate() {
    document.querySelectorAll(".invalid").forEach((n) => n.classList.remove("invalid"));
    let s;
    try { s = F.readScenario(chosen); } catch (e) { return showError(e.message); }
    const seq = ++calcSeq;
    $("result").dataset.state = "loading";
    status("Calculating…");
    $("calculate").disabled = true;
    const r = await getJSON("/api/calc", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(s) });
    if (seq !== calcSeq) return;
    $("calculate").disabled = false;
    if (!r.ok) {
      markInvalid(r.body, s);
      $("result").dataset.state = "error";
      return showError(message(r.body));
    }
    $("error").hidden = true;
    last = { scenario: s, result: r.body };
    render(r.body, s);
    writeUrl();
    $("pin").disabled = false;
    status(`${r.body.method === "exact" ? "Exact" : "Monte Carlo"} result, ${r.body.rules} rules.`, "ok");
    $("result").dataset.state = "done";
    if (window.innerWidth < 800) $("status").scrollIntoView({ block: "start" });
  }
  function showError(text) {
    const box = $("error");
    box.textContent = text;
    box.hidden = false;
    status("Not calculated: see the message below.", "error");
  }

  function card(label, value, key, exact) {
    const d = node("div", { class: "card", "data-key": key, "data-value": String(exact) });
    d.append(node("span", { class: "label" }, label), node("strong", {}, value));
    return d;
  }
  function render(res, s) {
    $("result").hidden = false;  // first: the charts take their width from the page
    const models = s.target.models.reduce((n, g) => n + (g.count || 1), 0);
    const headline = node("div", { class: "headline" });
    headline.append(
      card("Expected damage", res.damage.mean.toFixed(2), "damage", res.damage.mean),
      card("Models destroyed", res.models_destroyed.mean.toFixed(2), "models_destroyed", res.models_destroyed.mean),
      card("Unit destroyed", C.pct(res.p_unit_destroyed), "p_unit_destroyed", res.p_unit_destroyed));
    const pipeline = node("div", { class: "pipeline" });
    pipeline.append(
      card("Attacks", res.attacks.mean.toFixed(2), "attacks", res.attacks.mean),
      card("Hits", res.hits.mean.toFixed(2), "hits", res.hits.mean),
      card("Wounds", res.wounds.mean.toFixed(2), "wounds", res.wounds.mean),
      card("Unsaved", res.unsaved.mean.toFixed(2), "unsaved", res.unsaved.mean));
    if (res.cp_spent) pipeline.appendChild(card("CP spent", String(res.cp_spent), "cp_spent", res.cp_spent));
    if (res.attacker_mortal_wounds.mean) {
      pipeline.appendChild(card("Mortal wounds to attacker", res.attacker_mortal_wounds.mean.toFixed(2),
                                "attacker_mortal_wounds", res.attacker_mortal_wounds.mean));
    }
    $("summary").replaceChildren(headline, pipeline);
    const label = `${s.attacker.name} → ${s.target.name}`;
    C.barChart($("chart-damage"), [{ label, values: res.damage.pmf }],
               { title: "damage distribution", xTitle: "damage", yTitle: "P(exactly)" });
    C.barChart($("chart-destroyed"), [{ label, values: res.models_destroyed.pmf }],
               { title: "models destroyed", xTitle: "models destroyed", yTitle: "P(exactly)", minX: Math.min(models, 12) });
    C.lineChart($("chart-atleast"), [{ label, values: C.atLeast(res.models_destroyed.pmf, models) }],
                { title: "chance to destroy at least N models", xTitle: "at least N models", yTitle: "P(at least)", from: 1, to: models });
    const stages = $("stages");
    stages.replaceChildren();
    const head = stages.createTHead().insertRow();
    for (const h of ["weapon", "stage", "how"]) head.appendChild(node("th", {}, h));
    const body = stages.createTBody();
    for (const st of res.stages) {
      const row = body.insertRow();
      row.insertCell().textContent = st.weapon;
      row.insertCell().textContent = st.stage;
      row.insertCell().textContent = st.detail;
    }
    const ws = $("weapon-summary");
    ws.replaceChildren();
    const wh = ws.createTHead().insertRow();
    for (const h of ["weapon", "attacks", "hits", "wounds", "critical wounds"]) wh.appendChild(node("th", {}, h));
    const wb = ws.createTBody();
    for (const w of res.weapons) {
      const row = wb.insertRow();
      row.insertCell().textContent = w.weapon;
      for (const k of ["attacks", "hits", "wounds", "critical_wounds"]) row.insertCell().textContent = w[k].toFixed(2);
    }
    const nc = $("not-calculated");
    nc.replaceChildren(...res.not_calculated.map((t) => node("li", {}, t)));
    $("not-calculated-box").hidden = !res.not_calculated.length;
    const notes = [...res.notes];
    if (res.effects_applied.length) notes.unshift("Rules applied: " + res.effects_applied.join(", "));
    for (const o of res.other_mortal_wounds) notes.push(`${o.label}: expected ${o.distribution.mean.toFixed(2)}`);
    $("notes").replaceChildren(...notes.map((t) => node("li", {}, t)));
    $("notes-box").hidden = !notes.length;
  }

  // --- compare -------------------------------------------------------------------------------
  function pinLabel(s) {
    const letter = "ABCD"[pins.length] || "?";
    return `${letter}: ${s.attacker.name} → ${s.target.name}`;
  }
  function renderPins() {
    const list = $("pins");
    list.replaceChildren();
    pins.forEach((p, k) => {
      const li = node("li", { class: "pin" });
      li.append(node("span", { class: "swatch s" + k }), node("span", { class: "pin-label" }, p.label),
                node("span", { class: "meta" }, ` ${p.result.models_destroyed.mean.toFixed(2)} models, ${p.result.damage.mean.toFixed(2)} damage`));
      const del = node("button", { type: "button", class: "icon del", title: "unpin" }, "×");
      del.addEventListener("click", () => { pins.splice(k, 1); renderPins(); writeUrl(); });
      li.appendChild(del);
      list.appendChild(li);
    });
    const box = $("chart-compare");
    box.replaceChildren();
    if (!pins.length) return;
    const metric = $("compare-metric").value;
    const series = pins.map((p) => ({ label: p.label, values: C.atLeast(p.result[metric].pmf) }));
    const to = metric === "models_destroyed"
      ? Math.max(...pins.map((p) => p.scenario.target.models.reduce((n, g) => n + (g.count || 1), 0)))
      : undefined;
    C.lineChart(box, series, { title: "compare", from: 1, to,
      xTitle: metric === "damage" ? "at least N damage" : "at least N models destroyed", yTitle: "P(at least)" });
  }
  async function addPin(scenario, result, label) {
    if (pins.length >= MAX_PINS) {
      status(`At most ${MAX_PINS} results can be compared: unpin one first.`, "warn");
      return;
    }
    if (!result) {
      const r = await getJSON("/api/calc", { method: "POST", headers: { "content-type": "application/json" },
                                             body: JSON.stringify(scenario) });
      if (!r.ok) return;
      result = r.body;
    }
    pins.push({ label: label || pinLabel(scenario), scenario, result });
    renderPins();
  }

  // --- URL ---------------------------------------------------------------------------------
  function writeUrl() {
    const parts = [];
    if (last) parts.push("s=" + b64encode(last.scenario));
    if (pins.length) parts.push("p=" + b64encode(pins.map((p) => ({ l: p.label, s: p.scenario }))));
    history.replaceState(null, "", location.pathname + (parts.length ? "#" + parts.join("&") : ""));
  }
  async function readUrl() {
    const hash = new URLSearchParams(location.hash.slice(1));
    const query = new URLSearchParams(location.search);
    const encoded = hash.get("s") || query.get("s");
    try {
      const pinned = hash.get("p");
      if (pinned) for (const p of b64decode(pinned).slice(0, MAX_PINS)) await addPin(p.s, null, p.l);
      if (encoded) {
        F.fillForm(b64decode(encoded), chosen);
        attackerUnit = $("attacker-unit").value || null;
        await checkEffects();
        await calculate();
        return;
      }
    } catch (e) {
      showError("The link's scenario could not be read: " + e.message);
      return;
    }
    if (query.get("rules")) $("rules").value = query.get("rules");
    $("attacker-unit").value = query.get("attacker") || "";
    $("target-unit").value = query.get("target") || "meq";
    if ($("attacker-unit").value) await loadAttacker(false);
    else F.setWeapons([{ name: "Bolt rifle", count: 10, range: 24, A: "2", skill: 3, S: 4, AP: -1,
                       D: "1", abilities: ["Heavy"], selected: true }]);
    await loadTarget(false);
  }

  // --- wiring -------------------------------------------------------------------------------
  function share() {
    if (!last) { status("Calculate first: the link holds the scenario.", "warn"); return; }
    writeUrl();
    const url = location.href;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(() => status("Link copied.", "ok"),
                                               () => status("Link: " + url, "ok"));
    } else {
      status("Link: " + url, "ok");
    }
  }
  function init() {
    F.onChange(changed);
    const form = $("scenario-form");
    form.addEventListener("submit", (e) => { e.preventDefault(); calculate(); });
    form.addEventListener("input", (e) => { if (!e.target.closest("#effects")) changed(); });
    $("attacker-unit").addEventListener("change", () => loadAttacker(false));
    $("attacker-models").addEventListener("change", attackerModelsChanged);
    $("attacker-models").addEventListener("focus", (e) => { e.target.dataset.previous = e.target.value; });
    $("phase").addEventListener("change", () => (attackerUnit ? loadAttacker(true) : changed()));
    $("rules").addEventListener("change", () => {
      if (attackerUnit) loadAttacker(true);
      if ($("target-unit").value) loadTarget(true);
      changed();
    });
    $("target-unit").addEventListener("change", () => loadTarget(false));
    $("target-models").addEventListener("change", () => loadTarget(true));
    $("method").addEventListener("change", F.methodChanged);
    $("add-weapon").addEventListener("click", () => {
      const melee = $("phase").value === "fight";
      $("weapons").appendChild(F.weaponRow({ name: "weapon", count: int($("attacker-models").value) || 1,
        range: melee ? "Melee" : 24, A: "1", skill: 3, S: 4, AP: 0, D: "1", abilities: [] }, true));
    });
    $("add-group").addEventListener("click", () => {
      $("target-groups").appendChild(F.groupRow({ name: "model", count: 1, T: 4, Sv: 3, W: 2 }));
      changed();
    });
    $("pin").addEventListener("click", () => last && addPin(last.scenario, last.result).then(writeUrl));
    $("compare-metric").addEventListener("change", renderPins);
    $("share").addEventListener("click", share);
    window.addEventListener("hashchange", () => {
      const s = new URLSearchParams(location.hash.slice(1)).get("s");
      if (s && (!last || s !== b64encode(last.scenario))) { pins = []; renderPins(); readUrl(); }
    });
    let resizeTimer = null;
    let width = window.innerWidth;
    window.addEventListener("resize", () => {
      if (window.innerWidth === width) return;
      width = window.innerWidth;
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(() => {
        if (last) render(last.result, last.scenario);
        renderPins();
      }, 200);
    });
    readUrl().then(changed);
  }
  init();
})();
